package batchpipe.local.it;

import batchpipe.common.json.Json;
import batchpipe.common.run.PlanResult;
import batchpipe.common.run.RunRecord;
import batchpipe.common.spec.RunSpec;
import batchpipe.common.spec.RunSpecParser;
import batchpipe.common.table.ProgressShards;
import batchpipe.common.table.RunPartition;
import batchpipe.common.table.TableKeys;
import batchpipe.common.task.TaskIds;
import batchpipe.common.task.TaskLimits;
import batchpipe.local.stack.LocalStack;
import batchpipe.producer.RunPlanner;
import batchpipe.producer.enqueue.PlanningContinuations;
import batchpipe.producer.plan.RemainingTime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sqs.model.Message;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Planning that spans invocations, against the local emulators: a prefix of 10,000 keys (10 listing
 * pages) planned with a remaining-time budget of two pages an invocation, so the producer hands over
 * to continuations on the planning queue several times; one continuation dies after sending a page and
 * before moving the cursor past it, and its redelivery goes on from the same cursor. Every key must be
 * planned exactly once: in one progress shard, whose planned count includes it once.
 */
class PlanningContinuationIT {
    /**
     * Enough keys for 10 listing pages, and for the run's layout to settle at its rate-bound 17 partitions
     * before listing ends (at 1,308 scans). It was 30,000 (30 pages at 6 an invocation): 150 s of the suite,
     * 36 s writing the objects into S3Proxy and 104 s planning them, for the same continuations and crash.
     */
    private static final int OBJECTS = 10_000;
    /** Checks of the remaining time each invocation may pass: two pages. */
    private static final int PAGES_PER_INVOCATION = 2;
    private static final long MARGIN_MS = 1_000;
    private static LocalStack stack;

    @BeforeAll
    static void start() throws Exception {
        stack = PlanningFixture.startWithObjects("planit", "big/", OBJECTS);
    }

    @AfterAll
    static void stop() {
        if (stack != null) stack.close();
    }

    private static String key(int i) {
        return PlanningFixture.key("big/", i);
    }

    /** A fresh invocation's clock: plenty of time for {@code pages} checks, then less than the margin. */
    private static RemainingTime budget(int pages) {
        AtomicInteger checks = new AtomicInteger();
        return () -> checks.incrementAndGet() <= pages ? 60_000 : MARGIN_MS - 1;
    }

    private static RunPlanner planner(DynamoDbClient dynamoDb) {
        return PlanningFixture.planner(stack, dynamoDb, MARGIN_MS);
    }

    /**
     * The stack's DynamoDB client, except that the cursor's move past a page fails once when {@code crash}
     * is set: an invocation that dies after sending a page's tasks.
     */
    private static DynamoDbClient crashingOnce(AtomicBoolean crash) {
        return PlanningFixture.failingCursorMove(stack,
                move -> crash.compareAndSet(true, false) ? new IllegalStateException("the invocation died after sending a page") : null);
    }

    @Test
    void aPrefixPlannedOverSeveralInvocationsWithACrashBetweenSendAndCursorPlansEveryKeyExactlyOnce() throws Exception {
        String specText = "{\"runId\":\"continued\",\"scan\":[{\"bucket\":\"" + stack.ref("DataBucket") + "\",\"prefix\":\"big/\"}]}";
        RunSpec spec = new RunSpecParser(TaskLimits.defaults()).parse(specText);
        AtomicBoolean crash = new AtomicBoolean();
        RunPlanner planner = planner(crashingOnce(crash));

        PlanResult first = planner.plan(spec, n -> { }, budget(PAGES_PER_INVOCATION));
        assertThat(first.continued()).isTrue();

        String planningQueue = stack.ref("PlanningQueue");
        int continuations = 0;
        int crashes = 0;
        for (int round = 0; round < 100; round++) {
            List<Message> received = stack.sqs().receiveMessage(b -> b.queueUrl(planningQueue).maxNumberOfMessages(1).waitTimeSeconds(1)
                    .visibilityTimeout(60)).messages();
            if (received.isEmpty()) break;
            Message continuation = received.get(0);
            assertThat(PlanningContinuations.runIdOf(continuation.body())).isEqualTo("continued");
            continuations++;
            crash.set(continuations == 2); // the second continuation dies once, mid-page
            try {
                planner.resume("continued", budget(PAGES_PER_INVOCATION));
            } catch (IllegalStateException died) {
                assertThat(died).hasMessage("the invocation died after sending a page");
                crashes++;
                // SQS would deliver it again after its visibility timeout; the test does not wait for that
                stack.sqs().changeMessageVisibility(b -> b.queueUrl(planningQueue).receiptHandle(continuation.receiptHandle()).visibilityTimeout(0));
                continue;
            }
            stack.sqs().deleteMessage(b -> b.queueUrl(planningQueue).receiptHandle(continuation.receiptHandle()));
        }

        assertThat(crashes).isEqualTo(1);
        assertThat(continuations - crashes).as("continuations that went on planning").isGreaterThanOrEqualTo(3);
        String table = stack.ref("RunsTable");
        RunRecord run = RunRecord.fromItem(RunPartition.runItem(stack.dynamoDb(), table, "continued"));
        assertThat(run.planning()).as("planning has ended").isNull();
        assertThat(run.planned().scan()).isEqualTo(OBJECTS);
        assertThat(run.enqueued()).isEqualTo((long) OBJECTS);
        assertThat(run.partitions()).isEqualTo(17);

        Map<Integer, Long> plannedByShard = new HashMap<>();
        for (Map<String, AttributeValue> item : RunPartition.items(stack.dynamoDb(), table, run.layout(), TableKeys.PROGRESS_PREFIX)) {
            int shard = Integer.parseInt(item.get(TableKeys.SK).s().substring(TableKeys.PROGRESS_PREFIX.length()));
            assertThat(item.get(TableKeys.PK).s()).isEqualTo(run.layout().progressPk(shard));
            plannedByShard.put(shard, ProgressShards.Shard.fromItem(item).planned());
        }
        assertThat(plannedByShard).hasSize(run.shards());
        assertThat(plannedByShard.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(OBJECTS);

        Map<String, Set<Integer>> shardsOfTask = drainTasks();
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < OBJECTS; i++) expected.add(TaskIds.scanTaskId("continued", stack.ref("DataBucket"), key(i)));
        assertThat(shardsOfTask.keySet()).isEqualTo(expected);
        assertThat(shardsOfTask.values()).as("a task re-sent after the crash names the same shard").allSatisfy(s -> assertThat(s).hasSize(1));
        Map<Integer, Long> tasksByShard = new HashMap<>();
        shardsOfTask.values().forEach(s -> tasksByShard.merge(s.iterator().next(), 1L, Long::sum));
        assertThat(tasksByShard).as("each shard's planned count is the number of distinct tasks naming it").isEqualTo(plannedByShard);

        // A continuation delivered again after planning ended changes nothing.
        PlanResult late = planner.resume("continued", budget(PAGES_PER_INVOCATION));
        assertThat(late.plannedScan()).isEqualTo(OBJECTS);
        assertThat(RunRecord.fromItem(RunPartition.runItem(stack.dynamoDb(), table, "continued"))).isEqualTo(run);
        assertThatThrownBy(() -> planner.resume("no-such-run", RemainingTime.UNLIMITED)).hasMessageContaining("no run record");
    }

    /** Every task message on the queue (left in flight, never deleted): the shards each task id's messages name. */
    private static Map<String, Set<Integer>> drainTasks() throws Exception {
        String tasks = stack.ref("TasksQueue");
        Map<String, Set<Integer>> shardsOfTask = new ConcurrentHashMap<>();
        AtomicInteger emptyReceives = new AtomicInteger();
        List<Future<?>> drains = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(4)) {
            for (int t = 0; t < 4; t++) {
                drains.add(threads.submit(() -> {
                    while (emptyReceives.get() < 8) {
                        List<Message> messages = stack.sqs().receiveMessage(b -> b.queueUrl(tasks).maxNumberOfMessages(10).waitTimeSeconds(1)
                                .visibilityTimeout(3_600)).messages();
                        if (messages.isEmpty()) {
                            emptyReceives.incrementAndGet();
                            continue;
                        }
                        for (Message m : messages) {
                            Map<String, Object> body = Json.parseObject(m.body());
                            shardsOfTask.computeIfAbsent((String) body.get("taskId"), id -> ConcurrentHashMap.newKeySet())
                                    .add(((Long) body.get("shard")).intValue());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> drain : drains) drain.get();
        }
        return shardsOfTask;
    }
}
