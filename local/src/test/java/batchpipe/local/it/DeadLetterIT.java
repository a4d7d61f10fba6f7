package batchpipe.local.it;

import batchpipe.common.json.Json;
import batchpipe.local.run.RunWatcher;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.SharedEmulators;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A message that always fails reaches the dead-letter queue after maxReceiveCount receives, through
 * the queue's own redrive policy, and from there (it is not a task, so no run can record it) the
 * dead-letter recorder moves it to the poison queue with the reason; a good message delivered beside
 * it does neither.
 */
class DeadLetterIT {
    @Test
    void alwaysFailingMessage_passesThroughTheDeadLetterQueueToThePoisonQueueAndNothingElseDoes() throws Exception {
        // A short visibility timeout so that failed messages come back within the test: 6 x a 1 s worker
        // timeout, the template's rule, so that no message comes back while it is still being processed.
        StackTemplate template = StackTemplate.load(ProjectHome.find().resolve("template.yaml"),
                Map.of("WorkerTimeout", "1", "TasksVisibilityTimeout", "6", "WorkerSafetyMarginMs", "300", "MaxReceiveCount", "3"));
        try (LocalStack stack = SharedEmulators.stack(template, "dlqit")) {
            stack.useForThisProcess();
            String tasks = stack.ref("TasksQueue");
            String good = Json.write(Map.of("v", 1, "runId", "dlq-run", "taskId", "hash-000001", "kind", "hash",
                    "enqueuedAt", Instant.now().toString(), "cost", 4, "count", 2, "prefix", "p_", "start", 1));
            stack.sqs().sendMessage(b -> b.queueUrl(tasks).messageBody("poison: not a task"));
            stack.sqs().sendMessage(b -> b.queueUrl(tasks).messageBody(good));

            List<Message> poisoned = new ArrayList<>();
            try (LocalPipeline pipeline = LocalPipeline.start(stack, new PrintStream(OutputStream.nullOutputStream()), true)) {
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (System.nanoTime() < deadline && poisoned.size() < 2) {
                    poisoned.addAll(stack.sqs().receiveMessage(b -> b.queueUrl(stack.ref("PoisonMessagesQueue"))
                            .maxNumberOfMessages(10).waitTimeSeconds(1).messageAttributeNames("All")
                            .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages());
                }
            }
            // dlq-run has no run record, so its good-looking task belongs to no run either: both end in the
            // poison queue, each with its reason, and the task message went through its receives first.
            assertThat(poisoned).extracting(Message::body).containsExactlyInAnyOrder("poison: not a task", good);
            assertThat(poisoned).extracting(m -> m.messageAttributes().get("reason").stringValue())
                    .anyMatch(r -> r.startsWith("not a task: ")).anyMatch(r -> r.startsWith("run dlq-run has no run record"));
            assertThat(RunWatcher.queueEmpty(stack.sqs(), stack.ref("TasksDeadLetterQueue"))).as("the dead-letter queue is drained").isTrue();
            Map<String, String> left = stack.sqs().getQueueAttributes(b -> b.queueUrl(tasks)
                    .attributeNamesWithStrings("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings();
            assertThat(left).containsEntry("ApproximateNumberOfMessages", "0").containsEntry("ApproximateNumberOfMessagesNotVisible", "0");
        }
    }
}
