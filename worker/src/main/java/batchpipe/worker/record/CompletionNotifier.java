package batchpipe.worker.record;

import batchpipe.common.json.Json;
import batchpipe.common.log.StructuredLog;
import batchpipe.common.table.TableKeys;
import batchpipe.common.table.CallTimer;
import batchpipe.common.table.TableCall;
import batchpipe.common.table.ProgressShards;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.util.Map;
import java.util.function.Supplier;

/**
 * Tells the aggregator that a run is complete, once. The task whose count completes the run's last
 * shard claims the completion on the run record ({@value #CLAIM}, a conditional write) and then sends
 * {@code {"runId"}} to the completions queue. A late duplicate of another task, or a task that completed
 * a shard at the same moment, finds the claim taken and sends nothing. A redelivery of the claiming task
 * itself (or the dead-letter recorder, which counts it under the same id) sends again: it may have died
 * between the claim and the send, and the idempotent aggregator absorbs a second message.
 */
public final class CompletionNotifier {
    private static final StructuredLog LOG = StructuredLog.of(CompletionNotifier.class);
    /** The task that sends the run's completion, and when it claimed it: attributes of the run record. */
    static final String CLAIM = ProgressShards.COMPLETION_CLAIM;
    static final String CLAIMED_AT = "completionSentAt";

    private final DynamoDbClient dynamoDb;
    /** Asked for only by the task that completes a run (see {@code LazyClient}). */
    private final Supplier<SqsClient> sqsClient;
    private final String table;
    private final String completionsQueueUrl;

    public CompletionNotifier(DynamoDbClient dynamoDb, Supplier<SqsClient> sqsClient, String table, String completionsQueueUrl) {
        this.dynamoDb = dynamoDb;
        this.sqsClient = sqsClient;
        this.table = table;
        this.completionsQueueUrl = completionsQueueUrl;
    }

    /** @param claimedBy the run record's claim as the count that completed the run read it, or null */
    void notifyOnce(String runId, String taskId, String claimedBy, CallTimer writes) {
        if (claimedBy != null && !claimedBy.equals(taskId)) {
            LOG.info("run already complete; another task sends its completion", "completionSentBy", claimedBy);
            return;
        }
        try {
            writes.time(TableCall.COMPLETION_CLAIM, () -> dynamoDb.updateItem(b -> b.tableName(table)
                    .key(TableKeys.key(runId, TableKeys.RUN_SK))
                    .updateExpression("SET " + CLAIM + " = :task, " + CLAIMED_AT + " = if_not_exists(" + CLAIMED_AT + ", :now)")
                    .conditionExpression("attribute_not_exists(" + CLAIM + ") OR " + CLAIM + " = :task")
                    .expressionAttributeValues(Map.of(
                            ":task", AttributeValue.fromS(taskId),
                            ":now", AttributeValue.fromN(Long.toString(System.currentTimeMillis()))))));
        } catch (ConditionalCheckFailedException claimedByAnother) {
            LOG.info("run already complete; another task claimed sending its completion");
            return;
        }
        SqsClient sqs = sqsClient.get();
        sqs.sendMessage(b -> b.queueUrl(completionsQueueUrl).messageBody(Json.write(Map.of("runId", runId))));
        LOG.info("run complete; aggregator notified", "runId", runId);
    }
}
