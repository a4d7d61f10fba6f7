package batchpipe.common.priming;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** The canned clients answer the way the SDK accepts, so priming runs each call to its end. */
class SdkPrimingTest {

    @Test
    void dynamoDb_answersEveryOperationWithoutANetwork() {
        Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS("a"), "sk", AttributeValue.fromS("b"));
        int requests = SdkPriming.dynamoDb(db -> {
            assertThat(db.getItem(b -> b.tableName("t").key(key)).hasItem()).isFalse();
            db.putItem(b -> b.tableName("t").item(key).conditionExpression("attribute_not_exists(pk)"));
            db.updateItem(b -> b.tableName("t").key(key).updateExpression("SET x = :x")
                    .expressionAttributeValues(Map.of(":x", AttributeValue.fromN("1"))));
            assertThat(db.query(b -> b.tableName("t").keyConditionExpression("pk = :pk")
                    .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("a")))).items()).isEmpty();
        });
        assertThat(requests).isEqualTo(4);
    }

    @Test
    void sqs_acceptsSendsWithTheDigestsTheSdkChecks() {
        AtomicReference<SendMessageBatchResponse> batch = new AtomicReference<>();
        int requests = SdkPriming.sqs(sqs -> {
            sqs.sendMessage(b -> b.queueUrl("https://sqs.us-east-1.amazonaws.com/000000000000/q").messageBody("{\"runId\":\"r\"}"));
            batch.set(sqs.sendMessageBatch(b -> b.queueUrl("https://sqs.us-east-1.amazonaws.com/000000000000/q").entries(
                    SendMessageBatchRequestEntry.builder().id("0").messageBody("zero").build(),
                    SendMessageBatchRequestEntry.builder().id("1").messageBody("one").build())));
        });
        assertThat(requests).isEqualTo(2);
        assertThat(batch.get().successful()).extracting(e -> e.id()).containsExactlyInAnyOrder("0", "1");
        assertThat(batch.get().failed()).isEmpty();
    }

    @Test
    void s3_listsNothingAndServesTheChosenObject() {
        byte[] object = "{\"level\":\"INFO\"}\n".getBytes(StandardCharsets.UTF_8);
        AtomicReference<ResponseBytes<GetObjectResponse>> got = new AtomicReference<>();
        int requests = SdkPriming.s3(object, s3 -> {
            assertThat(s3.listObjectsV2(b -> b.bucket("bucket").prefix("logs/")).contents()).isEmpty();
            got.set(s3.getObjectAsBytes(b -> b.bucket("bucket").key("logs/a.jsonl")));
        });
        assertThat(requests).isEqualTo(2);
        assertThat(got.get().asByteArray()).isEqualTo(object);
    }

    @Test
    void endpoint_isAReservedNameThatNeverResolves() {
        assertThat(SdkPriming.ENDPOINT.getHost()).endsWith(".invalid");
    }
}
