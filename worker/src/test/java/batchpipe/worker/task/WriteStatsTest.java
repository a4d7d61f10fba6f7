package batchpipe.worker.task;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WriteStatsTest {

    @Test
    void time_returnsTheResultAndCountsEachCall() {
        WriteStats stats = new WriteStats();

        assertThat(stats.time(() -> "first")).isEqualTo("first");
        assertThat(stats.time(() -> 2)).isEqualTo(2);

        assertThat(stats.calls()).isEqualTo(2);
        assertThat(stats.maxMs()).isLessThanOrEqualTo(stats.totalMs());
    }

    @Test
    void time_countsACallThatThrows() {
        WriteStats stats = new WriteStats();

        assertThatThrownBy(() -> stats.time(() -> {
            throw new IllegalStateException("throttled");
        })).hasMessage("throttled");

        assertThat(stats.calls()).isEqualTo(1);
    }

    @Test
    void newStats_haveNoCalls() {
        WriteStats stats = new WriteStats();

        assertThat(stats.calls()).isZero();
        assertThat(stats.totalMs()).isZero();
        assertThat(stats.maxMs()).isZero();
    }
}
