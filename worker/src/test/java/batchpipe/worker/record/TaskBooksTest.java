package batchpipe.worker.record;

import batchpipe.common.run.HashOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.table.CallTimer;
import batchpipe.common.table.ProgressShards;
import batchpipe.common.table.RunPartitions;
import batchpipe.worker.task.WriteStats;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.withSettings;

/**
 * The table as the mocks see it: run r1 planned in {@code shards} progress shards. "hash-000001" belongs to
 * shard 1 of 3 (crc32 = 612,114,766) and to shard 0 of 1.
 */
class TaskBooksTest {
    private static final String TABLE = "tbl";
    private static final String COMPLETIONS = "https://sqs/completions";
    private static final String TASK = "hash-000001";

    private DynamoDbClient dynamoDb;
    private SqsClient sqs;
    private TaskBooks store;
    /** What a GetItem of each sort key answers. */
    private final Map<String, Map<String, AttributeValue>> items = new HashMap<>();
    /** What an UpdateItem of each sort key answers (ALL_NEW attributes), or null to fail its condition. */
    private final Map<String, Map<String, AttributeValue>> updates = new HashMap<>();

    @BeforeEach
    void setUp() {
        dynamoDb = mock(DynamoDbClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        sqs = mock(SqsClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        doAnswer(invocation -> {
            GetItemRequest request = invocation.getArgument(0);
            Map<String, AttributeValue> item = items.get(request.key().get("sk").s());
            return item == null ? GetItemResponse.builder().build() : GetItemResponse.builder().item(item).build();
        }).when(dynamoDb).getItem(any(GetItemRequest.class));
        doAnswer(invocation -> {
            UpdateItemRequest request = invocation.getArgument(0);
            String sk = request.key().get("sk").s();
            if (!updates.containsKey(sk) || updates.get(sk) == null) {
                throw ConditionalCheckFailedException.builder().message("The conditional request failed").build();
            }
            return UpdateItemResponse.builder().attributes(updates.get(sk)).build();
        }).when(dynamoDb).updateItem(any(UpdateItemRequest.class));
        doReturn(PutItemResponse.builder().build()).when(dynamoDb).putItem(any(PutItemRequest.class));
        doReturn(SendMessageResponse.builder().build()).when(sqs).sendMessage(any(SendMessageRequest.class));
        store = TaskBooks.of(dynamoDb, () -> sqs, TABLE, COMPLETIONS);
    }

    private void runWithShards(int shards) {
        items.put("run", Map.of("shards", AttributeValue.fromN(Integer.toString(shards))));
    }

    private static Map<String, AttributeValue> progress(long planned, String... counted) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("planned", AttributeValue.fromN(Long.toString(planned)));
        if (counted.length > 0) item.put("counted", AttributeValue.fromSs(List.of(counted)));
        return item;
    }

    private static Map<String, AttributeValue> completeShards(String... shards) {
        return Map.of("completeShards", AttributeValue.fromSs(List.of(shards)));
    }

    /** What the worker does with a count: announce the run when it is complete (at the end of its invocation). */
    private void countAndAnnounce(String runId, String taskId, TaskStatus status, CallTimer timer) {
        ProgressShards.Count count = store.count(runId, taskId, null, status, timer);
        if (count.runComplete()) store.announceCompletion(runId, taskId, count.completionClaimedBy(), timer);
    }

    private List<UpdateItemRequest> updateRequests(int calls) {
        ArgumentCaptor<UpdateItemRequest> captor = ArgumentCaptor.forClass(UpdateItemRequest.class);
        verify(dynamoDb, times(calls)).updateItem(captor.capture());
        return captor.getAllValues();
    }

    private static TaskRecord record(TaskStatus status) {
        return TaskRecord.builder().runId("r1").taskId(TASK).kind("hash").status(status).startedAt(1_000L).finishedAt(1_500L).attempt(1)
                .hash(new HashOutcome(3, 5)).build();
    }

    /** A stored task record with its status. */
    private static Map<String, AttributeValue> stored(String status) {
        return Map.of("runId", AttributeValue.fromS("r1"), "taskId", AttributeValue.fromS(TASK),
                "status", AttributeValue.fromS(status), "hashes", AttributeValue.fromN("3"));
    }

    // ---- find ----------------------------------------------------------------------------

    @Test
    void find_readsTheTaskRecordConsistently() {
        items.put("task#" + TASK, stored("done"));

        Optional<TaskRecord> found = store.records().find("r1", TASK, CallTimer.UNTIMED);

        assertThat(found).map(TaskRecord::status).contains(TaskStatus.DONE);
        assertThat(found).map(TaskRecord::hash).contains(new HashOutcome(3, 0));
        ArgumentCaptor<GetItemRequest> captor = ArgumentCaptor.forClass(GetItemRequest.class);
        verify(dynamoDb).getItem(captor.capture());
        assertThat(captor.getValue().tableName()).isEqualTo(TABLE);
        assertThat(captor.getValue().consistentRead()).isTrue();
        assertThat(captor.getValue().key()).isEqualTo(Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("task#" + TASK)));
    }

    @Test
    void find_ofATaskWithoutRecordIsEmpty() {
        assertThat(store.records().find("r1", TASK, CallTimer.UNTIMED)).isEmpty();
    }

    // ---- close --------------------------------------------------------------------------

    @Test
    void close_putsTheRecordOnlyIfNoneExistsAndCountsIt() {
        runWithShards(3);
        updates.put("progress#001", progress(5, TASK));
        WriteStats writes = new WriteStats();

        TaskBooks.Recorded recorded = store.close(record(TaskStatus.DONE), null, writes);

        assertThat(recorded.written()).isTrue();
        assertThat(recorded.status()).isEqualTo(TaskStatus.DONE);
        assertThat(recorded.count().runComplete()).isFalse();
        ArgumentCaptor<PutItemRequest> put = ArgumentCaptor.forClass(PutItemRequest.class);
        verify(dynamoDb).putItem(put.capture());
        assertThat(put.getValue().tableName()).isEqualTo(TABLE);
        assertThat(put.getValue().conditionExpression()).isEqualTo("attribute_not_exists(pk)");
        assertThat(put.getValue().item()).containsOnly(
                Map.entry("pk", AttributeValue.fromS("run#r1")),
                Map.entry("sk", AttributeValue.fromS("task#" + TASK)),
                Map.entry("runId", AttributeValue.fromS("r1")),
                Map.entry("taskId", AttributeValue.fromS(TASK)),
                Map.entry("kind", AttributeValue.fromS("hash")),
                Map.entry("status", AttributeValue.fromS("done")),
                Map.entry("startedAt", AttributeValue.fromN("1000")),
                Map.entry("finishedAt", AttributeValue.fromN("1500")),
                Map.entry("durationMs", AttributeValue.fromN("500")),
                Map.entry("attempt", AttributeValue.fromN("1")),
                Map.entry("hashes", AttributeValue.fromN("3")),
                Map.entry("cost", AttributeValue.fromN("5")));
        UpdateItemRequest count = updateRequests(1).get(0);
        assertThat(count.expressionAttributeNames()).isEqualTo(Map.of("#status", "done"));
        assertThat(writes.calls()).isEqualTo(2);
        verify(sqs, never()).sendMessage(any(SendMessageRequest.class));
    }

    @Test
    void close_afterAnEarlierDeliveryCountsWithTheStoredStatusAndNotTwice() {
        runWithShards(3);
        doThrow(ConditionalCheckFailedException.builder().message("exists").build()).when(dynamoDb).putItem(any(PutItemRequest.class));
        items.put("task#" + TASK, stored("failed"));
        updates.put("progress#001", null);                       // already counted: the condition fails
        items.put("progress#001", progress(5, TASK, "hash-000004"));

        TaskBooks.Recorded recorded = store.close(record(TaskStatus.DONE), null, new WriteStats());

        assertThat(recorded.written()).isFalse();
        assertThat(recorded.status()).isEqualTo(TaskStatus.FAILED);
        UpdateItemRequest count = updateRequests(1).get(0);
        assertThat(count.expressionAttributeNames()).isEqualTo(Map.of("#status", "failed"));
        assertThat(count.conditionExpression()).isEqualTo("attribute_exists(pk) AND NOT contains(counted, :taskId)");
        verify(sqs, never()).sendMessage(any(SendMessageRequest.class));
    }

    // ---- count ----------------------------------------------------------------------------

    @Test
    void count_addsTheTaskToItsShardWithAConditionThatItIsNotThereYet() {
        runWithShards(3);
        updates.put("progress#001", progress(5, TASK));

        countAndAnnounce("r1", TASK, TaskStatus.DONE, new WriteStats());

        UpdateItemRequest request = updateRequests(1).get(0);
        assertThat(request.tableName()).isEqualTo(TABLE);
        assertThat(request.key()).isEqualTo(Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("progress#001")));
        assertThat(request.updateExpression()).isEqualTo("ADD counted :id, #status :one");
        assertThat(request.conditionExpression()).isEqualTo("attribute_exists(pk) AND NOT contains(counted, :taskId)");
        assertThat(request.expressionAttributeNames()).isEqualTo(Map.of("#status", "done"));
        assertThat(request.expressionAttributeValues()).isEqualTo(Map.of(
                ":id", AttributeValue.fromSs(List.of(TASK)),
                ":taskId", AttributeValue.fromS(TASK),
                ":one", AttributeValue.fromN("1")));
        assertThat(request.returnValues()).isEqualTo(ReturnValue.ALL_NEW);
    }

    @Test
    void count_doesNothingMoreWhileTheShardIsIncomplete() {
        runWithShards(3);
        updates.put("progress#001", progress(5, "hash-000004", TASK));

        countAndAnnounce("r1", TASK, TaskStatus.DONE, new WriteStats());

        updateRequests(1);
        verify(sqs, never()).sendMessage(any(SendMessageRequest.class));
    }

    @Test
    void count_marksTheShardCompleteButWaitsForTheOtherShards() {
        runWithShards(3);
        updates.put("progress#001", progress(2, "hash-000004", TASK));
        updates.put("run", completeShards("0", "1"));

        countAndAnnounce("r1", TASK, TaskStatus.DONE, new WriteStats());

        UpdateItemRequest run = updateRequests(2).get(1);
        assertThat(run.key()).isEqualTo(Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("run")));
        assertThat(run.updateExpression()).isEqualTo("ADD completeShards :shard");
        assertThat(run.expressionAttributeValues()).isEqualTo(Map.of(":shard", AttributeValue.fromSs(List.of("1"))));
        assertThat(run.returnValues()).isEqualTo(ReturnValue.ALL_NEW);
        verify(sqs, never()).sendMessage(any(SendMessageRequest.class));
    }

    @Test
    void count_sendsTheCompletionWhenTheLastShardCompletes() {
        runWithShards(3);
        updates.put("progress#001", progress(2, "hash-000004", TASK));
        updates.put("run", completeShards("0", "1", "2"));

        countAndAnnounce("r1", TASK, TaskStatus.REJECTED, new WriteStats());

        ArgumentCaptor<SendMessageRequest> captor = ArgumentCaptor.forClass(SendMessageRequest.class);
        verify(sqs).sendMessage(captor.capture());
        assertThat(captor.getValue().queueUrl()).isEqualTo(COMPLETIONS);
        assertThat(captor.getValue().messageBody()).isEqualTo("{\"runId\":\"r1\"}");
    }

    @Test
    void count_withOneShardCompletesTheRunWithTheLastTask() {
        runWithShards(1);
        updates.put("progress#000", progress(1, TASK));
        updates.put("run", completeShards("0"));
        WriteStats writes = new WriteStats();

        countAndAnnounce("r1", TASK, TaskStatus.DONE, writes);

        assertThat(updateRequests(3).get(0).key().get("sk")).isEqualTo(AttributeValue.fromS("progress#000"));
        verify(sqs).sendMessage(any(SendMessageRequest.class));
        assertThat(writes.calls()).isEqualTo(3);
    }

    @Test
    void count_ofAnAlreadyCountedTaskInAnUnfinishedShardChangesNothing() {
        runWithShards(3);
        updates.put("progress#001", null);
        items.put("progress#001", progress(5, TASK));

        countAndAnnounce("r1", TASK, TaskStatus.DONE, new WriteStats());

        updateRequests(1);
        verify(sqs, never()).sendMessage(any(SendMessageRequest.class));
    }

    @Test
    void count_withoutRunRecordFailsRatherThanAcknowledgeAnUncountedTask() {
        // Regression: this used to log a warning and return, so the worker deleted the message of a task
        // that was recorded but never counted, and its run could never complete.
        assertThatThrownBy(() -> countAndAnnounce("r1", TASK, TaskStatus.DONE, new WriteStats()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("run r1 has no run record");

        verify(dynamoDb, never()).updateItem(any(UpdateItemRequest.class));
        verify(sqs, never()).sendMessage(any(SendMessageRequest.class));
    }

    @Test
    void count_withoutProgressShardFailsRatherThanAcknowledgeAnUncountedTask() {
        runWithShards(3);

        assertThatThrownBy(() -> countAndAnnounce("r1", TASK, TaskStatus.DONE, new WriteStats()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no progress shard 1");

        updateRequests(1);
        verify(sqs, never()).sendMessage(any(SendMessageRequest.class));
    }

    @Test
    void count_lateDuplicateOfACompletedRunDoesNotNotifyAgain() {
        runWithShards(1);
        updates.put("progress#000", null);                       // already counted
        items.put("progress#000", progress(1, TASK));
        Map<String, AttributeValue> run = new HashMap<>(completeShards("0"));
        run.put("completionSentBy", AttributeValue.fromS("hash-000007"));
        updates.put("run", run);

        countAndAnnounce("r1", TASK, TaskStatus.DONE, new WriteStats());

        verify(sqs, never()).sendMessage(any(SendMessageRequest.class));
        assertThat(updateRequests(2)).extracting(r -> r.key().get("sk").s()).containsExactly("progress#000", "run");
    }

    @Test
    void count_claimsTheRunsCompletionBeforeSendingIt() {
        runWithShards(1);
        updates.put("progress#000", progress(1, TASK));
        updates.put("run", completeShards("0"));

        countAndAnnounce("r1", TASK, TaskStatus.DONE, new WriteStats());

        verify(sqs).sendMessage(any(SendMessageRequest.class));
        UpdateItemRequest claim = updateRequests(3).get(2);
        assertThat(claim.key().get("sk").s()).isEqualTo("run");
        assertThat(claim.updateExpression()).isEqualTo("SET completionSentBy = :task, completionSentAt = if_not_exists(completionSentAt, :now)");
        assertThat(claim.conditionExpression()).isEqualTo("attribute_not_exists(completionSentBy) OR completionSentBy = :task");
        assertThat(claim.expressionAttributeValues()).containsEntry(":task", AttributeValue.fromS(TASK));
    }

    @Test
    void count_sendsNothingWhenAnotherTaskClaimedTheCompletionAtTheSameMoment() {
        runWithShards(1);
        updates.put("progress#000", progress(1, TASK));
        updates.put("run", completeShards("0"));
        doAnswer(call -> {
            UpdateItemRequest request = call.getArgument(0);
            if (request.conditionExpression() != null && request.conditionExpression().startsWith("attribute_not_exists(completionSentBy)")) {
                throw ConditionalCheckFailedException.builder().message("claimed").build();
            }
            String sk = request.key().get("sk").s();
            return UpdateItemResponse.builder().attributes(updates.get(sk)).build();
        }).when(dynamoDb).updateItem(any(UpdateItemRequest.class));

        countAndAnnounce("r1", TASK, TaskStatus.DONE, new WriteStats());

        verify(sqs, never()).sendMessage(any(SendMessageRequest.class));
    }

    @Test
    void count_aRedeliveryOfTheClaimingTaskSendsAgain() {
        // The claim was written, then the instance died before sending: the same task's next delivery
        // (or the dead-letter recorder, under the same id) must still send.
        runWithShards(1);
        updates.put("progress#000", null);
        items.put("progress#000", progress(1, TASK));
        Map<String, AttributeValue> run = new HashMap<>(completeShards("0"));
        run.put("completionSentBy", AttributeValue.fromS(TASK));
        updates.put("run", run);

        countAndAnnounce("r1", TASK, TaskStatus.DONE, new WriteStats());

        verify(sqs).sendMessage(any(SendMessageRequest.class));
    }

    @Test
    void runExists_isFalseWithoutRunRecord() {
        assertThat(store.runExists("r1", CallTimer.UNTIMED)).isFalse();
        runWithShards(2);
        assertThat(store.runExists("r1", CallTimer.UNTIMED)).isTrue();
    }

    @Test
    void recordAttemptError_keepsTheLastErrorBesideTheTaskAndItReadsBack() {
        store.records().recordAttemptError("r1", TASK, 2, "IOException: reset", 1_000L, CallTimer.UNTIMED);

        ArgumentCaptor<PutItemRequest> put = ArgumentCaptor.forClass(PutItemRequest.class);
        verify(dynamoDb).putItem(put.capture());
        assertThat(put.getValue().item()).containsEntry("sk", AttributeValue.fromS("attempt#" + TASK))
                .containsEntry("attempt", AttributeValue.fromN("2")).containsEntry("error", AttributeValue.fromS("IOException: reset"));
        items.put("attempt#" + TASK, put.getValue().item());
        assertThat(store.records().lastAttemptError("r1", TASK)).contains("attempt 2: IOException: reset");
    }

    @Test
    void markDeadLettered_setsTheMarkOnlyOnAnExistingRecordAndKeepsTheFirstTime() {
        updates.put("task#" + TASK, Map.of());

        store.records().markDeadLettered("r1", TASK, 6, 5_000L);

        UpdateItemRequest mark = updateRequests(1).get(0);
        assertThat(mark.conditionExpression()).isEqualTo("attribute_exists(pk)");
        assertThat(mark.updateExpression()).isEqualTo("SET deadLetteredAt = if_not_exists(deadLetteredAt, :at), deadLetterReceives = :receives");
    }

    @Test
    void count_readsTheShardCountOfARunOnce() {
        runWithShards(3);
        updates.put("progress#001", progress(5, TASK));

        countAndAnnounce("r1", TASK, TaskStatus.DONE, new WriteStats());
        countAndAnnounce("r1", TASK, TaskStatus.DONE, new WriteStats());

        ArgumentCaptor<GetItemRequest> captor = ArgumentCaptor.forClass(GetItemRequest.class);
        verify(dynamoDb, times(1)).getItem(captor.capture());
        assertThat(captor.getValue().key().get("sk")).isEqualTo(AttributeValue.fromS("run"));
        assertThat(captor.getValue().projectionExpression()).isEqualTo("#runId, #shards, #partitions");
        assertThat(captor.getValue().expressionAttributeNames()).containsEntry("#partitions", "partitions");
        assertThat(captor.getValue().consistentRead()).isTrue();
    }

    // ---- partitioned runs -------------------------------------------------------------------

    @Test
    void close_ofAPartitionedRunPutsTheRecordOnItsTasksKeyAndCountsItInTheShardItsMessageNames() {
        items.put("run", Map.of("partitions", AttributeValue.fromN("4")));
        updates.put("progress#007", progress(5, TASK));

        store.close(record(TaskStatus.DONE), 7, new WriteStats());

        ArgumentCaptor<PutItemRequest> put = ArgumentCaptor.forClass(PutItemRequest.class);
        verify(dynamoDb).putItem(put.capture());
        RunPartitions layout = RunPartitions.of("r1", 4);
        assertThat(put.getValue().item().get("pk")).isEqualTo(AttributeValue.fromS(layout.taskPk(TASK)));
        assertThat(put.getValue().item()).as("the record names the shard that counted it, not the id's hash (shard 1 of 3)")
                .containsEntry("progressShard", AttributeValue.fromN("7"));
        assertThat(TaskRecord.fromItem(put.getValue().item()).progressShardOr(3)).isEqualTo(7);
        assertThat(updateRequests(1).get(0).key()).isEqualTo(layout.progressKey(7));
    }

    @Test
    void count_ofAPartitionedRunIsNotCompleteUntilItsPlanningHasSetTheShardCount() {
        items.put("run", Map.of("partitions", AttributeValue.fromN("2")));
        updates.put("progress#000", progress(1, TASK));
        updates.put("run", completeShards("0")); // the run record while planning: no shard count yet

        assertThat(store.count("r1", TASK, 0, TaskStatus.DONE, new WriteStats()).runComplete()).isFalse();

        updates.put("run", Map.of("shards", AttributeValue.fromN("1"), "completeShards", AttributeValue.fromSs(List.of("0"))));
        assertThat(store.count("r1", TASK, 0, TaskStatus.DONE, new WriteStats()).runComplete()).isTrue();
    }

    @Test
    void count_ofAPartitionedRunsTaskWhoseMessageNamesNoShardFailsRatherThanGuess() {
        items.put("run", Map.of("partitions", AttributeValue.fromN("2")));

        assertThatThrownBy(() -> store.count("r1", TASK, null, TaskStatus.DONE, new WriteStats()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("names no progress shard");
    }
}
