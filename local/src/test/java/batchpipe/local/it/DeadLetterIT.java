package batchpipe.local.it;

import batchpipe.common.json.Json;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.stack.LocalStack;
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
 * the queue's own redrive policy; a good message delivered beside it does not.
 */
class DeadLetterIT {
    @Test
    void alwaysFailingMessage_landsInTheDeadLetterQueueAfterMaxReceiveCountAndNothingElseDoes() throws Exception {
        // A short visibility timeout so that failed messages come back within the test, yet longer than
        // a cold worker's first invocation: shorter, and a message still being processed would be
        // delivered again (the reason for the template's 6x rule) and could reach the DLQ by itself.
        StackTemplate template = StackTemplate.load(ProjectHome.find().resolve("template.yaml"),
                Map.of("TasksVisibilityTimeout", "4", "MaxReceiveCount", "3"));
        try (LocalStack stack = LocalStack.start(ProjectHome.find(), template, "dlqit", LocalStack.Ports.free())) {
            stack.useForThisProcess();
            String tasks = stack.ref("TasksQueue");
            String good = Json.write(Map.of("v", 1, "runId", "dlq-run", "taskId", "hash-000001", "kind", "hash",
                    "enqueuedAt", Instant.now().toString(), "cost", 4, "count", 2, "prefix", "p_", "start", 1));
            stack.sqs().sendMessage(b -> b.queueUrl(tasks).messageBody("poison: not a task"));
            stack.sqs().sendMessage(b -> b.queueUrl(tasks).messageBody(good));

            List<Message> deadLetters = new ArrayList<>();
            try (LocalPipeline pipeline = LocalPipeline.start(stack, new PrintStream(OutputStream.nullOutputStream()), true)) {
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (System.nanoTime() < deadline && deadLetters.isEmpty()) {
                    deadLetters.addAll(stack.sqs().receiveMessage(b -> b.queueUrl(stack.ref("TasksDeadLetterQueue"))
                            .maxNumberOfMessages(10).waitTimeSeconds(1)
                            .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages());
                }
            }
            assertThat(deadLetters).hasSize(1);
            assertThat(deadLetters.get(0).body()).isEqualTo("poison: not a task");
            // It was received maxReceiveCount times before SQS moved it (the DLQ receive adds one).
            assertThat(Integer.parseInt(deadLetters.get(0).attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT)))
                    .isGreaterThanOrEqualTo(3);
            Thread.sleep(5_000); // past one more visibility timeout: anything else failing would show now
            assertThat(stack.sqs().receiveMessage(b -> b.queueUrl(stack.ref("TasksDeadLetterQueue")).maxNumberOfMessages(10)).messages())
                    .as("nothing else in the dead-letter queue").isEmpty();
            Map<String, String> left = stack.sqs().getQueueAttributes(b -> b.queueUrl(tasks)
                    .attributeNamesWithStrings("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings();
            assertThat(left).containsEntry("ApproximateNumberOfMessages", "0").containsEntry("ApproximateNumberOfMessagesNotVisible", "0");
        }
    }
}
