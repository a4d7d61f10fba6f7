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
        return new StoredRun(run, tasks, invocations);
    }

    /**
     * The items as one Query of a run on one key returns them: one key's Query returns its items in sort-key
     * order; several keys' items, gathered in no set order, are sorted back into it.
     */
    private List<Map<String, AttributeValue>> query(RunPartitions layout, String skPrefix) {
        List<Map<String, AttributeValue>> items = RunPartition.items(dynamoDb, table, layout, skPrefix);
        if (!layout.isLegacy()) items.sort(Comparator.comparing(item -> item.get(TableKeys.SK).s(), TableKeys.SORT_KEY_ORDER));
        return items;
    }

    /**
     * Folds the run's task and invocation records into {@code fold} as each Query page arrives and returns the run
     * record (null when there is none). The records come in sort-key (task-id) order, the order {@link #read}
     * gives, whatever the number of keys: a write-sharded run's keys are merged as they are read
     * ({@link RunPartition#forEachInSortKeyOrder}), so every order-dependent figure and tasks.csv's rows are those of
     * the in-memory path ({@link #read} sorts instead, holding every record).
     *
     * @throws IllegalArgumentException naming the item and the attribute when a stored record is not one Batchpipe wrote
     */
    public RunRecord fold(String runId, RunFold fold) {
        RunRecord run = null;
        for (Map<String, AttributeValue> item : RunPartition.items(dynamoDb, table, RunPartitions.legacy(runId), TableKeys.RUN_SK)) {
            if (TableKeys.RUN_SK.equals(item.get(TableKeys.SK).s())) run = RunRecord.fromItem(item);
        }
        RunPartitions layout = run == null ? RunPartitions.legacy(runId) : run.layout();
        RunPartition.forEachInSortKeyOrder(dynamoDb, table, layout, TableKeys.TASK_PREFIX, item -> fold.add(TaskRecord.fromItem(item)));
        RunPartition.forEachInSortKeyOrder(dynamoDb, table, layout, TableKeys.INVOCATION_PREFIX,
                item -> fold.add(InvocationRecord.fromItem(item)));
        return run;
    }
}
