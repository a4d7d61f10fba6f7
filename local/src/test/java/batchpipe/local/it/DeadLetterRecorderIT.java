package batchpipe.local.it;

import batchpipe.common.json.Json;
import batchpipe.common.table.RunPartition;
import batchpipe.common.table.TableKeys;
import batchpipe.local.chaos.Books;
import batchpipe.local.chaos.Chaos;
import batchpipe.local.chaos.ChaosStackSettings;
import batchpipe.local.demo.Demo;
import batchpipe.local.run.RunWatcher;
import batchpipe.local.runtime.InvocationResult;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.sample.SampleData;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.SharedEmulators;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The losses the reliability audit found, each against the real emulators and the in-process runtime:
 * a task that dies on every delivery, a task recorded but never counted on its last receive, and
 * messages that belong to no run. Before the dead-letter recorder each of these left its run stalled
 * for ever (or a poison message circling).
 */
class DeadLetterRecorderIT {
    private static final PrintStream NOWHERE = new PrintStream(OutputStream.nullOutputStream());

    @TempDir
    Path out;

    @AfterEach
    void calmDown() {
        Chaos.deactivate();
    }

    /** The chaos demo's rule-keeping settings, with a 2 s worker timeout and 3 receives so a dead letter comes within 30 s. */
    private static StackTemplate chaosTemplate(boolean oneTaskPerBatch) throws Exception {
        return StackTemplate.load(ProjectHome.find().resolve("template.yaml"),
                ChaosStackSettings.parameterOverrides(Map.of("WorkerTimeout", "2", "MaxReceiveCount", "3"), oneTaskPerBatch));
    }

    @Test
    void taskKilledOnEveryDelivery_endsFailedThroughTheDeadLetterRecorderAndItsRunCompletes() throws Exception {
        try (LocalStack stack = SharedEmulators.stack(chaosTemplate(true), "dlrkill")) {
            stack.useForThisProcess();
            Chaos.activate(Set.of(), 0, 1, false, "hash-000002");
            Demo.Outcome outcome;
            PrintStream stdout = System.out;
            System.setOut(NOWHERE);
            try (LocalPipeline pipeline = LocalPipeline.start(stack, NOWHERE, true)) {
                outcome = new Demo(pipeline).run(Demo.Settings.builder().objects(2).linesPerObject(500).hashBatches(3)
                        .hashBatchSize(3).hashCost(4).seed(3).outDir(out).writeReports(false).timeout(Duration.ofMinutes(5)).build(),
                        (done, total) -> { });
            } finally {
                System.setOut(stdout);
            }
            Books.Audit audit = Books.audit(stack, outcome.runId());

            assertThat(audit.problems()).isEmpty();
            assertThat(audit.recordsByStatus()).containsEntry("failed", 1L).containsEntry("done", 4L);
            Books.TaskBooks killed = audit.tasks().stream().filter(t -> t.taskId().equals("hash-000002")).findFirst().orElseThrow();
            assertThat(killed).isEqualTo(new Books.TaskBooks("hash-000002", true, 1, 1, "failed", true));
            Map<String, AttributeValue> record = taskRecord(stack, outcome.runId(), "hash-000002");
            assertThat(record.get("reason").s()).startsWith("reached the dead-letter queue (SQS receive count ")
                    .contains("no delivery recorded an error");
            assertThat(outcome.report().figures().status()).isEqualTo("complete");
            assertThat(outcome.report().figures().problems()).extracting(p -> p.taskId()).contains("hash-000002");
        }
    }

    @Test
    void taskRecordedButNeverCountedOnItsLastReceive_isCountedByTheDeadLetterRecorderAndItsRunCompletes() throws Exception {
        try (LocalStack stack = SharedEmulators.stack(chaosTemplate(false), "dlrcount")) {
            stack.useForThisProcess();
            String runId;
            String bucket = stack.ref("DataBucket");
            SampleData.seed(stack.s3(), bucket, 1, 200, 5);
            try (LocalPipeline functionsOnly = LocalPipeline.start(stack, NOWHERE, false)) {
                String spec = "{\"label\":\"recorded-not-counted\",\"scan\":[{\"bucket\":\"" + bucket + "\",\"prefix\":\"" + SampleData.PREFIX
                        + "\"}],\"hash\":{\"batches\":1,\"batchSize\":2,\"cost\":4}}";
                InvocationResult planned = functionsOnly.runtime().invoke("ProducerFunction", spec.getBytes(StandardCharsets.UTF_8));
                assertThat(planned.failed()).as(planned.response()).isFalse();
                runId = (String) Json.parseObject(planned.response()).get("runId");
            }
            // What a worker whose last receive wrote the record of the scan task and then died leaves behind:
            // the record, no count, and the message moved to the dead-letter queue by SQS's redrive.
            String tasks = stack.ref("TasksQueue");
            List<Message> messages = new ArrayList<>();
            while (messages.size() < 2) {
                messages.addAll(stack.sqs().receiveMessage(b -> b.queueUrl(tasks).maxNumberOfMessages(10).waitTimeSeconds(1)).messages());
            }
            Message first = messages.stream().filter(m -> m.body().contains("\"kind\":\"scan\"")).findFirst().orElseThrow();
            String scanTaskId = (String) Json.parseObject(first.body()).get("taskId");
            Map<String, AttributeValue> key = RunPartition.layoutOf(stack.dynamoDb(), stack.ref("RunsTable"), runId).taskRecordKey(scanTaskId);
            stack.dynamoDb().putItem(b -> b.tableName(stack.ref("RunsTable")).item(Map.of(
                    TableKeys.PK, key.get(TableKeys.PK),
                    TableKeys.SK, key.get(TableKeys.SK),
                    "runId", AttributeValue.fromS(runId), "taskId", AttributeValue.fromS(scanTaskId),
                    "kind", AttributeValue.fromS("scan"), "status", AttributeValue.fromS("done"),
                    "startedAt", AttributeValue.fromN("1"), "finishedAt", AttributeValue.fromN("2"), "durationMs", AttributeValue.fromN("1"))));
            stack.sqs().sendMessage(b -> b.queueUrl(stack.ref("TasksDeadLetterQueue")).messageBody(first.body()));
            stack.sqs().deleteMessage(b -> b.queueUrl(tasks).receiptHandle(first.receiptHandle()));
            for (Message m : messages) {
                if (m != first) stack.sqs().changeMessageVisibility(b -> b.queueUrl(tasks).receiptHandle(m.receiptHandle()).visibilityTimeout(0));
            }

            try (LocalPipeline pipeline = LocalPipeline.start(stack, NOWHERE, true)) {
                RunWatcher watcher = new RunWatcher(stack.dynamoDb(), stack.s3(), stack.ref("RunsTable"));
                watcher.awaitCompletion(runId, Duration.ofMinutes(2), (done, total) -> { });
                watcher.awaitReport(runId, Duration.ofMinutes(1));
            }
            Books.Audit audit = Books.audit(stack, runId);
            assertThat(audit.problems()).isEmpty();
            assertThat(audit.tasks()).contains(new Books.TaskBooks(scanTaskId, true, 1, 1, "done", true),
                    new Books.TaskBooks("hash-000001", true, 1, 1, "done", false));
        }
    }

    @Test
    void messagesThatBelongToNoRun_goToThePoisonQueueWithTheirReason() throws Exception {
        try (LocalStack stack = SharedEmulators.stack(chaosTemplate(false), "dlrpoison")) {
            stack.useForThisProcess();
            String deadLetters = stack.ref("TasksDeadLetterQueue");
            String orphan = "{\"v\":1,\"runId\":\"no-such-run\",\"taskId\":\"hash-000001\",\"kind\":\"hash\","
                    + "\"enqueuedAt\":\"2026-11-30T01:02:03Z\",\"cost\":4,\"count\":2,\"prefix\":\"p_\",\"start\":1}";
            stack.sqs().sendMessage(b -> b.queueUrl(deadLetters).messageBody("poison: not a task"));
            stack.sqs().sendMessage(b -> b.queueUrl(deadLetters).messageBody(orphan));

            List<Message> poisoned = new ArrayList<>();
            try (LocalPipeline pipeline = LocalPipeline.start(stack, NOWHERE, true)) {
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (System.nanoTime() < deadline && poisoned.size() < 2) {
                    poisoned.addAll(stack.sqs().receiveMessage(b -> b.queueUrl(stack.ref("PoisonMessagesQueue")).maxNumberOfMessages(10)
                            .waitTimeSeconds(1).messageAttributeNames("All").messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages());
                }
            }
            assertThat(poisoned).extracting(Message::body).containsExactlyInAnyOrder("poison: not a task", orphan);
            assertThat(poisoned).extracting(m -> m.messageAttributes().get("reason").stringValue()).anyMatch(r -> r.startsWith("not a task: "))
                    .contains("run no-such-run has no run record: task hash-000001 cannot be recorded against it");
            assertThat(RunWatcher.queueEmpty(stack.sqs(), deadLetters)).as("the dead-letter queue is drained").isTrue();
        }
    }

    private static Map<String, AttributeValue> taskRecord(LocalStack stack, String runId, String taskId) {
        String table = stack.ref("RunsTable");
        return stack.dynamoDb().getItem(b -> b.tableName(table).consistentRead(true).key(
                RunPartition.layoutOf(stack.dynamoDb(), table, runId).taskRecordKey(taskId))).item();
    }
}
