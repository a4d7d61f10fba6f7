package batchpipe.producer;

import batchpipe.common.json.Json;
import batchpipe.common.spec.InvalidRunSpecException;
import batchpipe.common.task.TaskLimits;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResultEntry;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.withSettings;

class ProducerHandlerTest {
    private final S3Client s3 = mock(S3Client.class);
    private final SqsClient sqs = mock(SqsClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
    private final DynamoDbClient dynamoDb = mock(DynamoDbClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
    private final ProducerHandler handler = new ProducerHandler(
            new ProducerConfig("table", "https://queue/tasks", "https://queue/planning", "https://queue/completions",
                    TaskLimits.defaults(), 2, 5, 30_000, 3), s3, sqs, dynamoDb);

    private String invoke(String event) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        handler.handleRequest(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), out, null);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void handleRequest_plansAHashRunAndAnswersWithTheCounts() throws Exception {
        doReturn(PutItemResponse.builder().build()).when(dynamoDb).putItem(any(PutItemRequest.class));
        doReturn(BatchWriteItemResponse.builder().build()).when(dynamoDb).batchWriteItem(any(BatchWriteItemRequest.class));
        doReturn(UpdateItemResponse.builder().attributes(Map.of("shards", AttributeValue.fromN("1"))).build())
                .when(dynamoDb).updateItem(any(UpdateItemRequest.class));
        doAnswer(invocation -> SendMessageBatchResponse.builder()
                .successful(invocation.<SendMessageBatchRequest>getArgument(0).entries().stream()
                        .map(e -> SendMessageBatchResultEntry.builder().id(e.id()).build()).toList())
                .build()).when(sqs).sendMessageBatch(any(SendMessageBatchRequest.class));

        Map<String, Object> response = Json.parseObject(invoke("{\"runId\":\"r1\",\"hash\":{\"batches\":2,\"batchSize\":3,\"cost\":4}}"));

        assertThat(response).containsEntry("runId", "r1")
                .containsEntry("planned", Map.of("scan", 0L, "hash", 2L))
                .containsEntry("enqueued", 2L)
                .containsKey("seconds");
        ArgumentCaptor<SendMessageBatchRequest> captor = ArgumentCaptor.forClass(SendMessageBatchRequest.class);
        verify(sqs).sendMessageBatch(captor.capture());
        assertThat(captor.getValue().queueUrl()).isEqualTo("https://queue/tasks");
        assertThat(captor.getValue().entries()).hasSize(2);
        verifyNoInteractions(s3);
    }

    @Test
    void handleRequest_rejectsAnInvalidSpecBeforeAnyCall() {
        assertThatThrownBy(() -> invoke("{\"hash\":{\"batches\":0,\"batchSize\":3,\"cost\":4}}"))
                .isInstanceOf(InvalidRunSpecException.class)
                .hasMessageContaining("'hash.batches' is 0, outside the allowed range 1 to 100000");
        verifyNoInteractions(s3);
        verify(dynamoDb, org.mockito.Mockito.never()).putItem(any(PutItemRequest.class));
        verify(sqs, org.mockito.Mockito.never()).sendMessageBatch(any(SendMessageBatchRequest.class));
    }

    @Test
    void handleRequest_rejectsAnEventThatIsNotJson() {
        assertThatThrownBy(() -> invoke("run please"))
                .isInstanceOf(InvalidRunSpecException.class)
                .hasMessageContaining("the event is not a JSON run spec: invalid JSON at offset 0");
    }

    @Test
    void producerConfig_readsVariablesWithDefaults() {
        Map<String, String> required = Map.of("TABLE_NAME", "t", "TASKS_QUEUE_URL", "q", "PLANNING_QUEUE_URL", "p",
                "COMPLETIONS_QUEUE_URL", "c");
        ProducerConfig config = ProducerConfig.from(required);

        assertThat(config).isEqualTo(new ProducerConfig("t", "q", "p", "c", new TaskLimits(14), 8, 5, 30_000, 3));
        Map<String, String> all = new java.util.HashMap<>(required);
        all.putAll(Map.of("MAX_HASH_COST", "12", "SEND_CALLS_IN_FLIGHT", "3", "WORKER_MAX_CONCURRENCY", "200",
                "PLANNING_MARGIN_MS", "5000", "PLANNING_MAX_RECEIVES", "4"));
        assertThat(ProducerConfig.from(all)).isEqualTo(new ProducerConfig("t", "q", "p", "c", new TaskLimits(12), 3, 200, 5_000, 4));
        // only Batchpipe's local runtime sets it: on Lambda the run record names no host
        assertThat(config.recordHost()).isFalse();
        Map<String, String> local = new java.util.HashMap<>(required);
        local.put("BATCHPIPE_RECORD_HOST", "true");
        assertThat(ProducerConfig.from(local).recordHost()).isTrue();
        assertThatThrownBy(() -> ProducerConfig.from(Map.of("TABLE_NAME", "t")))
                .hasMessageStartingWith("environment variable TASKS_QUEUE_URL is not set");
    }
}
