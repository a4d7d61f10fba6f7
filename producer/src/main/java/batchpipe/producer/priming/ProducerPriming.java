package batchpipe.producer.priming;

import batchpipe.common.table.TableKeys;
import batchpipe.common.priming.Priming;
import batchpipe.common.priming.SdkPriming;
import batchpipe.common.spec.RunSpecParser;
import batchpipe.common.task.HashTask;
import batchpipe.common.task.ScanTask;
import batchpipe.common.task.TaskCodec;
import batchpipe.common.task.TaskIds;
import batchpipe.common.task.TaskLimits;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The producer's warm-up before the SnapStart snapshot: run-spec validation, task encoding and the
 * SDK calls a run makes (listing, the run record, progress shards, SendMessageBatch), on canned
 * clients. It never draws a run id: those must come from entropy drawn after the restore.
 */
public final class ProducerPriming {
    private static final String SPEC = "{\"label\":\"priming\",\"scan\":[{\"bucket\":\"priming\",\"prefix\":\"logs/\","
            + "\"suffix\":\".zst\",\"maxObjects\":10,\"countBy\":[\"level\",\"http.status\"],\"match\":{\"contains\":\"timeout\"}}],"
            + "\"hash\":{\"batches\":3,\"batchSize\":10,\"cost\":4,\"prefix\":\"password_\"}}";
    private static final String QUEUE_URL = "https://sqs.us-east-1.amazonaws.com/000000000000/priming";

    private ProducerPriming() {
    }

    public static Priming register() {
        return hooks().register();
    }

    public static Priming.Builder hooks() {
        return Priming.of("producer")
                .warm("spec", ProducerPriming::parseSampleSpec)
                .warm("tasks", ProducerPriming::encodeSampleTasks)
                .warm("sdk", ProducerPriming::sdkCalls);
    }

    static void parseSampleSpec() {
        RunSpecParser parser = new RunSpecParser(TaskLimits.defaults());
        for (int i = 0; i < 20; i++) {
            parser.parse(SPEC).toJson(); // read, and written as the run record stores it
        }
    }

    static List<String> encodeSampleTasks() {
        TaskCodec codec = new TaskCodec(TaskLimits.defaults());
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String key = "logs/app-" + i + ".jsonl.zst";
            bodies.add(codec.encode(new ScanTask("priming", TaskIds.scanTaskId("priming", "priming", key), at, "priming", key,
                    ScanTask.DEFAULT_COUNT_BY, null)));
            bodies.add(codec.encode(new HashTask("priming", TaskIds.hashTaskId(i + 1), at, 4, 10, "password_", 1L + 10L * i, null)));
        }
        return bodies;
    }

    static void sdkCalls() {
        List<String> bodies = encodeSampleTasks();
        SdkPriming.s3(new byte[0], s3 -> s3.listObjectsV2(b -> b.bucket("priming").prefix("logs/").maxKeys(1000)));
        Map<String, AttributeValue> key = TableKeys.key("priming", TableKeys.RUN_SK);
        SdkPriming.dynamoDb(dynamoDb -> {
            dynamoDb.putItem(b -> b.tableName("priming").item(key).conditionExpression("attribute_not_exists(pk)"));
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of("priming",
                    List.of(WriteRequest.builder().putRequest(PutRequest.builder().item(key).build()).build()))));
            dynamoDb.updateItem(b -> b.tableName("priming").key(key).updateExpression("SET enqueued = :n")
                    .expressionAttributeValues(Map.of(":n", AttributeValue.fromN("10"))));
        });
        SdkPriming.sqs(sqs -> {
            for (int from = 0; from < bodies.size(); from += 10) {
                List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
                for (int i = from; i < Math.min(bodies.size(), from + 10); i++) {
                    entries.add(SendMessageBatchRequestEntry.builder().id(Integer.toString(i)).messageBody(bodies.get(i)).build());
                }
                sqs.sendMessageBatch(b -> b.queueUrl(QUEUE_URL).entries(entries));
            }
        });
    }
}
