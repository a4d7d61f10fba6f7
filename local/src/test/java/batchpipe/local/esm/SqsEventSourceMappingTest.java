package batchpipe.local.esm;

import batchpipe.common.json.Json;
import batchpipe.local.runtime.InvocationResult;
import batchpipe.local.template.FunctionDefinition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResultEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageRequest;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.withSettings;

class SqsEventSourceMappingTest {
    private static final String ARN = "arn:aws:sqs:us-east-1:000000000000:tasks";
    private final SqsClient sqs = mock(SqsClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
    private final AtomicReference<byte[]> lastEvent = new AtomicReference<>();
    private SqsEventSourceMapping mapping;

    private static Message message(String id, String body) {
        return Message.builder().messageId(id).receiptHandle("rh-" + id).body(body).md5OfBody("md5")
                .attributes(Map.of(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, "2")).build();
    }

    private SqsEventSourceMapping mapping(int batchSize, int window, boolean partial, InvocationResult answer) {
        // MaximumConcurrency 0: no poller threads, the test drives gatherBatch/deliver itself.
        mapping = new SqsEventSourceMapping(sqs, "http://q", ARN, "Worker",
                new FunctionDefinition.SqsEventSource("Tasks", "TasksQueue", batchSize, window, 0, partial),
                (function, event) -> {
                    lastEvent.set(event);
                    return answer;
                }, new PrintStream(OutputStream.nullOutputStream()), 0);
        mapping.start();
        return mapping;
    }

    private static InvocationResult ok(String response) {
        return new InvocationResult("Worker", "req", response, null, 1, 1, 128, 100, null);
    }

    @AfterEach
    void stop() {
        if (mapping != null) mapping.close();
    }

    /** Each receive returns the next page, cut to MaxNumberOfMessages as SQS does (the rest stays queued). */
    private void receives(List<List<Message>> pages) {
        List<List<Message>> remaining = new ArrayList<>(pages);
        doAnswer(invocation -> {
            int max = invocation.<ReceiveMessageRequest>getArgument(0).maxNumberOfMessages();
            if (remaining.isEmpty()) return ReceiveMessageResponse.builder().build();
            List<Message> page = remaining.remove(0);
            if (page.size() > max) {
                remaining.add(0, new ArrayList<>(page.subList(max, page.size())));
                page = page.subList(0, max);
            }
            return ReceiveMessageResponse.builder().messages(page).build();
        }).when(sqs).receiveMessage(any(ReceiveMessageRequest.class));
    }

    @Test
    void gatherBatch_withNoWindowDeliversWhatTheFirstReceiveReturns() {
        receives(List.of(List.of(message("m1", "a"), message("m2", "b")), List.of(message("m3", "c"))));
        List<Message> batch = mapping(10, 0, true, ok("{}")).gatherBatch();
        assertThat(batch).extracting(Message::messageId).containsExactly("m1", "m2");
    }

    @Test
    void gatherBatch_withAWindowFillsUpToBatchSize() {
        receives(List.of(List.of(message("m1", "a"), message("m2", "b")), List.of(message("m3", "c"), message("m4", "d"))));
        List<Message> batch = mapping(3, 5, true, ok("{}")).gatherBatch();
        assertThat(batch).extracting(Message::messageId).containsExactly("m1", "m2", "m3");
        ArgumentCaptor<ReceiveMessageRequest> requests = ArgumentCaptor.forClass(ReceiveMessageRequest.class);
        verify(sqs, org.mockito.Mockito.times(2)).receiveMessage(requests.capture());
        // Never asks for more than the batch still has room for, and never more than SQS's 10.
        assertThat(requests.getAllValues()).extracting(ReceiveMessageRequest::maxNumberOfMessages).containsExactly(3, 1);
    }

    @Test
    void deliver_deletesAllButTheReportedFailures() {
        doReturn(DeleteMessageBatchResponse.builder().successful(
                DeleteMessageBatchResultEntry.builder().id("0").build(), DeleteMessageBatchResultEntry.builder().id("1").build()).build())
                .when(sqs).deleteMessageBatch(any(DeleteMessageBatchRequest.class));
        mapping(10, 0, true, ok("{\"batchItemFailures\":[{\"itemIdentifier\":\"m2\"}]}"))
                .deliver(List.of(message("m1", "a"), message("m2", "b"), message("m3", "c")));

        ArgumentCaptor<DeleteMessageBatchRequest> deletes = ArgumentCaptor.forClass(DeleteMessageBatchRequest.class);
        verify(sqs).deleteMessageBatch(deletes.capture());
        assertThat(deletes.getValue().entries()).extracting(DeleteMessageBatchRequestEntry::receiptHandle).containsExactly("rh-m1", "rh-m3");
        assertThat(mapping.stats()).isEqualTo(new SqsEventSourceMapping.Stats(1, 3, 2, 1, 0));
    }

    @Test
    void deliver_deletesNothingWhenTheInvocationFails() {
        InvocationResult failure = new InvocationResult("Worker", "req", "{}", "Runtime.Timeout", 1, 1, 128, 100, null);
        mapping(10, 0, true, failure).deliver(List.of(message("m1", "a"), message("m2", "b")));

        verify(sqs, never()).deleteMessageBatch(any(DeleteMessageBatchRequest.class));
        assertThat(mapping.stats().wholeBatchFailures()).isEqualTo(1);
        assertThat(mapping.stats().messagesReturned()).isEqualTo(2);
    }

    @Test
    void deliver_deletesNothingWhenTheResponseNamesAnIdOutsideTheBatch() {
        mapping(10, 0, true, ok("{\"batchItemFailures\":[{\"itemIdentifier\":\"elsewhere\"}]}"))
                .deliver(List.of(message("m1", "a")));
        verify(sqs, never()).deleteMessageBatch(any(DeleteMessageBatchRequest.class));
    }

    @Test
    @SuppressWarnings("unchecked")
    void deliver_shapesTheEventAsLambdaDoes() {
        doReturn(DeleteMessageBatchResponse.builder().build()).when(sqs).deleteMessageBatch(any(DeleteMessageBatchRequest.class));
        mapping(10, 0, true, ok("{}")).deliver(List.of(message("m1", "{\"x\":1}")));

        Map<String, Object> event = Json.parseObject(new String(lastEvent.get(), java.nio.charset.StandardCharsets.UTF_8));
        Map<String, Object> record = ((List<Map<String, Object>>) event.get("Records")).get(0);
        assertThat(record).containsEntry("messageId", "m1").containsEntry("receiptHandle", "rh-m1")
                .containsEntry("body", "{\"x\":1}").containsEntry("eventSource", "aws:sqs")
                .containsEntry("eventSourceARN", ARN).containsEntry("awsRegion", "us-east-1");
        assertThat((Map<String, Object>) record.get("attributes")).containsEntry("ApproximateReceiveCount", "2");
    }
}
