package batchpipe.common.sqs;

import batchpipe.common.json.Json;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqsEventJsonTest {

    /** The reference: the events library's own serializer, which the runtime would use for a RequestHandler<SQSEvent, ...>. */
    @Test
    void everyFieldOfARecord_readsAsTheRuntimesSerializerReadsIt() throws IOException {
        List<SQSMessage> ours = SqsEventJson.records(resource("batch/sqs-every-field.json"));
        SQSEvent reference = EventLoader.loadSQSEvent("batch/sqs-every-field.json");

        assertThat(ours).hasSize(2);
        assertThat(ours).usingRecursiveFieldByFieldElementComparator().isEqualTo(reference.getRecords());
        // Spelled out, so the comparison above cannot pass by both sides being empty.
        SQSMessage first = ours.get(0);
        assertThat(first.getBody()).isEqualTo("line one\nline \"two\" \u00e9\u2603 \ud83d\ude00");
        assertThat(first.getEventSourceArn()).isEqualTo("arn:aws:sqs:us-east-2:123456789012:my-queue.fifo");
        assertThat(first.getAttributes()).containsEntry("ApproximateReceiveCount", "3").containsEntry("MessageGroupId", "group-1");
        assertThat(first.getMessageAttributes().get("Count").getStringValue()).isEqualTo("42");
        assertThat(first.getMessageAttributes().get("Blob").getBinaryValue()).isEqualTo(ByteBuffer.wrap(new byte[] {0, 1, 2, 3, 4, (byte) 0xff}));
        assertThat(first.getMessageAttributes().get("Lists").getBinaryListValues())
                .containsExactly(ByteBuffer.wrap(new byte[] {1, 2}), ByteBuffer.wrap(new byte[] {3}));
        assertThat(ours.get(1).getMd5OfMessageAttributes()).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"worker-hash.json", "worker-scan.json", "worker-mixed-with-poison.json"})
    void theProjectsSampleEvents_readAsTheRuntimesSerializerReadsThem(String file) throws IOException {
        Path event = Path.of("..", "events", file);
        List<SQSMessage> ours = SqsEventJson.records(Files.readAllBytes(event));
        SQSEvent reference = EventLoader.loadSQSEvent(event.toString());

        assertThat(ours).isNotEmpty().usingRecursiveFieldByFieldElementComparator().isEqualTo(reference.getRecords());
    }

    @Test
    void anEmptyBatch_hasNoRecords() {
        assertThat(SqsEventJson.records("{\"Records\":[]}".getBytes(StandardCharsets.UTF_8))).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "not json at all                                  | the event is not an SQS event: ",
            "[1,2]                                            | expected a JSON object, got an array",
            "{}                                               | 'Records' must be an array, got null (no such field)",
            "{\"Records\":{}}                                 | 'Records' must be an array, got an object",
            "{\"Records\":[1]}                                | 'Records[0]' must be an object, got a number",
            "{\"Records\":[{\"body\":\"x\"}]}                 | 'Records[0].messageId' is required",
            "{\"Records\":[{\"messageId\":\"\"}]}             | 'Records[0].messageId' is required",
            "{\"Records\":[{\"messageId\":\"m\",\"body\":7}]} | 'Records[0].body' must be a string, got a number",
            "{\"Records\":[{\"messageId\":\"m\",\"attributes\":{\"ApproximateReceiveCount\":2}}]} | 'Records[0].attributes.ApproximateReceiveCount' must be a string, got a number",
            "{\"Records\":[{\"messageId\":\"m\",\"messageAttributes\":{\"a\":{\"binaryValue\":\"@@\"}}}]} | 'Records[0].messageAttributes.a.binaryValue' is not base64",
            "{\"Records\":[{\"messageId\":\"m\",\"messageAttributes\":{\"a\":{\"stringListValues\":[true]}}}]} | 'Records[0].messageAttributes.a.stringListValues[0]' must be a string, got a boolean",
    })
    void aDocumentThatIsNotAnSqsEvent_isRejectedNamingTheField(String event, String message) {
        assertThatThrownBy(() -> SqsEventJson.records(event.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SqsEventJson.InvalidSqsEventException.class)
                .hasMessageStartingWith("the event is not an SQS event: ")
                .hasMessageContaining(message.strip());
    }

    @Test
    void theResponse_hasTheShapeReportBatchItemFailuresReads() {
        SQSBatchResponse response = new SQSBatchResponse(List.of(
                new SQSBatchResponse.BatchItemFailure("33333333-0000-4000-8000-000000000003"),
                new SQSBatchResponse.BatchItemFailure("quote\" and \\ and \u0001")));

        String json = new String(SqsEventJson.write(response), StandardCharsets.UTF_8);

        assertThat(Json.parseObject(json)).isEqualTo(Map.of("batchItemFailures", List.of(
                Map.of("itemIdentifier", "33333333-0000-4000-8000-000000000003"),
                Map.of("itemIdentifier", "quote\" and \\ and \u0001"))));
    }

    @Test
    void noFailures_isAnEmptyList_notAMissingField() {
        assertThat(new String(SqsEventJson.write(new SQSBatchResponse(List.of())), StandardCharsets.UTF_8))
                .isEqualTo("{\"batchItemFailures\":[]}");
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = SqsEventJsonTest.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) throw new IOException("no test resource " + name);
            return in.readAllBytes();
        }
    }
}
