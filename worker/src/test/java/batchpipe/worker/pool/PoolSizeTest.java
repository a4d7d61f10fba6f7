package batchpipe.worker.pool;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PoolSizeTest {
    private static final String MEMORY = "AWS_LAMBDA_FUNCTION_MEMORY_SIZE";

    @Test
    void from_workerCountWinsOverMemoryAndProcessors() {
        PoolSize size = PoolSize.from(Map.of("WORKER_COUNT", "5", MEMORY, "128"), 2);

        // the share still says what the memory buys: 128 / 1769 = 0.0724
        assertThat(size).isEqualTo(new PoolSize(5, 0.072));
    }

    @Test
    void from_oneHundredTwentyEightMegabytesGetsOneThread() {
        assertThat(PoolSize.from(Map.of(MEMORY, "128"), 2)).isEqualTo(new PoolSize(1, 0.072));
    }

    @Test
    void from_oneFullVcpuGetsOneThreadAndOneMegabyteMoreGetsTwo() {
        assertThat(PoolSize.from(Map.of(MEMORY, "1769"), 2)).isEqualTo(new PoolSize(1, 1.0));
        // 1770 / 1769 = 1.00057: a second, tiny vCPU share
        assertThat(PoolSize.from(Map.of(MEMORY, "1770"), 2)).isEqualTo(new PoolSize(2, 1.001));
    }

    @Test
    void from_threeThousandEightMegabytesWithTwoProcessorsGetsTwoThreads() {
        // 3008 / 1769 = 1.7004
        assertThat(PoolSize.from(Map.of(MEMORY, "3008"), 2)).isEqualTo(new PoolSize(2, 1.7));
    }

    @Test
    void from_tenGigabytesIsCappedAtTheVisibleProcessors() {
        // 10240 / 1769 = 5.78858: six vCPUs' worth, but only two processors are visible
        assertThat(PoolSize.from(Map.of(MEMORY, "10240"), 2)).isEqualTo(new PoolSize(2, 5.789));
        assertThat(PoolSize.from(Map.of(MEMORY, "10240"), 8)).isEqualTo(new PoolSize(6, 5.789));
    }

    @Test
    void from_withoutMemorySizeUsesTheVisibleProcessors() {
        assertThat(PoolSize.from(Map.of(), 4)).isEqualTo(new PoolSize(4, 4.0));
        assertThat(PoolSize.from(Map.of(MEMORY, " "), 3)).isEqualTo(new PoolSize(3, 3.0));
    }

    @Test
    void from_ignoresABlankWorkerCount() {
        assertThat(PoolSize.from(Map.of("WORKER_COUNT", "", MEMORY, "3008"), 2)).isEqualTo(new PoolSize(2, 1.7));
    }

    @Test
    void from_rejectsAWorkerCountOutOfRangeNamingTheVariable() {
        assertThatThrownBy(() -> PoolSize.from(Map.of("WORKER_COUNT", "0"), 2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("environment variable WORKER_COUNT is 0; it must be between 1 and 256");
        assertThatThrownBy(() -> PoolSize.from(Map.of("WORKER_COUNT", "many"), 2))
                .hasMessage("environment variable WORKER_COUNT must be a whole number, got 'many'");
    }

    @Test
    void from_rejectsAMemorySizeLambdaCannotHave() {
        assertThatThrownBy(() -> PoolSize.from(Map.of(MEMORY, "64"), 2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("environment variable AWS_LAMBDA_FUNCTION_MEMORY_SIZE is 64; it must be between 128 and 10240");
    }
}
