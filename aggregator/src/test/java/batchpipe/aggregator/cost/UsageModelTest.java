package batchpipe.aggregator.cost;

import batchpipe.aggregator.TaskRecords;
import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

class UsageModelTest {
    private static final PriceTable PRICES = PriceTable.defaults();

    private static RunRecord run(long planned, long plannedScan, int shards, String spec) {
        return new RunRecord("r1", null, spec, new Planned(plannedScan, planned - plannedScan, planned), 0, 0, "running", shards,
                null, null, List.of(), null, null);
    }

    /** {@code n} hash tasks hash-000001..., each with 4 hashes, spread over invocations of {@code perInvocation}. */
    private static List<TaskRecord> hashTasks(int n, int perInvocation) {
        return hashTasks(n, perInvocation, false);
    }

    /** ... the first of them on a cold start when {@code firstCold}. */
    private static List<TaskRecord> hashTasks(int n, int perInvocation, boolean firstCold) {
        List<TaskRecord> tasks = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            TaskRecords.Builder t = TaskRecords.task(String.format(Locale.ROOT, "hash-%06d", i), "hash").times(null, 1_000L + i, 1_000L + i)
                    .hashed(4, 4).invocation("req-" + ((i - 1) / perInvocation), "worker");
            if (firstCold && i == 1) t.cold(true, 300L);
            tasks.add(t.build());
        }
        return tasks;
    }

    private static long count(List<Quantity> quantities, String itemStart) {
        return quantities.stream().filter(q -> q.item().startsWith(itemStart)).mapToLong(Quantity::count).findFirst().orElseThrow();
    }

    private static UsageModel.Usage measure(RunRecord run, List<TaskRecord> tasks, int messageBytes) {
        CostAssumptions assumptions = new CostAssumptions(30, messageBytes, null);
        return UsageModel.measure(run, tasks, Invocations.of(tasks, List.of()), assumptions, PRICES);
    }

    @Test
    void measure_countsSqsRequestsPerBatchAndPer64KbChunk() {
        List<TaskRecord> tasks = hashTasks(25, 10);   // invocations of 10, 10 and 5 tasks

        UsageModel.Usage small = measure(run(25, 0, 1, "{}"), tasks, 1_024);
        // 2 full batches of 10 x 1 KiB = 1 chunk each, a last batch of 5 = 1 chunk
        assertThat(count(small.sqsRequests(), "SendMessageBatch")).isEqualTo(3);
        assertThat(count(small.sqsRequests(), "ReceiveMessage")).isEqualTo(3);
        assertThat(count(small.sqsRequests(), "DeleteMessageBatch")).isEqualTo(3);
        assertThat(count(small.sqsRequests(), "completion message")).isEqualTo(3);

        UsageModel.Usage large = measure(run(25, 0, 1, "{}"), tasks, 7_000);
        // 10 x 7,000 B = 70,000 B = 2 chunks of 65,536 B; 5 x 7,000 B = 35,000 B = 1 chunk
        assertThat(count(large.sqsRequests(), "SendMessageBatch")).isEqualTo(2 * 2 + 1);
        assertThat(count(large.sqsRequests(), "ReceiveMessage")).isEqualTo(2 + 2 + 1);
        assertThat(count(large.sqsRequests(), "DeleteMessageBatch")).isEqualTo(3);
    }

    @Test
    void measure_sendsNoCompletionMessageForAnIncompleteRun() {
        UsageModel.Usage usage = measure(run(30, 0, 1, "{}"), hashTasks(25, 10), 1_024);

        assertThat(count(usage.sqsRequests(), "completion message")).isZero();
    }

    @Test
    void measure_countsDynamoDbWriteUnitsByItem() {
        List<TaskRecord> tasks = hashTasks(3, 10);
        RunRecord run = run(3, 0, 1, "{}");
        long taskUnits = tasks.stream().mapToLong(t -> Numbers.ceilDiv(ItemSize.of(t.toItem()), 1024)).sum();

        UsageModel.Usage usage = measure(run, tasks, 1_024);

        assertThat(count(usage.writeUnits(), "hash items")).isEqualTo(12);                  // 3 tasks x 4 hashes
        assertThat(taskUnits).isEqualTo(3);
        assertThat(count(usage.writeUnits(), "task records")).isEqualTo(taskUnits);
        assertThat(count(usage.writeUnits(), "progress shard updates")).isEqualTo(3);       // 100 + 3 x 11 B < 1 KB
        assertThat(count(usage.writeUnits(), "run record writes")).isEqualTo(3 + 1);         // (3 + 1 shard) x 1 KB
        assertThat(count(usage.writeUnits(), "progress shard items created")).isEqualTo(1);
        assertThat(UsageModel.Usage.total(usage.writeUnits())).isEqualTo(12 + 3 + 3 + 4 + 1);
    }

    @Test
    void progressUpdateUnits_growAsTheShardsSetOfTaskIdsPassesEachKilobyte() {
        // ids of 11 bytes: the k-th update writes 100 + 11k bytes; up to k = 84 that is <= 1,024 B (1 WRU), then 2 WRU
        assertThat(UsageModel.progressUpdateUnits(hashTasks(84, 10), 1, 1024)).isEqualTo(84);
        assertThat(UsageModel.progressUpdateUnits(hashTasks(100, 10), 1, 1024)).isEqualTo(84 + 16 * 2);
    }

    @Test
    void measure_ofAPagedRunGroupsTheProgressUpdatesByTheShardEachRecordNames() {
        // planned page by page: a first page of 160 tasks in shard 0, a second of 40 in shard 1, whatever their ids hash to
        List<TaskRecord> tasks = new ArrayList<>();
        for (int i = 1; i <= 200; i++) {
            tasks.add(TaskRecords.task(String.format(Locale.ROOT, "hash-%06d", i), "hash").times(null, 1_000L + i, 1_000L + i)
                    .hashed(4, 4).invocation("req-" + ((i - 1) / 10), "worker").progressShard(i <= 160 ? 0 : 1).build());
        }
        // ids of 11 bytes: the first 84 updates of a shard are 1 WRU each, later ones 2 (see the test above)
        long expected = (84 + (160 - 84) * 2) + 40;
        long byIdHash = UsageModel.progressUpdateUnits(tasks.stream().map(t -> t.withProgressShard(null)).toList(), 2, 1024);
        assertThat(byIdHash).as("the ids' hash spreads them evenly, which is not how they were counted").isNotEqualTo(expected);

        UsageModel.Usage usage = measure(run(200, 0, 2, "{}"), tasks, 1_024);

        assertThat(count(usage.writeUnits(), "progress shard updates")).isEqualTo(expected);
        assertThat(UsageModel.progressUpdateUnits(tasks, 2, 1024)).isEqualTo(expected);
    }

    @Test
    void measure_countsReadUnitsOfTheChecksTheInstancesAndTheAggregatorsQuery() {
        List<TaskRecord> tasks = hashTasks(3, 10, true);
        RunRecord run = run(3, 0, 1, "{}");
        long taskBytes = tasks.stream().mapToLong(t -> ItemSize.of(t.toItem())).sum();

        UsageModel.Usage usage = measure(run, tasks, 1_024);

        assertThat(count(usage.readUnits(), "task record checks")).isEqualTo(3);
        assertThat(count(usage.readUnits(), "run record reads")).isEqualTo(1);               // one cold worker instance
        assertThat(count(usage.readUnits(), "aggregator Query")).isEqualTo(1 + Numbers.ceilDiv(taskBytes, 4096));
        assertThat(usage.inputs().taskRecordBytes()).isEqualTo(taskBytes);
        assertThat(usage.inputs().workerColdStarts()).isEqualTo(1L);
    }

    @Test
    void measure_countsOneGetPerScanTaskAndListPagesPerSource() {
        List<TaskRecord> tasks = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            tasks.add(TaskRecords.task("scan-" + i, "scan").times(null, 1, 1).invocation("r", "w").build());
        }
        String twoSources = "{\"scan\": [{\"bucket\": \"a\"}, {\"bucket\": \"b\"}]}";

        UsageModel.Usage usage = measure(run(3, 3, 1, twoSources), tasks, 1_024);
        assertThat(UsageModel.Usage.total(usage.s3GetRequests())).isEqualTo(3);
        assertThat(UsageModel.Usage.total(usage.s3ListRequests())).isEqualTo(2);              // max(2 sources, ceil(3 / 1,000))

        UsageModel.Usage many = measure(run(2_500, 2_500, 4, "{\"scan\": [{\"bucket\": \"a\"}]}"), tasks, 1_024);
        assertThat(UsageModel.Usage.total(many.s3ListRequests())).isEqualTo(3);               // ceil(2,500 / 1,000)
    }

    @Test
    void completeRunRecordBytes_isTheSameBeforeAndAfterTheAggregatorMarksTheRunComplete() {
        RunRecord running = run(3, 0, 1, "{}");
        RunRecord complete = new RunRecord(running.runId(), running.label(), running.spec(), running.planned(), running.hashesPlanned(),
                running.createdAt(), "complete", running.shards(), running.enqueued(), running.enqueueError(), running.completeShards(),
                running.completionSentBy(), running.completionSentAt());

        assertThat(UsageModel.completeRunRecordBytes(running)).isEqualTo(UsageModel.completeRunRecordBytes(complete))
                .isEqualTo(ItemSize.of(complete.toItem()));
    }
}
