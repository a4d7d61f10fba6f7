package batchpipe.worker.batch;

import batchpipe.worker.task.Invocation;
import batchpipe.worker.task.InvocationLedger;
import batchpipe.worker.task.TaskMetrics;
import batchpipe.worker.task.TaskProcessor;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

class BatchProcessorTest {
    /** An invocation that completed no run: nothing to write or announce at its end. */
    private static final BatchProcessor.InvocationEnd NOTHING_TO_END = (invocation, ledger, startedAt, finishedAt) -> Set.of();

    private static final Invocation INVOCATION =
            new Invocation("req-1", "batchpipe-worker", "$LATEST", 1024, "arm64", 2, 0.579, false, null);

    private TaskProcessor tasks;

    @BeforeEach
    void setUp() {
        // TaskProcessor is final: Mockito's inline mock maker (the default in Mockito 5) mocks it.
        tasks = mock(TaskProcessor.class);
    }

    private static SQSMessage message(String id) {
        SQSMessage m = new SQSMessage();
        m.setMessageId(id);
        m.setBody("{\"id\":\"" + id + "\"}");
        return m;
    }

    private static List<String> failedIds(SQSBatchResponse response) {
        return response.getBatchItemFailures().stream().map(SQSBatchResponse.BatchItemFailure::getItemIdentifier).toList();
    }

    private static org.mockito.ArgumentMatcher<SQSMessage> id(String id) {
        return m -> m != null && id.equals(m.getMessageId());
    }

    @Test
    void process_listsExactlyTheFailedMessageIdsInOrder() {
        List<SQSMessage> messages = IntStream.rangeClosed(1, 5).mapToObj(i -> message("m" + i)).toList();
        when(tasks.process(any(), eq(INVOCATION), any(), any())).thenReturn(true);
        when(tasks.process(argThat(id("m2")), eq(INVOCATION), any(), any())).thenReturn(false);
        when(tasks.process(argThat(id("m4")), eq(INVOCATION), any(), any())).thenReturn(false);

        SQSBatchResponse response = new BatchProcessor(tasks, NOTHING_TO_END, 4, 1_000).process(messages, INVOCATION, () -> 60_000, new TaskMetrics());

        assertThat(failedIds(response)).containsExactly("m2", "m4");
        verify(tasks, times(5)).process(any(), eq(INVOCATION), any(), any());
    }

    @Test
    void process_aMessageWhoseProcessingThrowsDoesNotFailItsNeighbours() {
        List<SQSMessage> messages = List.of(message("m1"), message("m2"), message("m3"));
        when(tasks.process(any(), any(), any(), any())).thenReturn(true);
        when(tasks.process(argThat(id("m2")), any(), any(), any())).thenThrow(new IllegalStateException("bug in one message"));

        SQSBatchResponse response = new BatchProcessor(tasks, NOTHING_TO_END, 4, 1_000).process(messages, INVOCATION, () -> 60_000, new TaskMetrics());

        assertThat(failedIds(response)).containsExactly("m2");
    }

    @Test
    void process_startsNoMessageWhenLessThanTheSafetyMarginRemains() {
        List<SQSMessage> messages = List.of(message("m1"), message("m2"), message("m3"));

        SQSBatchResponse response = new BatchProcessor(tasks, NOTHING_TO_END, 4, 10_000).process(messages, INVOCATION, () -> 9_999, new TaskMetrics());

        assertThat(failedIds(response)).containsExactly("m1", "m2", "m3");
        verifyNoInteractions(tasks);
    }

    @Test
    void process_startsMessagesWhenExactlyTheSafetyMarginRemains() {
        when(tasks.process(any(), any(), any(), any())).thenReturn(true);

        SQSBatchResponse response = new BatchProcessor(tasks, NOTHING_TO_END, 4, 10_000).process(List.of(message("m1")), INVOCATION, () -> 10_000, new TaskMetrics());

        assertThat(failedIds(response)).isEmpty();
        verify(tasks).process(argThat(id("m1")), eq(INVOCATION), any(), any());
    }

    @Test
    void process_stopsStartingMessagesOnceTimeRunsShort() {
        // One message at a time; the clock says 60 s remain for the first check and 1 s after that.
        AtomicInteger checks = new AtomicInteger();
        RemainingTime remaining = () -> checks.getAndIncrement() == 0 ? 60_000 : 1_000;
        when(tasks.process(any(), any(), any(), any())).thenReturn(true);

        SQSBatchResponse response = new BatchProcessor(tasks, NOTHING_TO_END, 1, 5_000)
                .process(List.of(message("m1"), message("m2"), message("m3")), INVOCATION, remaining, new TaskMetrics());

        assertThat(failedIds(response)).hasSize(2);
        verify(tasks, times(1)).process(any(), any(), any(), any());
    }

    @Test
    void process_runsAtMostMaxInFlightMessagesAtOnce() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        CountDownLatch firstTwoMeet = new CountDownLatch(2);
        when(tasks.process(any(), any(), any(), any())).thenAnswer(invocation -> {
            peak.accumulateAndGet(running.incrementAndGet(), Math::max);
            firstTwoMeet.countDown();
            boolean met = firstTwoMeet.await(10, TimeUnit.SECONDS);
            running.decrementAndGet();
            return met;
        });

        SQSBatchResponse response = new BatchProcessor(tasks, NOTHING_TO_END, 2, 1_000)
                .process(IntStream.rangeClosed(1, 8).mapToObj(i -> message("m" + i)).toList(), INVOCATION, () -> 60_000, new TaskMetrics());

        assertThat(failedIds(response)).isEmpty();
        assertThat(peak.get()).isEqualTo(2);
    }

    @Test
    void process_ofNoMessagesFailsNothing() {
        assertThat(failedIds(new BatchProcessor(tasks, NOTHING_TO_END, 4, 1_000).process(List.of(), INVOCATION, () -> 60_000, new TaskMetrics()))).isEmpty();
        assertThat(failedIds(new BatchProcessor(tasks, NOTHING_TO_END, 4, 1_000).process(null, INVOCATION, () -> 60_000, new TaskMetrics()))).isEmpty();
        verifyNoInteractions(tasks);
    }

    @Test
    void process_answersForAnSqsEventLoadedFromJson() {
        SQSEvent event = EventLoader.loadSQSEvent("batch/sqs-batch-of-three.json");
        when(tasks.process(any(), any(), any(), any())).thenReturn(true);
        when(tasks.process(argThat(id("poison-0003")), any(), any(), any())).thenReturn(false);

        SQSBatchResponse response = new BatchProcessor(tasks, NOTHING_TO_END, 4, 1_000).process(event.getRecords(), INVOCATION, () -> 60_000, new TaskMetrics());

        assertThat(failedIds(response)).containsExactly("poison-0003");
        verify(tasks).process(argThat(m -> "hash-0001".equals(m.getMessageId())
                && m.getBody().contains("\"taskId\":\"hash-000001\"")
                && "1".equals(m.getAttributes().get("ApproximateReceiveCount"))), eq(INVOCATION), any(), any());
    }

    @Test
    void process_returnsTheMessageWhoseRunCouldNotBeAnnouncedAtTheEnd() {
        List<SQSMessage> messages = List.of(message("m1"), message("m2"));
        when(tasks.process(any(), any(), any(), any())).thenAnswer(call -> {
            SQSMessage message = call.getArgument(0);
            InvocationLedger ledger = call.getArgument(3);
            if (message.getMessageId().equals("m2")) ledger.runCompleted(new InvocationLedger.Completion("r1", "t2", null, "m2"));
            return true;
        });
        BatchProcessor.InvocationEnd announcementFails = (invocation, ledger, startedAt, finishedAt) ->
                Set.copyOf(ledger.completions().stream().map(InvocationLedger.Completion::messageId).toList());

        SQSBatchResponse response = new BatchProcessor(tasks, announcementFails, 4, 1_000).process(messages, INVOCATION, () -> 60_000, new TaskMetrics());

        assertThat(failedIds(response)).containsExactly("m2");
    }

    @Test
    void process_whenEndingTheBooksThrowsEveryMessageThatCompletedARunComesBack() {
        List<SQSMessage> messages = List.of(message("m1"), message("m2"));
        when(tasks.process(any(), any(), any(), any())).thenAnswer(call -> {
            SQSMessage message = call.getArgument(0);
            if (message.getMessageId().equals("m1")) {
                call.<InvocationLedger>getArgument(3).runCompleted(new InvocationLedger.Completion("r1", "t1", null, "m1"));
            }
            return true;
        });
        BatchProcessor.InvocationEnd broken = (invocation, ledger, startedAt, finishedAt) -> {
            throw new IllegalStateException("bug");
        };

        SQSBatchResponse response = new BatchProcessor(tasks, broken, 4, 1_000).process(messages, INVOCATION, () -> 60_000, new TaskMetrics());

        assertThat(failedIds(response)).containsExactly("m1");
    }
}
