package batchpipe.local.sample;

import batchpipe.worker.scan.LogScanner;
import batchpipe.worker.scan.ScanOptions;
import batchpipe.worker.scan.ScanResult;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;

import static org.assertj.core.api.Assertions.assertThat;

class MalformationsTest {
    @Test
    void everyKind_makesTheScannerCountTheLineMalformed() throws Exception {
        ForkJoinPool pool = new ForkJoinPool(1);
        Set<String> spoiltLines = new HashSet<>();
        try {
            LogScanner scanner = new LogScanner(pool, LogScanner.CLI_CHUNKS_PER_TASK);
            assertThat(scanner.scan(new ByteArrayInputStream(fineLine(-1)), ScanOptions.defaults()).malformed())
                    .as("the line before it is spoilt").isZero();
            for (int seed = 0; seed < 200; seed++) {
                byte[] spoilt = fineLine(seed);
                spoiltLines.add(new String(spoilt, StandardCharsets.ISO_8859_1));
                ScanResult result = scanner.scan(new ByteArrayInputStream(spoilt), ScanOptions.defaults());
                assertThat(result.malformed()).as(new String(spoilt, StandardCharsets.ISO_8859_1)).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(spoiltLines).as("distinct spoilt lines from 200 seeds").hasSizeGreaterThanOrEqualTo(Malformations.KINDS);
    }

    /** A valid line with raw UTF-8 in a string, spoilt by the kind {@code seed} draws (none when negative). */
    private static byte[] fineLine(int seed) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LineBuffer line = new LineBuffer(out);
        line.ascii("{\"ts\":1,\"level\":\"INFO\",\"msg\":\"caf").raw("\u00e9".getBytes(StandardCharsets.UTF_8))
                .ascii(" is fine\",\"status\":200}");
        if (seed >= 0) Malformations.spoil(line, 0, new Random(seed));
        line.endLine();
        line.flush();
        return out.toByteArray();
    }
}
