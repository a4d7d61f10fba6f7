package batchpipe.local.it;

import batchpipe.common.json.Json;
import batchpipe.common.run.RunRecord;
import batchpipe.common.table.RunPartition;
import batchpipe.common.table.TableKeys;
import batchpipe.common.task.TaskCodec;
import batchpipe.common.task.TaskIds;
import batchpipe.common.task.TaskLimits;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import batchpipe.producer.RunPlanner;
import batchpipe.producer.enqueue.PlanningContinuations;
import batchpipe.producer.enqueue.TaskPublisher;
import batchpipe.producer.listing.ObjectLister;
import batchpipe.producer.plan.RemainingTime;
import batchpipe.producer.run.CompletionNotice;
import batchpipe.producer.run.RunStore;
import batchpipe.producer.spec.RunSpec;
import batchpipe.producer.spec.RunSpecParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.sqs.model.Message;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

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
        stack = LocalStack.start(ProjectHome.find(), StackTemplate.load(ProjectHome.find().resolve("template.yaml"), Map.of()),
                "planretry", LocalStack.Ports.free());
        stack.useForThisProcess();
        String bucket = stack.ref("DataBucket");
        List<Future<?>> puts = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(16)) {
            for (int i = 0; i < OBJECTS; i++) {
                String key = String.format(Locale.ROOT, "sched/part-%05d.jsonl", i);
                puts.add(threads.submit(() -> stack.s3().putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("{}\n"))));
            }
            for (Future<?> put : puts) put.get();
        }
    }

    @AfterAll
    static void stop() {
        if (stack != null) stack.close();
    }

    private static RunPlanner planner(DynamoDbClient dynamoDb) {
        RunStore runs = new RunStore(dynamoDb, stack.ref("RunsTable"));
        return new RunPlanner(new ObjectLister(stack.s3()), runs, new TaskPublisher(stack.sqs(), stack.ref("TasksQueue"), 8, 8, 50),
                new TaskCodec(TaskLimits.defaults()), new PlanningContinuations(stack.sqs(), stack.ref("PlanningQueue")),
                new CompletionNotice(runs, stack.sqs(), stack.ref("CompletionsQueue")), 5, 1_000, Clock.systemUTC());
    }

    /** The stack's DynamoDB client, except that the cursor's {@code dieAt}-th move past a page kills the attempt. */
    private static DynamoDbClient dyingAtCursorMove(int dieAt) {
        DynamoDbClient real = stack.dynamoDb();
        AtomicInteger moves = new AtomicInteger();
        return (DynamoDbClient) Proxy.newProxyInstance(DynamoDbClient.class.getClassLoader(), new Class<?>[]{DynamoDbClient.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("updateItem") && args != null && args[0] instanceof Consumer<?> build) {
                        UpdateItemRequest.Builder builder = UpdateItemRequest.builder();
                        @SuppressWarnings("unchecked") Consumer<UpdateItemRequest.Builder> b = (Consumer<UpdateItemRequest.Builder>) build;
                        b.accept(builder);
                        UpdateItemRequest request = builder.build();
                        if (request.updateExpression().equals("SET #planning = :next") && moves.incrementAndGet() == dieAt) {
                            throw new AttemptDied();
                        }
                        return real.updateItem(request);
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void aRetryOfAnInvocationThatDiedAfterRecordingItsRunGoesOnWithThatRunAndPlansEveryKeyOnce() throws Exception {
        Map<String, Object> specJson = Json.parseObject("{\"label\":\"nightly\",\"scan\":[{\"bucket\":\"" + stack.ref("DataBucket")
                + "\",\"prefix\":\"sched/\"}]}");
        RunSpec spec = new RunSpecParser(TaskLimits.defaults()).parse(specJson);
        String requestId = "8f0e4f6e-5b1a-4c1e-9d55-0c2f1f3a7b21";

        assertThatThrownBy(() -> planner(dyingAtCursorMove(2)).plan(spec, specJson, n -> { }, RemainingTime.UNLIMITED, requestId))
                .isInstanceOf(AttemptDied.class);

        RunPlanner.PlanResult retry = planner(stack.dynamoDb()).plan(spec, specJson, n -> { }, RemainingTime.UNLIMITED, requestId);

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
            expected.add(TaskIds.scanTaskId(runId, stack.ref("DataBucket"), String.format(Locale.ROOT, "sched/part-%05d.jsonl", i)));
        }
        assertThat(runsOfTask.keySet()).as("every key planned, in the first attempt's run").isEqualTo(expected);
        assertThat(runsOfTask.values()).as("no task of a second run").allSatisfy(runs -> assertThat(runs).containsExactly(runId));

        // Lambda's third attempt (or a duplicate delivery) after planning ended changes nothing.
        RunPlanner.PlanResult again = planner(stack.dynamoDb()).plan(spec, specJson, n -> { }, RemainingTime.UNLIMITED, requestId);
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
