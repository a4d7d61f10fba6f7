package batchpipe.worker.deadletter;

import batchpipe.common.task.TaskCodec;
import batchpipe.common.task.TaskLimits;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.table.CallTimer;
import batchpipe.common.table.ProgressShards;
import batchpipe.worker.record.TaskBooks;
import batchpipe.worker.record.TaskRecords;
import batchpipe.worker.task.WriteStats;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyMap;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

/** Every message of the tasks dead-letter queue ends recorded and counted, or in the poison queue. */
class DeadLetterRecorderTest {
    private static final String HASH_BODY = "{\"v\":1,\"runId\":\"r1\",\"taskId\":\"hash-000002\",\"kind\":\"hash\","
            + "\"enqueuedAt\":\"2026-11-30T01:02:03Z\",\"cost\":4,\"count\":2,\"prefix\":\"p_\",\"start\":3}";
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    private TaskBooks books;
    private TaskRecords records;
    private PoisonQueue poison;
    private DeadLetterRecorder recorder;

    @BeforeEach
    void setUp() {
        books = mock(TaskBooks.class);
        records = mock(TaskRecords.class);
        when(books.records()).thenReturn(records);
        poison = mock(PoisonQueue.class);
        when(books.runExists(eq("r1"), any())).thenReturn(true);
        when(books.count(anyString(), anyString(), any(), any(), any())).thenReturn(ProgressShards.Count.RUN_NOT_COMPLETE);
        when(records.find(anyString(), anyString(), any())).thenReturn(Optional.empty());
        when(records.lastAttemptError(anyString(), anyString())).thenReturn(Optional.empty());
        when(books.close(any(TaskRecord.class), any(), any())).thenAnswer(call ->
                new TaskBooks.Recorded(true, call.<TaskRecord>getArgument(0).status(), ProgressShards.Count.RUN_NOT_COMPLETE));
        recorder = new DeadLetterRecorder(new TaskCodec(TaskLimits.defaults()), books, poison, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static SQSMessage message(String id, String body, String receiveCount) {
        SQSMessage m = new SQSMessage();
        m.setMessageId(id);
        m.setBody(body);
        m.setAttributes(Map.of("ApproximateReceiveCount", receiveCount));
        return m;
    }

    private TaskRecord recorded() {
        ArgumentCaptor<TaskRecord> captor = ArgumentCaptor.forClass(TaskRecord.class);
        verify(books).close(captor.capture(), any(), any(CallTimer.class));
        return captor.getValue();
    }

    /** A stored record of the task with this status. */
    private static TaskRecord stored(String taskId, TaskStatus status) {
        return TaskRecord.builder().runId("r1").taskId(taskId).kind("hash").status(status).attempt(1).build();
    }

    @Test
    void record_taskWithoutRecordIsRecordedFailedWithTheLastErrorCountedAndMarked() {
        // Regression for the run that stalled for ever: a task whose worker crashed or timed out on its
        // last receive reached the dead-letter queue with no record, and nothing ever counted it.
        when(records.lastAttemptError("r1", "hash-000002")).thenReturn(Optional.of("attempt 4: IOException: reset"));

        SQSBatchResponse response = recorder.record(List.of(message("m1", HASH_BODY, "6")));

        assertThat(response.getBatchItemFailures()).isEmpty();
        TaskRecord recorded = recorded();
        assertThat(recorded.runId()).isEqualTo("r1");
        assertThat(recorded.taskId()).isEqualTo("hash-000002");
        assertThat(recorded.kind()).isEqualTo("hash");
        assertThat(recorded.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(recorded.attempt()).isEqualTo(6);
        assertThat(recorded.enqueuedAt()).isEqualTo(Instant.parse("2026-11-30T01:02:03Z").toEpochMilli());
        assertThat(recorded.reason()).isEqualTo("reached the dead-letter queue (SQS receive count 6); last error: attempt 4: IOException: reset");
        assertThat(recorded.recordedBy()).isEqualTo("dead-letter recorder");
        verify(records).markDeadLettered("r1", "hash-000002", 6, NOW.toEpochMilli());
        verifyNoInteractions(poison);
    }

    @Test
    void record_taskRecordedButNeverCountedIsCountedWithItsStoredStatus() {
        // Regression for "recorded done but never counted": the last delivery wrote the record and died
        // (or was throttled) before its count; the run could never complete.
        when(records.find(eq("r1"), eq("hash-000002"), any())).thenReturn(Optional.of(stored("hash-000002", TaskStatus.DONE)));

        SQSBatchResponse response = recorder.record(List.of(message("m1", HASH_BODY, "6")));

        assertThat(response.getBatchItemFailures()).isEmpty();
        verify(books, never()).close(any(), any(), any());
        verify(records).markDeadLettered("r1", "hash-000002", 6, NOW.toEpochMilli());
        verify(books).count(eq("r1"), eq("hash-000002"), any(), eq(TaskStatus.DONE), any(CallTimer.class));
    }

    @Test
    void record_messageThatIsNotATaskGoesToThePoisonQueue() {
        SQSMessage notATask = message("m1", "poison: not a task", "4");

        SQSBatchResponse response = recorder.record(List.of(notATask));

        assertThat(response.getBatchItemFailures()).isEmpty();
        verify(poison).send(eq(notATask), org.mockito.ArgumentMatchers.startsWith("not a task: "));
        verify(books, never()).close(any(), any(), any());
    }

    @Test
    void record_taskOfAnUnknownRunGoesToThePoisonQueue() {
        String body = HASH_BODY.replace("\"r1\"", "\"no-such-run\"");
        SQSMessage message = message("m1", body, "4");

        recorder.record(List.of(message));

        verify(poison).send(message, "run no-such-run has no run record: task hash-000002 cannot be recorded against it");
        verify(books, never()).close(any(), any(), any());
        verify(books, never()).count(anyString(), anyString(), any(), any(), any());
    }

    @Test
    void record_failedStepReturnsOnlyThatMessageToTheQueue() {
        doThrow(new IllegalStateException("throttled")).when(books).count(eq("r1"), eq("hash-000003"), any(), any(), any());
        when(records.find(eq("r1"), eq("hash-000003"), any())).thenReturn(Optional.of(stored("hash-000003", TaskStatus.DONE)));
        String other = HASH_BODY.replace("hash-000002", "hash-000003");

        SQSBatchResponse response = recorder.record(List.of(message("m1", HASH_BODY, "6"), message("m2", other, "6")));

        assertThat(response.getBatchItemFailures()).extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier).containsExactly("m2");
    }

    @Test
    void record_invalidTaskNamingItsRunIsRecordedLikeAnyOtherTask() {
        String tooCostly = HASH_BODY.replace("\"cost\":4", "\"cost\":31");

        recorder.record(List.of(message("m1", tooCostly, "5")));

        assertThat(recorded().taskId()).isEqualTo("hash-000002");
        assertThat(recorded().status()).isEqualTo(TaskStatus.FAILED);
        verifyNoInteractions(poison);
    }

    @Test
    void record_aTaskWhoseCountCompletesTheRunAnnouncesTheRunAtOnce() {
        when(books.close(any(TaskRecord.class), any(), any())).thenReturn(
                new TaskBooks.Recorded(true, TaskStatus.FAILED, new ProgressShards.Count(true, null)));

        recorder.record(List.of(message("m1", HASH_BODY, "6")));

        verify(books).announceCompletion(eq("r1"), eq("hash-000002"), eq(null), any());
    }
}
