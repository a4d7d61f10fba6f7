package batchpipe.local.cli;

import org.junit.jupiter.api.Test;

import java.util.concurrent.ForkJoinPool;

import static org.assertj.core.api.Assertions.assertThat;

class ParsingPoolTest {

    @Test
    void theScanPoolParsesAtTheLowestPrioritySoTheReadingThreadKeepsItsCore() throws Exception {
        ForkJoinPool pool = ScanArguments.parsingPool(2);
        try {
            int priority = pool.submit(() -> Thread.currentThread().getPriority()).get();
            assertThat(priority).isEqualTo(Thread.MIN_PRIORITY);
            assertThat(pool.getParallelism()).isEqualTo(2);
        } finally {
            pool.shutdownNow();
        }
    }
}
