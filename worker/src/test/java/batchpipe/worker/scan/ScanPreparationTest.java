package batchpipe.worker.scan;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

class ScanPreparationTest {

    @Test
    void preparingOnOtherThreadsWhileScanningChangesNoCount() throws Exception {
        StringBuilder log = new StringBuilder();
        for (int i = 0; i < 2_000; i++) {
            log.append(ScanFixtures.eventLine(i)).append('\n');
        }
        log.append("{\"a\":NaN}\n");
        byte[] compressed = ScanFixtures.zstd(ScanFixtures.utf8(log.toString()));
        ScanOptions options = ScanOptions.defaults().withCountBy(List.of("level", "status"));

        ExecutorService threads = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> preparing = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                preparing.add(threads.submit(LogScanner::prepare));
            }
            ScanResult during = ScanFixtures.scan(compressed, options);
            for (Future<?> f : preparing) {
                f.get();
            }
            LogScanner.prepare(); // again, after: returns at once
            ScanResult after = ScanFixtures.scan(compressed, options);

            assertThat(during.toJson()).isEqualTo(after.toJson());
            assertThat(during.events()).isEqualTo(2_000);
            assertThat(during.malformed()).isEqualTo(1);
        } finally {
            threads.shutdownNow();
        }
    }
}
