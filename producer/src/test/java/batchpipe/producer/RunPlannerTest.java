package batchpipe.producer;

import batchpipe.common.run.PlanCursor;
import batchpipe.common.run.PlanResult;
import batchpipe.common.run.RunHost;
import batchpipe.common.run.RunRecord;
import batchpipe.common.spec.RunSpec;
import batchpipe.common.task.HashTask;
import batchpipe.common.task.ScanMatch;
import batchpipe.common.task.ScanTask;
import batchpipe.common.task.Task;
import batchpipe.common.task.TaskCodec;
import batchpipe.common.task.TaskLimits;
import batchpipe.common.table.ProgressShards;
import batchpipe.producer.enqueue.PlanningContinuations;
import batchpipe.producer.enqueue.TaskPublisher;
import batchpipe.producer.listing.ObjectLister;
import batchpipe.producer.plan.RemainingTime;
import batchpipe.producer.run.CompletionNotice;
import batchpipe.producer.run.RunStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.concurrent.atomic.AtomicLong;
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
    private static final long MARGIN_MS = 30_000;

    private ObjectLister lister;
    private RunStore runs;
    private TaskPublisher publisher;
    private PlanningContinuations continuations;
    private CompletionNotice completions;
    private final TaskCodec codec = new TaskCodec(TaskLimits.defaults());
    private RunPlanner planner;

    @BeforeEach
    void setUp() {
        lister = mock(ObjectLister.class);
        runs = mock(RunStore.class);
        publisher = mock(TaskPublisher.class);
        continuations = mock(PlanningContinuations.class);
        completions = mock(CompletionNotice.class);
        when(publisher.publish(anyList(), any())).thenAnswer(invocation -> (long) invocation.<List<?>>getArgument(0).size());
        when(runs.advance(anyString(), anyLong(), any())).thenReturn(true);
        when(runs.finishPlanning(anyString(), any(), anyLong())).thenReturn(Map.of());
        planner = new RunPlanner(lister, runs, publisher, codec, continuations, completions, 5, MARGIN_MS, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static ObjectLister.ListedPage listed(boolean truncated, String... keys) {
        List<S3Object> objects = new ArrayList<>();
        for (String key : keys) objects.add(S3Object.builder().key(key).size(10L).build());
        return new ObjectLister.ListedPage(objects, truncated);
    }

    @SuppressWarnings("unchecked")
    private List<TaskPublisher.Message> publishedMessages() {
        ArgumentCaptor<List<TaskPublisher.Message>> captor = ArgumentCaptor.forClass(List.class);
        verify(publisher, org.mockito.Mockito.atLeastOnce()).publish(captor.capture(), any());
        return captor.getAllValues().stream().flatMap(List::stream).toList();
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

    private PlanCursor finishedAt() {
        ArgumentCaptor<PlanCursor> captor = ArgumentCaptor.forClass(PlanCursor.class);
        verify(runs).finishPlanning(eq("r1"), captor.capture(), eq(NOW_MILLIS));
        return captor.getValue();
    }

    @Test
    void plan_checksSourcesThenRecordsTheRunThenWritesEachPagesShardsBeforeItsTasksAndMovesTheCursorAfter() {
        when(lister.page(SOURCE, null)).thenReturn(listed(false, "logs/a.json", "logs/b.json"));

        planner.plan(new RunSpec("r1", null, List.of(SOURCE), new RunSpec.HashSpec(3, 4, 5, "password_")), n -> { });

        InOrder order = inOrder(lister, runs, publisher);
        order.verify(lister).checkListable(SOURCE);
        order.verify(lister).page(SOURCE, null);
        order.verify(runs).create(argThat(r -> r.runId().equals("r1")));
        order.verify(runs).planPageShards(any(), argThat(s -> s.firstShard() == 0), any());
        order.verify(publisher).publish(anyList(), any());
        order.verify(runs).advance(eq("r1"), eq(0L), argThat(c -> c.page() == 1 && c.scan() == 2));
        order.verify(runs).planPageShards(any(), argThat(s -> s.firstShard() == 1), any());
        order.verify(publisher).publish(anyList(), any());
        order.verify(runs).advance(eq("r1"), eq(1L), argThat(c -> c.page() == 2 && c.hash() == 3));
        order.verify(runs).finishPlanning(eq("r1"), argThat(c -> c.page() == 2 && c.shards() == 2), eq(NOW_MILLIS));
    }

    @Test
    void plan_recordsARunWithItsPartitionsItsSpecsJsonAndACursorAtTheStartAndNoShardCountYet() {
        when(lister.page(SOURCE, null)).thenReturn(listed(false, "logs/a.json", "logs/b.json"));

        planner.plan(new RunSpec("r1", "nightly", List.of(SOURCE), new RunSpec.HashSpec(3, 4, 5, "password_")), n -> { });

        RunRecord record = runRecord("r1");
        String storedSpec = "{\"runId\":\"r1\",\"label\":\"nightly\",\"scan\":[{\"bucket\":\"bucket-a\",\"prefix\":\"logs/\",\"countBy\":[\"level\"],"
                + "\"match\":{\"contains\":\"ERROR\"}}],\"hash\":{\"batches\":3,\"batchSize\":4,\"cost\":5,\"prefix\":\"password_\"}}";
        assertThat(record).isEqualTo(RunRecord.planning("r1", "nightly", storedSpec, 12, NOW_MILLIS, 1));
        assertThat(record.planning()).isEqualTo(PlanCursor.START);
        assertThat(record.toItem()).doesNotContainKey("shards").containsEntry("partitions", AttributeValue.fromN("1"));
    }

    @Test
    void plan_recordsTheHostOnlyWhenAskedToAndAsItIsWhenTheRunIsCreated() {
        when(lister.page(SOURCE, null)).thenReturn(listed(false, "logs/a.json"));
        RunHost host = new RunHost("Test CPU", 2, "Vendor 21", "Linux", List.of(0.5), NOW_MILLIS);
        List<Long> askedAt = new ArrayList<>();

        planner.recordingHost(at -> {
            askedAt.add(at);
            return host;
        }).plan(new RunSpec("r1", null, List.of(SOURCE), null), n -> { });

        assertThat(runRecord("r1").host()).isEqualTo(host);
        assertThat(askedAt).containsExactly(NOW_MILLIS);
    }

    @Test
    void plan_recordsNoHostByDefault() {
        when(lister.page(SOURCE, null)).thenReturn(listed(false, "logs/a.json"));

        planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), n -> { });

        assertThat(runRecord("r1").host()).isNull();
    }

    @Test
    void plan_namesEachTasksProgressShardInItsMessageAndPlansThatShardsCount() {
        when(lister.page(SOURCE, null)).thenReturn(listed(false, "logs/a.json", "logs/b.json"));

        planner.plan(new RunSpec("r1", null, List.of(SOURCE), new RunSpec.HashSpec(3, 4, 5, "password_")), n -> { });

        Map<String, Integer> shardOf = new HashMap<>();
        for (TaskPublisher.Message m : publishedMessages()) {
            shardOf.put(m.id(), ((Long) batchpipe.common.json.Json.parseObject(m.body()).get("shard")).intValue());
        }
        assertThat(shardOf).isEqualTo(Map.of(SCAN_A, 0, SCAN_B, 0, "hash-000001", 1, "hash-000002", 1, "hash-000003", 1));
        verify(runs).planPageShards(any(), eq(new ProgressShards.PageShards(0, 1)), argThat(planned -> planned.length == 1 && planned[0] == 2));
        verify(runs).planPageShards(any(), eq(new ProgressShards.PageShards(1, 1)), argThat(planned -> planned.length == 1 && planned[0] == 3));
    }

    @Test
    void plan_usesDeterministicTaskIds() throws Exception {
        when(lister.page(SOURCE, null)).thenReturn(listed(false, "logs/a.json", "logs/b.json"));

        PlanResult result = planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), n -> { });

        assertThat(result.plannedScan()).isEqualTo(2);
        assertThat(publishedTasks()).containsExactly(
                new ScanTask("r1", SCAN_A, NOW, "bucket-a", "logs/a.json", List.of("level"), new ScanMatch.Contains("ERROR")),
                new ScanTask("r1", SCAN_B, NOW, "bucket-a", "logs/b.json", List.of("level"), new ScanMatch.Contains("ERROR")));
    }

    @Test
    void plan_scansAnObjectOnlyOnceWhenTwoSourcesOverlap() throws Exception {
        RunSpec.ScanSource wide = new RunSpec.ScanSource("bucket-a", "", null, null, List.of("level"), null);
        RunSpec.ScanSource narrow = new RunSpec.ScanSource("bucket-a", "logs/", null, null, List.of("status"), null);
        when(lister.page(wide, null)).thenReturn(listed(false, "logs/a.json", "logs/b.json"));
        when(lister.page(narrow, null)).thenReturn(listed(false, "logs/a.json"));

        PlanResult result = planner.plan(new RunSpec("r1", null, List.of(wide, narrow), null), n -> { });

        assertThat(result.plannedScan()).isEqualTo(2);
        assertThat(publishedTasks()).extracting(Task::taskId).containsExactly(SCAN_A, SCAN_B);
    }

    @Test
    void plan_followsAListingPastItsFirstPageFromTheLastKeyListed() throws Exception {
        when(lister.page(SOURCE, null)).thenReturn(listed(true, "logs/a.json", "logs/skip/"));
        when(lister.page(SOURCE, "logs/skip/")).thenReturn(listed(false, "logs/b.json"));

        PlanResult result = planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), n -> { });

        assertThat(result.plannedScan()).isEqualTo(2);
        assertThat(publishedTasks()).extracting(Task::taskId).containsExactly(SCAN_A, SCAN_B);
        assertThat(finishedAt()).isEqualTo(new PlanCursor(2, 1, null, 0, 2, 0, 2, Map.of()));
    }

    @Test
    void plan_makesHashBatchesOverDisjointIndexRanges() throws Exception {
        planner.plan(new RunSpec("r1", null, List.of(), new RunSpec.HashSpec(3, 4, 5, "pw_")), n -> { });

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
    void plan_returnsPlannedAndEnqueuedCountsAndEndsPlanningWithThem() {
        when(lister.page(SOURCE, null)).thenReturn(listed(false, "logs/a.json"));

        PlanResult result = planner.plan(
                new RunSpec("r1", null, List.of(SOURCE), new RunSpec.HashSpec(2, 10, 4, "password_")), n -> { });

        assertThat(result).isEqualTo(new PlanResult("r1", 1, 2, 3, result.seconds()));
        assertThat(finishedAt()).isEqualTo(new PlanCursor(2, 2, null, 0, 1, 2, 2, Map.of()));
    }

    @Test
    void plan_withAnEmptyListingEndsPlanningWithNoTasksAndSendsNothing() {
        when(lister.page(SOURCE, null)).thenReturn(listed(false));

        PlanResult result = planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), n -> { });

        assertThat(result.plannedScan()).isZero();
        assertThat(result.enqueued()).isZero();
        assertThat(finishedAt()).isEqualTo(new PlanCursor(1, 1, null, 0, 0, 0, 0, Map.of()));
        verify(publisher, never()).publish(anyList(), any());
        verify(runs, never()).planPageShards(any(), any(), any());
    }

    @Test
    void plan_makesANewTimeSortableRunIdWhenTheSpecHasNone() {
        PlanResult result = planner.plan(
                new RunSpec(null, null, List.of(), new RunSpec.HashSpec(1, 1, 4, "password_")), n -> { });

        assertThat(result.runId()).matches("20261130T010203Z-[0-9a-f]{6}");
        verify(runs).create(argThat(r -> r.runId().equals(result.runId())));
    }

    @Test
    void plan_aRetryOfTheInvocationThatRecordedARunGoesOnWithThatRunFromItsCursorInsteadOfPlanningAnother() throws Exception {
        RunRecord stored = new RunRecord("r-first", null, "{\"scan\":[{\"bucket\":\"bucket-a\",\"prefix\":\"logs/\"}]}",
                new batchpipe.common.run.Planned(0, 0, 0), 0, NOW_MILLIS, "running", 0, null, null, List.of(), null, null, null, 3,
                new PlanCursor(4, 0, "logs/a.json", 1, 1, 0, 1, Map.of()));
        when(runs.claimForInvocation(eq("req-1"), anyString(), eq(NOW_MILLIS))).thenReturn("r-first");
        when(runs.read("r-first")).thenReturn(stored.toItem());
        RunSpec.ScanSource source = new RunSpec.ScanSource("bucket-a", "logs/", null, null, List.of("level", "status"), null);
        when(lister.page(source, "logs/a.json")).thenReturn(listed(false, "logs/b.json"));

        PlanResult result = planner.plan(new RunSpec(null, null, List.of(source), null), n -> { },
                RemainingTime.UNLIMITED, "req-1");

        assertThat(result.runId()).isEqualTo("r-first");
        verify(runs, never()).create(any(RunRecord.class));
        verify(runs).advance(eq("r-first"), eq(4L), any());
        assertThat(publishedMessages()).hasSize(1);
    }

    @Test
    void plan_aRetryWhoseFirstAttemptDiedBeforeRecordingRecordsTheRunUnderTheIdThatAttemptChose() {
        when(runs.claimForInvocation(eq("req-1"), anyString(), eq(NOW_MILLIS))).thenReturn("r-first");
        when(runs.read("r-first")).thenReturn(null);

        PlanResult result = planner.plan(new RunSpec(null, null, List.of(), new RunSpec.HashSpec(1, 1, 4, "password_")), n -> { }, RemainingTime.UNLIMITED, "req-1");

        assertThat(result.runId()).isEqualTo("r-first");
        verify(runs).create(argThat(r -> r.runId().equals("r-first")));
    }

    @Test
    void plan_aRetryOfAnInvocationWhoseRunWasMarkedFailedIsRefusedNamingTheRun() {
        RunRecord failed = new RunRecord("r-first", null, "{}", new batchpipe.common.run.Planned(0, 0, 0), 0, NOW_MILLIS, "enqueue-failed",
                0, 3L, "SQS refused", List.of(), null, null, null, 3, new PlanCursor(1, 0, null, 0, 0, 0, 0, Map.of()));
        when(runs.claimForInvocation(eq("req-1"), anyString(), eq(NOW_MILLIS))).thenReturn("r-first");
        when(runs.read("r-first")).thenReturn(failed.toItem());

        assertThatThrownBy(() -> planner.plan(new RunSpec(null, null, List.of(), new RunSpec.HashSpec(1, 1, 4, "password_")), n -> { }, RemainingTime.UNLIMITED, "req-1"))
                .hasMessageContaining("r-first").hasMessageContaining("SQS refused").hasMessageContaining("not planned again");
        verify(runs, never()).create(any(RunRecord.class));
        verifyNoInteractions(publisher);
    }

    @Test
    void plan_aFirstAttemptClaimsItsRequestIdForTheRunItRecords() {
        when(runs.claimForInvocation(eq("req-1"), anyString(), eq(NOW_MILLIS))).thenAnswer(i -> i.getArgument(1));

        PlanResult result = planner.plan(new RunSpec(null, null, List.of(), new RunSpec.HashSpec(1, 1, 4, "password_")), n -> { }, RemainingTime.UNLIMITED, "req-1");

        verify(runs).claimForInvocation("req-1", result.runId(), NOW_MILLIS);
        verify(runs).create(argThat(r -> r.runId().equals(result.runId())));
        verify(runs, never()).read(anyString());
    }

    @Test
    void plan_sendsNothingWhenTheRunAlreadyExists() {
        doThrow(new RunStore.RunExistsException("r1")).when(runs).create(any(RunRecord.class));

        assertThatThrownBy(() -> planner.plan(new RunSpec("r1", null, List.of(), new RunSpec.HashSpec(1, 1, 4, "password_")), n -> { }))
                .isInstanceOf(RunStore.RunExistsException.class);
        verify(runs, never()).planPageShards(any(), any(), any());
        verifyNoInteractions(publisher);
    }

    @Test
    void plan_writesNothingWhenASourceCannotBeListed() {
        doThrow(new IllegalArgumentException("bucket 'bucket-a' does not exist; nothing was written or sent")).when(lister).checkListable(SOURCE);

        assertThatThrownBy(() -> planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), n -> { }))
                .hasMessage("bucket 'bucket-a' does not exist; nothing was written or sent");
        verifyNoInteractions(runs, publisher);
    }

    @Test
    void plan_marksTheRunEnqueueFailedWhenSendingFails() {
        when(lister.page(SOURCE, null)).thenReturn(listed(false, "logs/a.json"));
        when(publisher.publish(anyList(), any())).thenThrow(new IllegalStateException("SQS said no"));

        assertThatThrownBy(() -> planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), n -> { }))
                .hasMessage("SQS said no");
        verify(runs).markEnqueueFailed("r1", 0, "SQS said no");
        verify(runs, never()).advance(anyString(), anyLong(), any());
    }

    @Test
    void plan_withAPlanningQueueHandsARecordedRunWhosePlanningFailedToAContinuationInsteadOfFailingIt() {
        when(continuations.configured()).thenReturn(true);
        when(lister.page(SOURCE, null)).thenReturn(listed(false, "logs/a.json"));
        when(publisher.publish(anyList(), any())).thenThrow(new IllegalStateException("SQS said no"));

        PlanResult result = planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), n -> { });

        assertThat(result.continued()).isTrue();
        assertThat(result.plannedScan()).as("planned so far: no page was committed").isZero();
        verify(runs).create(any(RunRecord.class));
        verify(continuations).send("r1");
        verify(runs, never()).markEnqueueFailed(anyString(), anyLong(), any());
        verify(runs, never()).advance(anyString(), anyLong(), any());
    }

    @Test
    void plan_marksTheRunEnqueueFailedAndThrowsWhenEvenTheHandOverToThePlanningQueueFails() {
        when(continuations.configured()).thenReturn(true);
        doThrow(new IllegalStateException("planning queue unreachable")).when(continuations).send("r1");
        when(lister.page(SOURCE, null)).thenReturn(listed(false, "logs/a.json"));
        when(publisher.publish(anyList(), any())).thenThrow(new IllegalStateException("SQS said no"));

        assertThatThrownBy(() -> planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), n -> { }))
                .hasMessage("SQS said no")
                .satisfies(e -> assertThat(e.getSuppressed()).extracting(Throwable::getMessage).containsExactly("planning queue unreachable"));
        verify(runs).markEnqueueFailed("r1", 0, "SQS said no");
    }

    @Test
    void plan_withAPlanningQueueStillThrowsAFailureBeforeTheRunIsRecorded() {
        when(continuations.configured()).thenReturn(true);
        when(lister.page(SOURCE, null)).thenThrow(new IllegalStateException("S3 throttled"));

        assertThatThrownBy(() -> planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), n -> { }))
                .hasMessage("S3 throttled");
        verify(runs, never()).create(any(RunRecord.class));
        verify(continuations, never()).send(anyString());
    }

    @Test
    void plan_handsTheRestToAContinuationWhenLessThanTheMarginIsLeft() {
        when(lister.page(SOURCE, null)).thenReturn(listed(true, "logs/a.json"));
        AtomicLong checks = new AtomicLong();
        // enough time for the first page only
        RemainingTime remaining = () -> checks.incrementAndGet() <= 1 ? MARGIN_MS : MARGIN_MS - 1;

        PlanResult result = planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), n -> { }, remaining);

        assertThat(result.continued()).isTrue();
        assertThat(batchpipe.common.json.Json.parseObject(result.toJson())).containsEntry("continued", true);
        assertThat(result.plannedScan()).isEqualTo(1);
        verify(continuations).send("r1");
        verify(runs).advance(eq("r1"), eq(0L), argThat(c -> c.after().equals("logs/a.json") && c.sourcePlanned() == 1));
        verify(runs, never()).finishPlanning(anyString(), any(), anyLong());
    }

    @Test
    void resume_goesOnFromTheStoredCursorWithTheStoredSpecAndLayout() throws Exception {
        RunRecord stored = new RunRecord("r1", null, "{\"scan\":[{\"bucket\":\"bucket-a\",\"prefix\":\"logs/\"}]}", new batchpipe.common.run.Planned(0, 0, 0),
                0, NOW_MILLIS, "running", 0, null, null, List.of(), null, null, null, 3,
                new PlanCursor(4, 0, "logs/a.json", 1, 1, 0, 1, Map.of()));
        when(runs.read("r1")).thenReturn(stored.toItem());
        RunSpec.ScanSource source = new RunSpec.ScanSource("bucket-a", "logs/", null, null, List.of("level", "status"), null);
        when(lister.page(source, "logs/a.json")).thenReturn(listed(false, "logs/b.json"));

        PlanResult result = planner.resume("r1", RemainingTime.UNLIMITED);

        assertThat(publishedTasks()).extracting(Task::taskId).containsExactly(SCAN_B);
        assertThat(codecShard(publishedMessages().get(0))).isEqualTo(1);
        verify(runs).planPageShards(eq(batchpipe.common.table.RunPartitions.of("r1", 3)), eq(new ProgressShards.PageShards(1, 1)), any());
        verify(runs).advance(eq("r1"), eq(4L), any());
        assertThat(finishedAt()).isEqualTo(new PlanCursor(5, 1, null, 0, 2, 0, 2, Map.of()));
        assertThat(result.plannedScan()).isEqualTo(2);
        verify(lister, never()).checkListable(any());
    }

    private static int codecShard(TaskPublisher.Message message) {
        return ((Long) batchpipe.common.json.Json.parseObject(message.body()).get("shard")).intValue();
    }

    @Test
    void plan_stopsWithoutEndingPlanningWhenAnotherInvocationMovedTheCursorFirst() {
        when(lister.page(SOURCE, null)).thenReturn(listed(false, "logs/a.json"));
        when(runs.advance(anyString(), anyLong(), any())).thenReturn(false);

        PlanResult result = planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), n -> { });

        assertThat(result.continued()).isTrue();
        verify(runs, never()).finishPlanning(anyString(), any(), anyLong());
        verifyNoInteractions(continuations);
    }

    @Test
    void plan_announcesARunThatTheEndOfPlanningCompleted() {
        when(lister.page(SOURCE, null)).thenReturn(listed(false, "logs/a.json"));
        when(runs.finishPlanning(anyString(), any(), anyLong())).thenReturn(Map.of(
                "shards", AttributeValue.fromN("1"), "completeShards", AttributeValue.fromSs(List.of("0"))));

        planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), n -> { });

        verify(completions).announce("r1", null, NOW_MILLIS);
    }

    @Test
    void plan_announcesNothingWhileShardsAreStillOpen() {
        when(lister.page(SOURCE, null)).thenReturn(listed(false, "logs/a.json"));
        when(runs.finishPlanning(anyString(), any(), anyLong())).thenReturn(Map.of("shards", AttributeValue.fromN("1")));

        planner.plan(new RunSpec("r1", null, List.of(SOURCE), null), n -> { });

        verifyNoInteractions(completions);
    }
}
