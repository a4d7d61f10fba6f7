package batchpipe.aggregator.cost;

import batchpipe.aggregator.TaskRecords;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.table.ProgressShards;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TaskTotalsTest {

    @Test
    void progressUpdateUnits_fromTheColumnsEqualTheRecordsCount_tiesInTaskIdOrder() {
        List<TaskRecord> tasks = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            // ids of 3 to 6 characters, many finishing in the same millisecond
            tasks.add(TaskRecords.task("t" + i, "hash").times(null, 0, 1_000 + i % 37).hashed(1, 4).build());
        }
        tasks.sort(Comparator.comparing(TaskRecord::taskId));
        for (int shards : new int[] {1, 4, 7}) {
            TaskTotals totals = new TaskTotals(1024);
            tasks.forEach(t -> totals.add(t, ItemSize.of(t.toItem())));

            assertThat(totals.progressUpdateUnits(shards, 1024)).as(shards + " shards")
                    .isEqualTo(UsageModel.progressUpdateUnits(new ArrayList<>(tasks), shards, 1024));
        }
        assertThat(ProgressShards.shardOf("t17", 7)).isBetween(0, 6);
    }

    @Test
    void progressUpdateUnits_groupByTheShardARecordNamesAndByIdHashOnlyForRecordsThatNameNone() {
        List<TaskRecord> tasks = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            TaskRecords.Builder t = TaskRecords.task("t" + i, "hash").times(null, 0, 1_000 + i % 37).hashed(1, 4);
            if (i % 5 != 0) t.progressShard(i < 2_000 ? i / 800 : 3); // pages of 800, then a last shard of what is left
            tasks.add(t.build());
        }
        tasks.sort(Comparator.comparing(TaskRecord::taskId));
        TaskTotals totals = new TaskTotals(1024);
        tasks.forEach(t -> totals.add(t, ItemSize.of(t.toItem())));

        long expected = UsageModel.progressUpdateUnits(new ArrayList<>(tasks), 4, 1024);
        assertThat(totals.progressUpdateUnits(4, 1024)).isEqualTo(expected);
        List<TaskRecord> unnamed = tasks.stream().map(t -> t.withProgressShard(null)).toList();
        assertThat(UsageModel.progressUpdateUnits(unnamed, 4, 1024)).as("grouping by the id's hash differs").isNotEqualTo(expected);
    }
}
