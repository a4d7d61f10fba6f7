package batchpipe.local.it;

import batchpipe.common.json.Json;
import batchpipe.common.run.PlanResult;
import batchpipe.common.run.RunRecord;
import batchpipe.common.spec.RunSpec;
import batchpipe.common.spec.RunSpecParser;
import batchpipe.common.table.RunPartition;
import batchpipe.common.table.TableKeys;
import batchpipe.common.task.TaskIds;
import batchpipe.common.task.TaskLimits;
import batchpipe.local.stack.LocalStack;
import batchpipe.producer.RunPlanner;
import batchpipe.producer.plan.RemainingTime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sqs.model.Message;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A scheduled (asynchronous) producer invocation that dies hard after recording its run, as out of
 * memory or a timeout would, nothing catching it: Lambda retries it with the same request id, and the
 * retry must go on with the run the first attempt recorded, from its cursor, not plan a second run. On
 * the local emulators: a prefix of 2,500 keys (3 listing pages), the first attempt dying after sending
 * its second page and before moving the cursor past it.
 */
class PlanningRetryIT {
    private static final int OBJECTS = 2_500;
    private static LocalStack stack;

    /** Not an exception that planning catches and hands over: the JVM's end, as an attempt that runs out of memory sees it. */
    private static final class AttemptDied extends Error {
        AttemptDied() {
            super("the attempt died after sending a page");
        }
    }

    @BeforeAll
    static void start() throws Exception {
        stack = PlanningFixture.startWithObjects("planretry", "sched/", OBJECTS);
    }

    @AfterAll
    static void stop() {
        if (stack != null) stack.close();
    }

    private static RunPlanner planner(DynamoDbClient dynamoDb) {
        return PlanningFixture.planner(stack, dynamoDb, 1_000);
    }

    /** The stack's DynamoDB client, except that the cursor's {@code dieAt}-th move past a page kills the attempt. */
    private static DynamoDbClient dyingAtCursorMove(int dieAt) {
        return PlanningFixture.failingCursorMove(stack, move -> move == dieAt ? new AttemptDied() : null);
    }

    @Test
    void aRetryOfAnInvocationThatDiedAfterRecordingItsRunGoesOnWithThatRunAndPlansEveryKeyOnce() throws Exception {
        RunSpec spec = new RunSpecParser(TaskLimits.defaults()).parse("{\"label\":\"nightly\",\"scan\":[{\"bucket\":\""
                + stack.ref("DataBucket") + "\",\"prefix\":\"sched/\"}]}");
        String requestId = "8f0e4f6e-5b1a-4c1e-9d55-0c2f1f3a7b21";

        assertThatThrownBy(() -> planner(dyingAtCursorMove(2)).plan(spec, n -> { }, RemainingTime.UNLIMITED, requestId))
                .isInstanceOf(AttemptDied.class);

        PlanResult retry = planner(stack.dynamoDb()).plan(spec, n -> { }, RemainingTime.UNLIMITED, requestId);

        String table = stack.ref("RunsTable");
        Map<String, AttributeValue> claim = stack.dynamoDb().getItem(b -> b.tableName(table).consistentRead(true)
                .key(TableKeys.itemKey("invocation#" + requestId, "producer"))).item();
        assertThat(claim).as("the invocation's claim on its run id").containsKey("runId");
        String runId = claim.get("runId").s();
        assertThat(retry.runId()).as("the retry went on with the first attempt's run").isEqualTo(runId);
        RunRecord run = RunRecord.fromItem(RunPartition.runItem(stack.dynamoDb(), table, runId));
        assertThat(run.planning()).as("planning has ended").isNull();
        assertThat(run.planned().scan()).isEqualTo(OBJECTS);
        assertThat(run.enqueued()).isEqualTo((long) OBJECTS);

        Map<String, Set<String>> runsOfTask = drainTasks();
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < OBJECTS; i++) {
            expected.add(TaskIds.scanTaskId(runId, stack.ref("DataBucket"), PlanningFixture.key("sched/", i)));
        }
        assertThat(runsOfTask.keySet()).as("every key planned, in the first attempt's run").isEqualTo(expected);
        assertThat(runsOfTask.values()).as("no task of a second run").allSatisfy(runs -> assertThat(runs).containsExactly(runId));

        // Lambda's third attempt (or a duplicate delivery) after planning ended changes nothing.
        PlanResult again = planner(stack.dynamoDb()).plan(spec, n -> { }, RemainingTime.UNLIMITED, requestId);
        assertThat(again.runId()).isEqualTo(runId);
        assertThat(again.plannedScan()).isEqualTo(OBJECTS);
        assertThat(RunRecord.fromItem(RunPartition.runItem(stack.dynamoDb(), table, runId))).isEqualTo(run);
    }

    /** Every task message on the queue, deleted: the run ids each task id's messages name. */
    private static Map<String, Set<String>> drainTasks() {
        String tasks = stack.ref("TasksQueue");
        Map<String, Set<String>> runsOfTask = new HashMap<>();
        int emptyReceives = 0;
        while (emptyReceives < 3) {
            List<Message> messages = stack.sqs().receiveMessage(b -> b.queueUrl(tasks).maxNumberOfMessages(10).waitTimeSeconds(1)).messages();
            if (messages.isEmpty()) {
                emptyReceives++;
                continue;
            }
            for (Message m : messages) {
                Map<String, Object> body = Json.parseObject(m.body());
                runsOfTask.computeIfAbsent((String) body.get("taskId"), id -> new HashSet<>()).add((String) body.get("runId"));
                stack.sqs().deleteMessage(b -> b.queueUrl(tasks).receiptHandle(m.receiptHandle()));
            }
        }
        return runsOfTask;
    }
}
