package batchpipe.aggregator;

import batchpipe.common.run.InvocationRecord;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.table.RunPartition;
import batchpipe.common.table.TableKeys;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
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
        for (Map<String, AttributeValue> item : query(runId, TableKeys.RUN_SK)) {
            if (TableKeys.RUN_SK.equals(item.get(TableKeys.SK).s())) run = RunRecord.fromItem(item);
        }
        List<TaskRecord> tasks = new ArrayList<>();
        for (Map<String, AttributeValue> item : query(runId, TableKeys.TASK_PREFIX)) {
            tasks.add(TaskRecord.fromItem(item));
        }
        List<InvocationRecord> invocations = new ArrayList<>();
        for (Map<String, AttributeValue> item : query(runId, TableKeys.INVOCATION_PREFIX)) {
            invocations.add(InvocationRecord.fromItem(item));
        }
        return new StoredRun(run, tasks, invocations);
    }

    /**
     * Folds the run's task and invocation records into {@code fold} as each Query page arrives, in sort-key
     * (task-id) order, and returns the run record (null when there is none).
     *
     * @throws IllegalArgumentException naming the item and the attribute when a stored record is not one Batchpipe wrote
     */
    public RunRecord fold(String runId, RunFold fold) {
        RunRecord run = null;
        for (Map<String, AttributeValue> item : query(runId, TableKeys.RUN_SK)) {
            if (TableKeys.RUN_SK.equals(item.get(TableKeys.SK).s())) run = RunRecord.fromItem(item);
        }
        for (String partition : itemPartitions(runId, run)) {
            RunPartition.forEach(dynamoDb, table, partition, TableKeys.TASK_PREFIX, item -> fold.add(TaskRecord.fromItem(item)));
        }
        for (String partition : itemPartitions(runId, run)) {
            RunPartition.forEach(dynamoDb, table, partition, TableKeys.INVOCATION_PREFIX, item -> fold.add(InvocationRecord.fromItem(item)));
        }
        return run;
    }

    /**
     * The partitions a run's task and invocation items are queried in, each named as {@link RunPartition}
     * takes it: one today, the run's own. A write-sharded layout lists its keys here; the fold's figures
     * need each partition's records in task-id order, and a tie-break of the progress-shard units
     * ({@code TaskTotals}) the order across partitions.
     */
    static List<String> itemPartitions(String runId, RunRecord run) {
        return List.of(runId);
    }

    private List<Map<String, AttributeValue>> query(String runId, String skPrefix) {
        return RunPartition.items(dynamoDb, table, runId, skPrefix);
    }
}
