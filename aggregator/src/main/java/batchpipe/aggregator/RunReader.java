package batchpipe.aggregator;

import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.table.RunPartition;
import batchpipe.common.table.TableKeys;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
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

    /** A run as stored: its record (null when there is none) and its task records in task-id order. */
    public record StoredRun(RunRecord run, List<TaskRecord> tasks) {
        public StoredRun {
            tasks = List.copyOf(tasks);
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
        return new StoredRun(run, tasks);
    }

    private List<Map<String, AttributeValue>> query(String runId, String skPrefix) {
        return RunPartition.items(dynamoDb, table, runId, skPrefix);
    }
}
