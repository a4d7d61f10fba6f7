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

/** Reads a run's record and all its task records: paginated Queries over the run's partition. */
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
}
