package batchpipe.worker.scan;

import batchpipe.worker.benchmark.MicrosecondsPerOperation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.util.Random;

/**
 * The digit-run kernel alone: {@link JsonLineValidator#skipDigits} (eight bytes at a time) over 1 MB of
 * comma-separated digit runs of one length, against the byte-at-a-time loop it replaced ({@code bytewise}).
 * 3 digits: a status; 6: the long-values shape's samples; 13: a millisecond timestamp.
 */
public class DigitRunBenchmark extends MicrosecondsPerOperation {

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
