package batchpipe.worker.task;

import batchpipe.common.table.TableCall;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WriteStatsTest {

    @Test
    void time_returnsTheResultAndCountsEachCall() {
        WriteStats stats = new WriteStats();

        assertThat(stats.time(TableCall.TASK_RECORD_PUT, () -> "first")).isEqualTo("first");
        assertThat(stats.time(TableCall.PROGRESS_UPDATE, () -> 2)).isEqualTo(2);

        assertThat(stats.calls()).isEqualTo(2);
        assertThat(stats.maxMs()).isLessThanOrEqualTo(stats.totalMs());
    }

    @Test
    void time_countsACallThatThrows() {
        WriteStats stats = new WriteStats();

        assertThatThrownBy(() -> stats.time(TableCall.HASH_BATCH_WRITE, () -> {
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

    @Test
    void time_leavesReadsOutOfTheWriteTotalsButGivesEveryCallToTheInvocation() {
        java.util.List<TableCall> seen = new java.util.ArrayList<>();
        WriteStats stats = new WriteStats((call, micros) -> seen.add(call));

        stats.time(TableCall.TASK_RECORD_READ, () -> null);
        stats.time(TableCall.TASK_RECORD_PUT, () -> null);

        assertThat(stats.calls()).isEqualTo(1);
        assertThat(seen).containsExactly(TableCall.TASK_RECORD_READ, TableCall.TASK_RECORD_PUT);
    }
}
