package batchpipe.aggregator;

import batchpipe.common.run.InvocationRecord;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.table.RunPartition;
import batchpipe.common.table.RunPartitions;
import batchpipe.common.table.TableKeys;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Reads a run's record and all its task records: paginated Queries over the run's partition, either
 * folded page by page into a {@link RunFold} ({@link #fold}, what the aggregator does: a run of a million
 * tasks is never held) or collected into lists ({@link #read}, for a small run or a test).
 */
public final class RunReader {
    private final DynamoDbClient dynamoDb;
    private final String table;

    public RunReader(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    public String table() {
        return table;
    }

    /**
     * A run as stored: its record (null when there is none), its task records in task-id order, and its
     * worker invocation records (none for runs of workers that did not write them).
     */
    public record StoredRun(RunRecord run, List<TaskRecord> tasks, List<InvocationRecord> invocations) {
        public StoredRun {
            tasks = List.copyOf(tasks);
            invocations = List.copyOf(invocations);
        }

        public StoredRun(RunRecord run, List<TaskRecord> tasks) {
            this(run, tasks, List.of());
        }
    }

    /** @throws IllegalArgumentException naming the item and the attribute when a stored record is not one Batchpipe wrote */
    public StoredRun read(String runId) {
        RunRecord run = null;
        for (Map<String, AttributeValue> item : RunPartition.items(dynamoDb, table, RunPartitions.legacy(runId), TableKeys.RUN_SK)) {
            if (TableKeys.RUN_SK.equals(item.get(TableKeys.SK).s())) run = RunRecord.fromItem(item);
        }
        // The run record says which keys hold the rest (every one of them is queried, in parallel).
        RunPartitions layout = run == null ? RunPartitions.legacy(runId) : run.layout();
        List<TaskRecord> tasks = new ArrayList<>();
        for (Map<String, AttributeValue> item : query(layout, TableKeys.TASK_PREFIX)) {
            tasks.add(TaskRecord.fromItem(item));
        }
        List<InvocationRecord> invocations = new ArrayList<>();
        for (Map<String, AttributeValue> item : query(layout, TableKeys.INVOCATION_PREFIX)) {
            invocations.add(InvocationRecord.fromItem(item));
        }
        // One key's Query returns its items in sort-key order; several keys' results are put back in that order.
        if (!layout.isLegacy()) {
            tasks.sort(Comparator.comparing(TaskRecord::taskId));
            invocations.sort(Comparator.comparing(i -> i.invocation().requestId(), Comparator.nullsFirst(Comparator.<String>naturalOrder())));
        }
        return new StoredRun(run, tasks, invocations);
    }

    private List<Map<String, AttributeValue>> query(RunPartitions layout, String skPrefix) {
        return RunPartition.items(dynamoDb, table, layout, skPrefix);
    }

    /**
     * Folds the run's task and invocation records into {@code fold} as each Query page arrives and returns the run
     * record (null when there is none). The keys of a write-sharded run are read one after another, each in
     * sort-key (task-id) order, so the same run always folds in the same order; that order is task-id order only
     * for a run on one key ({@link #read} sorts instead, holding every record).
     *
     * @throws IllegalArgumentException naming the item and the attribute when a stored record is not one Batchpipe wrote
     */
    public RunRecord fold(String runId, RunFold fold) {
        RunRecord run = null;
        for (Map<String, AttributeValue> item : RunPartition.items(dynamoDb, table, RunPartitions.legacy(runId), TableKeys.RUN_SK)) {
            if (TableKeys.RUN_SK.equals(item.get(TableKeys.SK).s())) run = RunRecord.fromItem(item);
        }
        RunPartitions layout = run == null ? RunPartitions.legacy(runId) : run.layout();
        for (String pk : RunPartition.pksFor(layout, TableKeys.TASK_PREFIX)) {
            RunPartition.forEachOnKey(dynamoDb, table, pk, TableKeys.TASK_PREFIX, page -> page.forEach(item -> fold.add(TaskRecord.fromItem(item))));
        }
        for (String pk : RunPartition.pksFor(layout, TableKeys.INVOCATION_PREFIX)) {
            RunPartition.forEachOnKey(dynamoDb, table, pk, TableKeys.INVOCATION_PREFIX,
                    page -> page.forEach(item -> fold.add(InvocationRecord.fromItem(item))));
        }
        return run;
    }
}
