package batchpipe.local.run;

import batchpipe.common.json.Json;
import batchpipe.common.table.RunProgress;
import batchpipe.common.table.TableKeys;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Follows a run from the outside, as a user would: its progress shards until every task has a final
 * record, then its summary item once the aggregator (triggered by the worker that finished the run)
 * has written it. Works the same against the local stack and a deployed one.
 */
public final class RunWatcher {
    private final DynamoDbClient dynamoDb;
    private final String table;

    public RunWatcher(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    /** Polls until the run is complete; reports (finished, planned) on every poll. */
    public RunProgress awaitCompletion(String runId, Duration timeout, BiConsumer<Long, Long> progress) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        RunProgress status;
        do {
            status = RunProgress.read(dynamoDb, table, runId);
            progress.accept(status.finished(), status.planned());
            if (status.complete()) return status;
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new IllegalStateException("run " + runId + " did not complete within " + timeout.toSeconds() + " s: "
                + status.finished() + " of " + status.planned() + " tasks have a final record"
                + (status.planned() == 0 ? " (is the run id right, and are workers consuming the tasks queue?)" : ""));
    }

    /** The aggregator's report of a complete run. */
    public Map<String, Object> awaitReport(String runId, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, AttributeValue> key = Map.of(TableKeys.PK, AttributeValue.fromS(TableKeys.runPk(runId)),
                TableKeys.SK, AttributeValue.fromS(TableKeys.SUMMARY_SK));
        while (System.nanoTime() < deadline) {
            Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(table).key(key).consistentRead(true)).item();
            if (item != null && item.containsKey("report") && "complete".equals(item.get("status").s())) {
                return Json.parseObject(item.get("report").s());
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("run " + runId + " completed but no report was written within " + timeout.toSeconds()
                + " s (is the aggregator consuming the completions queue?)");
    }
}
