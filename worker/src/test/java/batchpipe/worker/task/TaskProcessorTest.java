package batchpipe.worker.task;

import batchpipe.common.task.HashTask;
import batchpipe.common.task.ScanTask;
import batchpipe.common.task.TaskCodec;
import batchpipe.common.task.TaskLimits;
import batchpipe.worker.hash.HashExecutor;
import batchpipe.common.run.CountAccuracy;
import batchpipe.common.run.HashOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.run.WorkerInvocation;
import batchpipe.common.run.WriteTimes;
import batchpipe.common.table.CallTimer;
import batchpipe.common.table.ProgressShards;
import batchpipe.worker.record.TaskBooks;
import batchpipe.worker.record.TaskRecords;
import batchpipe.worker.scan.ApproximateCounts;
import batchpipe.worker.scan.ScanExecutor;
import batchpipe.worker.scan.ScanResult;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyMap;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.verifyNoMoreInteractions;
import static org.mockito.Mockito.when;

class TaskProcessorTest {
    private final TaskMetrics metrics = new TaskMetrics();
    private static final Invocation INVOCATION =
            new Invocation("req-1", "batchpipe-worker", "$LATEST", 1024, "arm64", 2, 0.579, true, 250L);
    private static final String HASH_BODY = "{\"v\":1,\"runId\":\"r1\",\"taskId\":\"hash-000001\",\"kind\":\"hash\","
            + "\"enqueuedAt\":\"2026-11-30T01:02:03.000Z\",\"cost\":4,\"count\":3,\"prefix\":\"password_\",\"start\":1}";
    private static final HashTask HASH_TASK =
            new HashTask("r1", "hash-000001", Instant.parse("2026-11-30T01:02:03Z"), 4, 3, "password_", 1, null);
    private static final long ENQUEUED = 1_796_000_523_000L;  // 2026-11-30T01:02:03Z
    private static final long STARTED = 1_796_000_530_000L;   // 7 s later
    private static final long FINISHED = 1_796_000_532_500L;  // 2.5 s after the start

    private final InvocationLedger ledger = new InvocationLedger();
    private TaskBooks books;
    private TaskRecords records;
    private ScanExecutor scans;
    private HashExecutor hashes;
    private TaskProcessor processor;

    /** Answers the instants in order: the start of the message, then its finish. */
    private static final class StepClock extends Clock {
        private final Deque<Instant> instants = new ArrayDeque<>();

        StepClock(long... millis) {
            for (long m : millis) instants.add(Instant.ofEpochMilli(m));
        }

        @Override
        public Instant instant() {
            return instants.size() > 1 ? instants.poll() : instants.peek();
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    @BeforeEach
    void setUp() {
        books = mock(TaskBooks.class);
        when(books.layout(anyString(), any())).thenAnswer(call -> batchpipe.common.table.RunPartitions.legacy(call.getArgument(0)));
        records = mock(TaskRecords.class);
        when(books.records()).thenReturn(records);
        when(books.runExists(anyString(), any())).thenReturn(true);
        when(books.count(anyString(), anyString(), any(), any(), any())).thenReturn(ProgressShards.Count.RUN_NOT_COMPLETE);
        when(books.close(any(TaskRecord.class), any(), any())).thenAnswer(call ->
                new TaskBooks.Recorded(true, call.<TaskRecord>getArgument(0).status(), ProgressShards.Count.RUN_NOT_COMPLETE));
        scans = mock(ScanExecutor.class);
        hashes = mock(HashExecutor.class);
        processor = new TaskProcessor(new TaskCodec(TaskLimits.defaults()), books, scans, hashes, 3,
                new StepClock(STARTED, FINISHED));
    }

    private static SQSMessage message(String body, String receiveCount) {
        SQSMessage m = new SQSMessage();
        m.setMessageId("msg-1");
        m.setBody(body);
        if (receiveCount != null) m.setAttributes(Map.of("ApproximateReceiveCount", receiveCount));
        return m;
    }

    private TaskRecord recorded() {
        ArgumentCaptor<TaskRecord> captor = ArgumentCaptor.forClass(TaskRecord.class);
        verify(books).close(captor.capture(), any(), any(WriteStats.class));
        return captor.getValue();
    }

    /** INVOCATION as a record states it. */
    private static final WorkerInvocation RECORDED_INVOCATION =
            new WorkerInvocation("req-1", "batchpipe-worker", "$LATEST", 1024, "arm64", 2, 0.579, true, 250L);
    /** No timed call, plus the record's own put. */
    private static final WriteTimes ONLY_THE_RECORD_PUT = new WriteTimes(1, 0.0, 0.0);

    private static TaskRecord storedWith(TaskStatus status) {
        return TaskRecord.builder().runId("r1").taskId("hash-000001").kind("hash").status(status).attempt(1).build();
    }

    @Test
    void process_notATaskReturnsFalseAndRecordsNothing() {
        boolean deletable = processor.process(message("this is not a task", "1"), INVOCATION, metrics, ledger);

        assertThat(deletable).isFalse();
        verifyNoInteractions(books, records, scans, hashes);
    }

    @Test
    void process_invalidTaskIsRecordedRejectedWithTheReason() {
        String body = HASH_BODY.replace("\"cost\":4", "\"cost\":20");

        boolean deletable = processor.process(message(body, "1"), INVOCATION, metrics, ledger);

        assertThat(deletable).isTrue();
        assertThat(recorded()).isEqualTo(TaskRecord.builder().runId("r1").taskId("hash-000001").kind("hash").status(TaskStatus.REJECTED)
                .reason("'cost' is 20, outside the allowed range 4 to 14 (MAX_HASH_COST)").startedAt(STARTED).finishedAt(FINISHED)
                .durationMs(2_500L).attempt(1).invocation(RECORDED_INVOCATION).writes(ONLY_THE_RECORD_PUT).build());
        verify(records, never()).find(anyString(), anyString(), any());
        verifyNoInteractions(scans, hashes);
    }

    @Test
    void process_successIsRecordedDoneWithTheResult() throws Exception {
        when(records.find(eq("r1"), eq("hash-000001"), any())).thenReturn(Optional.empty());
        when(hashes.execute(eq(HASH_TASK), any(), any(WriteStats.class))).thenReturn(3);

        boolean deletable = processor.process(message(HASH_BODY, "2"), INVOCATION, metrics, ledger);

        assertThat(deletable).isTrue();
        assertThat(recorded()).isEqualTo(TaskRecord.builder().runId("r1").taskId("hash-000001").kind("hash").status(TaskStatus.DONE)
                .enqueuedAt(ENQUEUED).startedAt(STARTED).finishedAt(FINISHED).durationMs(2_500L).attempt(2).invocation(RECORDED_INVOCATION)
                .writes(ONLY_THE_RECORD_PUT).hash(new HashOutcome(3, 4)).build());
        verifyNoInteractions(scans);
    }

    @Test
    void process_transientFailureBelowMaxReceiveCountReturnsFalseAndRecordsNothing() throws Exception {
        when(records.find(eq("r1"), eq("hash-000001"), any())).thenReturn(Optional.empty());
        when(hashes.execute(eq(HASH_TASK), any(), any(WriteStats.class))).thenThrow(new IllegalStateException("throttled"));

        boolean deletable = processor.process(message(HASH_BODY, "2"), INVOCATION, metrics, ledger);

        assertThat(deletable).isFalse();
        verify(books, never()).close(any(), any(), any());
        verify(books, never()).count(anyString(), anyString(), any(), any(), any());
    }

    @Test
    void process_transientFailureOnTheLastReceiveIsRecordedFailedAndReturnsFalse() throws Exception {
        when(records.find(eq("r1"), eq("hash-000001"), any())).thenReturn(Optional.empty());
        when(hashes.execute(eq(HASH_TASK), any(), any(WriteStats.class))).thenThrow(new IllegalStateException("throttled"));

        boolean deletable = processor.process(message(HASH_BODY, "3"), INVOCATION, metrics, ledger);

        assertThat(deletable).isFalse();
        TaskRecord record = recorded();
        assertThat(record.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(record.reason()).isEqualTo("IllegalStateException: throttled");
        assertThat(record.kind()).isEqualTo("hash");
        assertThat(record.enqueuedAt()).isEqualTo(ENQUEUED);
        assertThat(record.attempt()).isEqualTo(3);
        assertThat(record.hash()).isNull();
    }

    @Test
    void process_transientFailureAfterTheLastReceiveIsRecordedToo() throws Exception {
        when(records.find(eq("r1"), eq("hash-000001"), any())).thenReturn(Optional.empty());
        when(hashes.execute(eq(HASH_TASK), any(), any(WriteStats.class))).thenThrow(new IllegalStateException("throttled"));

        assertThat(processor.process(message(HASH_BODY, "5"), INVOCATION, metrics, ledger)).isFalse();
        assertThat(recorded().status()).isEqualTo(TaskStatus.FAILED);
        assertThat(recorded().attempt()).isEqualTo(5);
    }

    @Test
    void process_alreadyRecordedTaskOnlyFinishesItsBookkeeping() {
        when(records.find(eq("r1"), eq("hash-000001"), any())).thenReturn(Optional.of(storedWith(TaskStatus.DONE)));

        boolean deletable = processor.process(message(HASH_BODY, "2"), INVOCATION, metrics, ledger);

        assertThat(deletable).isTrue();
        verify(books).runExists(eq("r1"), any());
        verify(records).find(eq("r1"), eq("hash-000001"), any());
        verify(books).count(eq("r1"), eq("hash-000001"), any(), eq(TaskStatus.DONE), any(WriteStats.class));
        verify(books, never()).close(any(), any(), any());
        verifyNoMoreInteractions(records);
        verifyNoInteractions(scans, hashes);
    }

    @Test
    void process_permanentFailureIsRecordedRejected() throws Exception {
        String body = "{\"v\":1,\"runId\":\"r1\",\"taskId\":\"scan-1\",\"kind\":\"scan\",\"enqueuedAt\":\"2026-11-30T01:02:03Z\","
                + "\"bucket\":\"logs\",\"key\":\"gone.json\"}";
        when(records.find(eq("r1"), eq("scan-1"), any())).thenReturn(Optional.empty());
        when(scans.execute(any(ScanTask.class))).thenThrow(new PermanentTaskException("s3://logs/gone.json does not exist", null));

        boolean deletable = processor.process(message(body, "1"), INVOCATION, metrics, ledger);

        assertThat(deletable).isTrue();
        TaskRecord record = recorded();
        assertThat(record.status()).isEqualTo(TaskStatus.REJECTED);
        assertThat(record.kind()).isEqualTo("scan");
        assertThat(record.reason()).isEqualTo("s3://logs/gone.json does not exist");
        assertThat(record.enqueuedAt()).isEqualTo(ENQUEUED);
        assertThat(record.scan()).isNull();
        verifyNoInteractions(hashes);
    }

    private static final String SCAN_BODY = "{\"v\":1,\"runId\":\"r1\",\"taskId\":\"scan-1\",\"kind\":\"scan\","
            + "\"enqueuedAt\":\"2026-11-30T01:02:03Z\",\"bucket\":\"logs\",\"key\":\"app.zst\",\"countBy\":[\"level\",\"user.id\"]}";

    @Test
    void process_recordsWhichCountByPathsWereCountedApproximately() throws Exception {
        when(records.find(eq("r1"), eq("scan-1"), any())).thenReturn(Optional.empty());
        when(scans.execute(any(ScanTask.class))).thenReturn(new ScanResult(10, 0, List.of(), 0, 100, 10,
                Map.of("level", Map.of("INFO", 10L), "user.id", Map.of("u-1", 6L, "u-2", 3L)), null,
                Map.of("user.id", new ApproximateCounts(10, 4, Map.of("u-1", 2L, "u-2", 1L)))));

        assertThat(processor.process(message(SCAN_BODY, "1"), INVOCATION, metrics, ledger)).isTrue();

        TaskRecord record = recorded();
        assertThat(record.status()).isEqualTo(TaskStatus.DONE);
        assertThat(record.scan().countBy()).isEqualTo(Map.of("level", Map.of("INFO", 10L), "user.id", Map.of("u-1", 6L, "u-2", 3L)));
        assertThat(record.scan().countByDistinct()).isEqualTo(Map.of("level", 1L, "user.id", 4L));
        assertThat(record.scan().countByOther()).isEqualTo(Map.of("level", 0L, "user.id", 1L));
        assertThat(record.scan().countByAccuracy()).isEqualTo(Map.of(
                "level", CountAccuracy.EXACT, "user.id", new CountAccuracy(false, 2L, false)));
    }

    @Test
    void process_recordsNoAccuracyFieldWhenEveryCountIsExact() throws Exception {
        when(records.find(eq("r1"), eq("scan-1"), any())).thenReturn(Optional.empty());
        when(scans.execute(any(ScanTask.class))).thenReturn(new ScanResult(10, 0, List.of(), 0, 100, 10,
                Map.of("level", Map.of("INFO", 10L), "user.id", Map.of("u-1", 7L, "u-2", 3L)), null));

        assertThat(processor.process(message(SCAN_BODY, "1"), INVOCATION, metrics, ledger)).isTrue();

        TaskRecord record = recorded();
        assertThat(record.status()).isEqualTo(TaskStatus.DONE);
        assertThat(record.scan().countByDistinct()).isEqualTo(Map.of("level", 1L, "user.id", 2L));
        assertThat(record.scan().countByAccuracy()).isNull();
        assertThat(record.scan().countByOther()).isNull();
    }

    @Test
    void process_returnsFalseWhenTheRecordCannotBeRead() {
        when(records.find(eq("r1"), eq("hash-000001"), any())).thenThrow(new IllegalStateException("DynamoDB unavailable"));

        assertThat(processor.process(message(HASH_BODY, "1"), INVOCATION, metrics, ledger)).isFalse();
        verifyNoInteractions(hashes);
        verify(books, never()).close(any(), any(), any());
    }

    @Test
    void process_returnsFalseWhenTheRecordCannotBeWritten() throws Exception {
        when(records.find(eq("r1"), eq("hash-000001"), any())).thenReturn(Optional.empty());
        when(hashes.execute(eq(HASH_TASK), any(), any(WriteStats.class))).thenReturn(3);
        doThrow(new IllegalStateException("DynamoDB unavailable")).when(books).close(any(), any(), any());

        assertThat(processor.process(message(HASH_BODY, "1"), INVOCATION, metrics, ledger)).isFalse();
    }

    @Test
    void process_taskOfARunWithoutRunRecordIsFailedSoItReachesTheDeadLetterQueue() throws Exception {
        // Regression: such a task used to run, be recorded, and be acknowledged without being counted.
        when(books.runExists(eq("r1"), any())).thenReturn(false);

        assertThat(processor.process(message(HASH_BODY, "1"), INVOCATION, metrics, ledger)).isFalse();
        verify(books, never()).close(any(), any(), any());
        verifyNoInteractions(hashes, scans);
    }

    @Test
    void process_transientFailureKeepsItsErrorForTheDeadLetterRecorder() throws Exception {
        when(records.find(eq("r1"), eq("hash-000001"), any())).thenReturn(Optional.empty());
        when(hashes.execute(eq(HASH_TASK), any(), any(WriteStats.class))).thenThrow(new IllegalStateException("throttled"));

        processor.process(message(HASH_BODY, "2"), INVOCATION, metrics, ledger);

        verify(records).recordAttemptError(eq("r1"), eq("hash-000001"), eq(2), eq("IllegalStateException: throttled"), anyLong(), any());
    }

    @Test
    void process_duplicateThatLostTheConditionalWriteIsAcknowledgedAndNotCountedAsDone() throws Exception {
        when(records.find(eq("r1"), eq("hash-000001"), any())).thenReturn(Optional.empty());
        when(hashes.execute(eq(HASH_TASK), any(), any(WriteStats.class))).thenReturn(3);
        when(books.close(any(), any(), any())).thenReturn(new TaskBooks.Recorded(false, TaskStatus.DONE, ProgressShards.Count.RUN_NOT_COMPLETE));

        assertThat(processor.process(message(HASH_BODY, "1"), INVOCATION, metrics, ledger)).isTrue();
        assertThat(metrics.tasks("hash", "duplicate")).isEqualTo(1);
        assertThat(metrics.tasks("hash", "done")).isZero();
        assertThat(metrics.hashes()).isZero();
    }

    @Test
    void receiveCount_readsTheAttributeAndDefaultsToOne() {
        assertThat(TaskProcessor.receiveCount(message("x", "4"))).isEqualTo(4);
        assertThat(TaskProcessor.receiveCount(message("x", null))).isEqualTo(1);
        assertThat(TaskProcessor.receiveCount(message("x", "many"))).isEqualTo(1);
        SQSMessage other = message("x", null);
        other.setAttributes(new HashMap<>(Map.of("SentTimestamp", "1")));
        assertThat(TaskProcessor.receiveCount(other)).isEqualTo(1);
    }

    @Test
    void invocation_normalizesTheJvmArchitectureName() {
        assertThat(List.of("aarch64", "arm64", "amd64", "x86_64", "x86-64", "riscv64"))
                .map(Invocation::normalizedArchitecture)
                .containsExactly("arm64", "arm64", "x86_64", "x86_64", "x86_64", "riscv64");
    }

    @Test
    void process_recordsWhenSqsAcceptedTheMessageSoQueueWaitStartsThere() throws Exception {
        when(records.find(eq("r1"), eq("hash-000001"), any())).thenReturn(Optional.empty());
        when(hashes.execute(eq(HASH_TASK), any(), any(WriteStats.class))).thenReturn(3);
        SQSMessage message = message(HASH_BODY, "1");
        message.setAttributes(Map.of("ApproximateReceiveCount", "1", "SentTimestamp", "1796000500000"));

        assertThat(processor.process(message, INVOCATION, metrics, ledger)).isTrue();

        assertThat(recorded().sentAt()).isEqualTo(1_796_000_500_000L);
    }

    @Test
    void process_completingARunLeavesItsAnnouncementToTheEndOfTheInvocation() throws Exception {
        when(records.find(eq("r1"), eq("hash-000001"), any())).thenReturn(Optional.empty());
        when(hashes.execute(eq(HASH_TASK), any(), any(WriteStats.class))).thenReturn(3);
        when(books.close(any(TaskRecord.class), any(), any())).thenReturn(
                new TaskBooks.Recorded(true, TaskStatus.DONE, new ProgressShards.Count(true, null)));

        assertThat(processor.process(message(HASH_BODY, "1"), INVOCATION, metrics, ledger)).isTrue();

        verify(books, never()).announceCompletion(any(), any(), any(), any());
        assertThat(ledger.completions()).containsExactly(new InvocationLedger.Completion("r1", "hash-000001", null, "msg-1"));
        assertThat(ledger.tasksByRun()).containsEntry("r1", 1);
    }
}
