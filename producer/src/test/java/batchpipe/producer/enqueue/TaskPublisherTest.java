package batchpipe.producer.enqueue;

import batchpipe.producer.enqueue.TaskPublisher.Message;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResultEntry;
import software.amazon.awssdk.services.sqs.model.SqsException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.withSettings;

class TaskPublisherTest {
    private static final String QUEUE = "https://sqs.us-east-1.amazonaws.com/123456789012/tasks";

    private SqsClient sqs;

    @BeforeEach
    void setUp() {
        // The Consumer<Builder> overload the publisher calls is a default method that builds the request
        // and calls the request overload, which is what the tests stub and capture.
        sqs = mock(SqsClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
    }

    private static Message message(String id) {
        return new Message(id, "{\"taskId\":\"" + id + "\"}");
    }

    private static Message sized(String id, int bytes) {
        return new Message(id, "x".repeat(bytes));
    }

    private static SendMessageBatchResponse response(List<String> ok, BatchResultErrorEntry... failed) {
        return SendMessageBatchResponse.builder()
                .successful(ok.stream().map(id -> SendMessageBatchResultEntry.builder().id(id).messageId("m-" + id).build()).toList())
                .failed(failed)
                .build();
    }

    private static BatchResultErrorEntry failure(String id, boolean senderFault, String code, String message) {
        return BatchResultErrorEntry.builder().id(id).senderFault(senderFault).code(code).message(message).build();
    }

    private List<SendMessageBatchRequest> sentRequests(int calls) {
        ArgumentCaptor<SendMessageBatchRequest> captor = ArgumentCaptor.forClass(SendMessageBatchRequest.class);
        verify(sqs, times(calls)).sendMessageBatch(captor.capture());
        return captor.getAllValues();
    }

    private static List<String> ids(SendMessageBatchRequest request) {
        return request.entries().stream().map(SendMessageBatchRequestEntry::id).toList();
    }

    // ---- groups --------------------------------------------------------------------------

    @Test
    void groups_cutsAtTenEntriesAndKeepsOrder() {
        List<Message> messages = IntStream.rangeClosed(1, 25).mapToObj(i -> message("t" + i)).toList();

        List<List<Message>> groups = TaskPublisher.groups(messages);

        assertThat(groups).extracting(List::size).containsExactly(10, 10, 5);
        assertThat(groups.get(0).get(0).id()).isEqualTo("t1");
        assertThat(groups.get(0).get(9).id()).isEqualTo("t10");
        assertThat(groups.get(1).get(0).id()).isEqualTo("t11");
        assertThat(groups.get(2).get(4).id()).isEqualTo("t25");
        assertThat(groups.stream().flatMap(List::stream).toList()).isEqualTo(messages);
    }

    @Test
    void groups_cutsBeforeTheByteLimitWouldBeExceeded() {
        Message a = sized("a", 100 * 1024);
        Message b = sized("b", 100 * 1024);
        Message c = sized("c", 100 * 1024);
        Message d = sized("d", 10);

        List<List<Message>> groups = TaskPublisher.groups(List.of(a, b, c, d));

        // a + b = 200 KiB; c would make 300 KiB, so it opens a group that d (10 bytes) joins.
        assertThat(groups).containsExactly(List.of(a, b), List.of(c, d));
    }

    @Test
    void groups_allowsExactlyTwoHundredFiftySixKiBInOneGroup() {
        Message a = sized("a", 128 * 1024);
        Message b = sized("b", 128 * 1024);
        Message c = sized("c", 1);

        assertThat(TaskPublisher.groups(List.of(a, b, c))).containsExactly(List.of(a, b), List.of(c));
    }

    @Test
    void groups_countsUtf8BytesNotCharacters() {
        // 70,000 characters of two bytes each: 140,000 bytes, so two do not fit in 262,144.
        Message a = new Message("a", "é".repeat(70_000));
        Message b = new Message("b", "é".repeat(70_000));

        assertThat(TaskPublisher.groups(List.of(a, b))).containsExactly(List.of(a), List.of(b));
    }

    @Test
    void groups_rejectsOneMessageOverTwoHundredFiftySixKiB() {
        List<Message> messages = List.of(message("small"), sized("huge", 256 * 1024 + 1));

        assertThatThrownBy(() -> TaskPublisher.groups(messages))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("task huge is 262145 bytes, over SQS's limit of 262144");
    }

    @Test
    void groups_ofNothingIsEmpty() {
        assertThat(TaskPublisher.groups(List.of())).isEmpty();
    }

    // ---- publish -------------------------------------------------------------------------

    @Test
    void publish_sendsEachGroupWithTheQueueUrlIdsAndBodies() {
        doReturn(response(List.of("a", "b"))).when(sqs).sendMessageBatch(any(SendMessageBatchRequest.class));
        TaskPublisher publisher = new TaskPublisher(sqs, QUEUE, 1, 3, 0);

        long sent = publisher.publish(List.of(message("a"), message("b")), n -> { });

        assertThat(sent).isEqualTo(2);
        SendMessageBatchRequest request = sentRequests(1).get(0);
        assertThat(request.queueUrl()).isEqualTo(QUEUE);
        assertThat(request.entries()).extracting(SendMessageBatchRequestEntry::id, SendMessageBatchRequestEntry::messageBody)
                .containsExactlyInAnyOrder(tuple("a", "{\"taskId\":\"a\"}"), tuple("b", "{\"taskId\":\"b\"}"));
    }

    @Test
    void publish_retriesOnlyFailedEntriesOfABatch() {
        doReturn(
                response(List.of("a", "c"), failure("b", false, "InternalError", "try again")),
                response(List.of("b")))
                .when(sqs).sendMessageBatch(any(SendMessageBatchRequest.class));
        TaskPublisher publisher = new TaskPublisher(sqs, QUEUE, 1, 3, 0);

        long sent = publisher.publish(List.of(message("a"), message("b"), message("c")), n -> { });

        assertThat(sent).isEqualTo(3);
        List<SendMessageBatchRequest> requests = sentRequests(2);
        assertThat(ids(requests.get(0))).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(requests.get(1).entries()).extracting(SendMessageBatchRequestEntry::id, SendMessageBatchRequestEntry::messageBody)
                .containsExactly(tuple("b", "{\"taskId\":\"b\"}"));
        assertThat(requests.get(1).queueUrl()).isEqualTo(QUEUE);
    }

    @Test
    void publish_neverResendsAnEntryThatSucceeded() {
        doReturn(
                response(List.of("a"), failure("b", false, "InternalError", "x"), failure("c", false, "InternalError", "x")),
                response(List.of("b"), failure("c", false, "ServiceUnavailable", "y")),
                response(List.of("c")))
                .when(sqs).sendMessageBatch(any(SendMessageBatchRequest.class));
        TaskPublisher publisher = new TaskPublisher(sqs, QUEUE, 1, 5, 0);

        long sent = publisher.publish(List.of(message("a"), message("b"), message("c")), n -> { });

        assertThat(sent).isEqualTo(3);
        List<SendMessageBatchRequest> requests = sentRequests(3);
        assertThat(ids(requests.get(0))).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(ids(requests.get(1))).containsExactlyInAnyOrder("b", "c");
        assertThat(ids(requests.get(2))).containsExactly("c");
    }

    @Test
    void publish_resendsTheWholeGroupWhenTheCallItselfFailed() {
        doThrow(SqsException.builder().message("Rate exceeded").statusCode(400)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("RequestThrottled").errorMessage("Rate exceeded").build()).build())
                .doReturn(response(List.of("a", "b")))
                .when(sqs).sendMessageBatch(any(SendMessageBatchRequest.class));
        TaskPublisher publisher = new TaskPublisher(sqs, QUEUE, 1, 3, 0);

        long sent = publisher.publish(List.of(message("a"), message("b")), n -> { });

        assertThat(sent).isEqualTo(2);
        List<SendMessageBatchRequest> requests = sentRequests(2);
        assertThat(ids(requests.get(0))).containsExactlyInAnyOrder("a", "b");
        assertThat(ids(requests.get(1))).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void publish_givesUpAfterMaxAttemptsWithAMessage() {
        doReturn(
                response(List.of("a"), failure("b", false, "InternalError", "boom")),
                response(List.of(), failure("b", false, "InternalError", "boom")),
                response(List.of(), failure("b", false, "InternalError", "boom again")))
                .when(sqs).sendMessageBatch(any(SendMessageBatchRequest.class));
        TaskPublisher publisher = new TaskPublisher(sqs, QUEUE, 1, 3, 0);

        assertThatThrownBy(() -> publisher.publish(List.of(message("a"), message("b")), n -> { }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("1 SendMessageBatch groups failed after 3 attempts; ")
                .hasMessageEndingWith("First error: 1 tasks not sent after 3 attempts: InternalError: boom again");
        List<SendMessageBatchRequest> requests = sentRequests(3);
        assertThat(ids(requests.get(1))).containsExactly("b");
        assertThat(ids(requests.get(2))).containsExactly("b");
    }

    @Test
    void publish_failureMessageCountsEntriesAcceptedBeforeTheGroupFailed() {
        doReturn(
                response(List.of("a"), failure("b", false, "InternalError", "boom")),
                response(List.of(), failure("b", false, "InternalError", "boom")))
                .when(sqs).sendMessageBatch(any(SendMessageBatchRequest.class));
        TaskPublisher publisher = new TaskPublisher(sqs, QUEUE, 1, 2, 0);

        assertThatThrownBy(() -> publisher.publish(List.of(message("a"), message("b")), n -> { }))
                .hasMessageContaining("; 1 of 2 tasks were sent.");
    }

    @Test
    void publish_failsAtOnceOnASenderFault() {
        doReturn(response(List.of("a"), failure("b", true, "InvalidParameterValue", "message too long")))
                .when(sqs).sendMessageBatch(any(SendMessageBatchRequest.class));
        TaskPublisher publisher = new TaskPublisher(sqs, QUEUE, 1, 8, 0);

        assertThatThrownBy(() -> publisher.publish(List.of(message("a"), message("b")), n -> { }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("1 SendMessageBatch groups failed")
                .hasMessageEndingWith("First error: SQS refused task b: InvalidParameterValue: message too long");
        sentRequests(1);
    }

    @Test
    void publish_sendsEveryGroupAndReportsProgress() {
        doReturn(response(IntStream.rangeClosed(1, 10).mapToObj(i -> "t" + i).toList()),
                response(IntStream.rangeClosed(11, 15).mapToObj(i -> "t" + i).toList()))
                .when(sqs).sendMessageBatch(any(SendMessageBatchRequest.class));
        TaskPublisher publisher = new TaskPublisher(sqs, QUEUE, 1, 3, 0);
        List<Long> progress = new CopyOnWriteArrayList<>();

        long sent = publisher.publish(IntStream.rangeClosed(1, 15).mapToObj(i -> message("t" + i)).toList(), progress::add);

        assertThat(sent).isEqualTo(15);
        assertThat(progress).containsExactly(10L, 15L);
        List<SendMessageBatchRequest> requests = sentRequests(2);
        assertThat(ids(requests.get(0))).containsExactlyInAnyOrderElementsOf(
                IntStream.rangeClosed(1, 10).mapToObj(i -> "t" + i).toList());
        assertThat(ids(requests.get(1))).containsExactlyInAnyOrder("t11", "t12", "t13", "t14", "t15");
    }

    @Test
    void publish_countsOnlyTheGroupsThatWereSentWhenOneFails() {
        // Two groups on one thread: the first is sent, every attempt of the second fails.
        List<String> firstTen = IntStream.rangeClosed(1, 10).mapToObj(i -> "t" + i).toList();
        doReturn(response(firstTen),
                response(List.of(), failure("t11", false, "InternalError", "down")),
                response(List.of(), failure("t11", false, "InternalError", "down")))
                .when(sqs).sendMessageBatch(any(SendMessageBatchRequest.class));
        TaskPublisher publisher = new TaskPublisher(sqs, QUEUE, 1, 2, 0);
        List<Message> messages = new ArrayList<>(IntStream.rangeClosed(1, 11).mapToObj(i -> message("t" + i)).toList());

        assertThatThrownBy(() -> publisher.publish(messages, n -> { }))
                .hasMessage("1 SendMessageBatch groups failed after 2 attempts; 10 of 11 tasks were sent. "
                        + "First error: 1 tasks not sent after 2 attempts: InternalError: down");
        List<SendMessageBatchRequest> requests = sentRequests(3);
        assertThat(ids(requests.get(1))).containsExactly("t11");
        assertThat(ids(requests.get(2))).containsExactly("t11");
    }
}
