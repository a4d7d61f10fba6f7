package batchpipe.worker.scan;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The digit-run kernel alone: {@link JsonLineValidator#skipDigits} (eight bytes at a time) over 1 MB of
 * comma-separated digit runs of one length, against the byte-at-a-time loop it replaced ({@code bytewise}).
 * 3 digits: a status; 6: the long-values shape's samples; 13: a millisecond timestamp.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DigitRunBenchmark {

    @Param({"3", "6", "13"})
    public int length;

    private byte[] runs;

    @Setup
    public void generate() {
        Random random = new Random(19);
        runs = new byte[1 << 20];
        for (int i = 0; i < runs.length; i++) {
            runs[i] = (i + 1) % (length + 1) == 0 ? (byte) ',' : (byte) ('0' + random.nextInt(10));
        }
    }

    long bytes() {
        return runs.length;
    }

    @Benchmark
    public int swar() {
        byte[] b = runs;
        int p = 0;
        while (p < b.length) {
            p = JsonLineValidator.skipDigits(b, p, b.length) + 1;
        }
        return p;
    }

    @Benchmark
    public int bytewise() {
        byte[] b = runs;
        int p = 0;
        while (p < b.length) {
            while (p < b.length && b[p] >= '0' && b[p] <= '9') {
                p++;
            }
            p++;
        }
        return p;
    }
}
