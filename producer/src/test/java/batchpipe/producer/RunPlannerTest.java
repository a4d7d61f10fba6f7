package batchpipe.producer;

import batchpipe.common.run.Planned;
import batchpipe.common.run.RunHost;
import batchpipe.common.run.RunRecord;
import batchpipe.common.task.HashTask;
import batchpipe.common.task.ScanMatch;
import batchpipe.common.task.ScanTask;
import batchpipe.common.task.Task;
import batchpipe.common.task.TaskCodec;
import batchpipe.common.task.TaskLimits;
import batchpipe.producer.enqueue.TaskPublisher;
import batchpipe.producer.listing.ObjectLister;
import batchpipe.producer.run.RunStore;
import batchpipe.producer.spec.RunSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyMap;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

class RunPlannerTest {
    private static final Instant NOW = Instant.parse("2026-11-30T01:02:03.456Z");
    private static final long NOW_MILLIS = 1_796_000_523_456L;
    private static final RunSpec.ScanSource SOURCE =
            new RunSpec.ScanSource("bucket-a", "logs/", null, null, List.of("level"), new ScanMatch.Contains("ERROR"));
    /** sha256("r1\nbucket-a\nlogs/a.json") and sha256("r1\nbucket-a\nlogs/b.json"), first 16 hex digits. */
    private static final String SCAN_A = "scan-a6771c54ba0adad2";
    private static final String SCAN_B = "scan-4dfeec107d143506";

    private ObjectLister lister;
    private RunStore runs;
    private TaskPublisher publisher;
    private final TaskCodec codec = new TaskCodec(TaskLimits.defaults());
    private RunPlanner planner;

    @BeforeEach
    void setUp() {
        lister = mock(ObjectLister.class);
        runs = mock(RunStore.class);
        publisher = mock(TaskPublisher.class);
        when(publisher.publish(anyList(), any())).thenAnswer(invocation -> (long) invocation.<List<?>>getArgument(0).size());
        planner = new RunPlanner(lister, runs, publisher, codec, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @SuppressWarnings("unchecked")
    private List<TaskPublisher.Message> publishedMessages() {
        ArgumentCaptor<List<TaskPublisher.Message>> captor = ArgumentCaptor.forClass(List.class);
        verify(publisher).publish(captor.capture(), any());
        return captor.getValue();
    }

    private List<Task> publishedTasks() throws Exception {
        List<Task> tasks = new ArrayList<>();
        for (TaskPublisher.Message m : publishedMessages()) {
            Task task = codec.decode(m.body());
            assertThat(m.id()).isEqualTo(task.taskId());
            tasks.add(task);
        }
        return tasks;
    }

    private RunRecord runRecord(String runId) {
        ArgumentCaptor<RunRecord> captor = ArgumentCaptor.forClass(RunRecord.class);
        verify(runs).create(captor.capture());
        assertThat(captor.getValue().runId()).isEqualTo(runId);
        return captor.getValue();
    }

    @Test
    void plan_writesTheRunRecordAndShardsBeforeAnyMessageIsSent() {
        when(lister.list(SOURCE)).thenReturn(List.of("logs/a.json", "logs/b.json"));

        planner.plan(new RunSpec("r1", null, List.of(SOURCE), new RunSpec.HashSpec(3, 4, 5, "password_")), Map.of(), n -> { });

        InOrder order = inOrder(lister, runs, publisher);
        order.verify(lister).list(SOURCE);
        order.verify(runs).create(argThat(r -> r.runId().equals("r1")));
        order.verify(runs).createProgressShards(eq("r1"), anyList(), anyInt());
        order.verify(publisher).publish(anyList(), any());
        order.verify(runs).markEnqueued("r1", 5, NOW_MILLIS);
    }

    @Test
    void plan_writesARunRecordWithSpecPlannedCountsAndStatus() {
        when(lister.list(SOURCE)).thenReturn(List.of("logs/a.json", "logs/b.json"));

        planner.plan(new RunSpec("r1", "nightly", List.of(SOURCE), new RunSpec.HashSpec(3, 4, 5, "password_")),
                Map.of("runId", "r1"), n -> { });

        assertThat(runRecord("r1")).isEqualTo(new RunRecord("r1", "nightly", "{\"runId\":\"r1\"}", new Planned(2, 3, 5), 12,
                NOW_MILLIS, "running", 1, null, null, List.of(), null, null));
    }

    @Test
    void plan_recordsTheHostOnlyWhenAskedToAndAsItIsWhenTheRunIsCreated() {
        when(lister.list(SOURCE)).thenReturn(List.of("logs/a.json"));
        RunHost host = new RunHost("Test CPU", 2, "Vendor 21", "Linux", List.of(0.5), NOW_MILLIS);
        List<Long> askedAt = new ArrayList<>();

        planner.recordingHost(at -> {
            askedAt.add(at);
            return host;
        }).plan(new RunSpec("r1", null, List.of(SOURCE), null), Map.of(), n -> { });

        assertThat(runRecord("r1").host()).isEqualTo(host);
        assertThat(askedAt).containsExactly(NOW_MILLIS);
    }

    @Test
    void plan_recordsNoHostByDefault() {
        when(lister.list(SOURCE)).thenReturn(List.of("logs/a.json"));

        planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), Map.of(), n -> { });

        assertThat(runRecord("r1").host()).isNull();
    }

    @Test
    void plan_writesProgressShardsForEveryTaskId() {
        when(lister.list(SOURCE)).thenReturn(List.of("logs/a.json", "logs/b.json"));

        planner.plan(new RunSpec("r1", null, List.of(SOURCE), new RunSpec.HashSpec(3, 4, 5, "password_")), Map.of(), n -> { });

        verify(runs).createProgressShards("r1", List.of(SCAN_A, SCAN_B, "hash-000001", "hash-000002", "hash-000003"), 1);
    }

    @Test
    void plan_usesDeterministicTaskIds() throws Exception {
        when(lister.list(SOURCE)).thenReturn(List.of("logs/a.json", "logs/b.json"));

        RunPlanner.PlanResult result = planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), Map.of(), n -> { });

        assertThat(result.plannedScan()).isEqualTo(2);
        assertThat(publishedTasks()).containsExactly(
                new ScanTask("r1", SCAN_A, NOW, "bucket-a", "logs/a.json", List.of("level"), new ScanMatch.Contains("ERROR")),
                new ScanTask("r1", SCAN_B, NOW, "bucket-a", "logs/b.json", List.of("level"), new ScanMatch.Contains("ERROR")));
    }

    @Test
    void plan_scansAnObjectOnlyOnceWhenTwoSourcesOverlap() throws Exception {
        RunSpec.ScanSource wide = new RunSpec.ScanSource("bucket-a", "", null, null, List.of("level"), null);
        RunSpec.ScanSource narrow = new RunSpec.ScanSource("bucket-a", "logs/", null, null, List.of("status"), null);
        when(lister.list(wide)).thenReturn(List.of("logs/a.json", "logs/b.json"));
        when(lister.list(narrow)).thenReturn(List.of("logs/a.json"));

        RunPlanner.PlanResult result = planner.plan(new RunSpec("r1", null, List.of(wide, narrow), null), Map.of(), n -> { });

        assertThat(result.plannedScan()).isEqualTo(2);
        assertThat(publishedTasks()).extracting(Task::taskId).containsExactly(SCAN_A, SCAN_B);
    }

    @Test
    void plan_makesHashBatchesOverDisjointIndexRanges() throws Exception {
        planner.plan(new RunSpec("r1", null, List.of(), new RunSpec.HashSpec(3, 4, 5, "pw_")), Map.of(), n -> { });

        assertThat(publishedTasks()).containsExactly(
                new HashTask("r1", "hash-000001", NOW, 5, 4, "pw_", 1, null),
                new HashTask("r1", "hash-000002", NOW, 5, 4, "pw_", 5, null),
                new HashTask("r1", "hash-000003", NOW, 5, 4, "pw_", 9, null));
        List<Task> tasks = publishedTasks();
        HashTask second = (HashTask) tasks.get(1);
        assertThat(second.input(0)).isEqualTo("pw_000005");
        assertThat(second.input(3)).isEqualTo("pw_000008");
        assertThat(((HashTask) tasks.get(2)).input(0)).isEqualTo("pw_000009");
    }

    @Test
    void plan_returnsPlannedAndEnqueuedCounts() {
        when(lister.list(SOURCE)).thenReturn(List.of("logs/a.json"));

        RunPlanner.PlanResult result = planner.plan(
                new RunSpec("r1", null, List.of(SOURCE), new RunSpec.HashSpec(2, 10, 4, "password_")), Map.of(), n -> { });

        assertThat(result.runId()).isEqualTo("r1");
        assertThat(result.plannedScan()).isEqualTo(1);
        assertThat(result.plannedHash()).isEqualTo(2);
        assertThat(result.enqueued()).isEqualTo(3);
        verify(runs).markEnqueued("r1", 3, NOW_MILLIS);
    }

    @Test
    void plan_withAnEmptyListingRecordsStatusEmptyAndSendsNothing() {
        when(lister.list(SOURCE)).thenReturn(List.of());

        RunPlanner.PlanResult result = planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), Map.of(), n -> { });

        RunRecord record = runRecord("r1");
        assertThat(record.status()).isEqualTo("empty");
        assertThat(record.planned()).isEqualTo(new Planned(0, 0, 0));
        assertThat(record.hashesPlanned()).isZero();
        assertThat(record.shards()).isEqualTo(1);
        assertThat(result.plannedScan()).isZero();
        assertThat(result.plannedHash()).isZero();
        assertThat(result.enqueued()).isZero();
        verify(publisher, never()).publish(anyList(), any());
        verify(runs, never()).createProgressShards(anyString(), anyList(), anyInt());
        verify(runs, never()).markEnqueued(anyString(), anyLong(), anyLong());
    }

    @Test
    void plan_makesANewTimeSortableRunIdWhenTheSpecHasNone() {
        RunPlanner.PlanResult result = planner.plan(
                new RunSpec(null, null, List.of(), new RunSpec.HashSpec(1, 1, 4, "password_")), Map.of(), n -> { });

        assertThat(result.runId()).matches("20261130T010203Z-[0-9a-f]{6}");
        verify(runs).create(argThat(r -> r.runId().equals(result.runId())));
    }

    @Test
    void plan_sendsNothingWhenTheRunAlreadyExists() {
        doThrow(new RunStore.RunExistsException("r1")).when(runs).create(any(RunRecord.class));

        assertThatThrownBy(() -> planner.plan(new RunSpec("r1", null, List.of(), new RunSpec.HashSpec(1, 1, 4, "password_")),
                Map.of(), n -> { }))
                .isInstanceOf(RunStore.RunExistsException.class);
        verify(runs, never()).createProgressShards(anyString(), anyList(), anyInt());
        verifyNoInteractions(publisher);
    }

    @Test
    void plan_writesNothingWhenListingFails() {
        when(lister.list(SOURCE)).thenThrow(new IllegalArgumentException("bucket 'bucket-a' does not exist; nothing was written or sent"));

        assertThatThrownBy(() -> planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), Map.of(), n -> { }))
                .hasMessage("bucket 'bucket-a' does not exist; nothing was written or sent");
        verifyNoInteractions(runs, publisher);
    }

    @Test
    void planResult_toJsonHasTheDocumentedShape() {
        Map<String, Object> json = new RunPlanner.PlanResult("r1", 2540, 40, 2580, 1.25).toJson();

        assertThat(json).containsExactly(
                Map.entry("runId", "r1"),
                Map.entry("planned", Map.of("scan", 2540L, "hash", 40L)),
                Map.entry("enqueued", 2580L),
                Map.entry("seconds", 1.25));
    }
}
