package batchpipe.local.it;

import batchpipe.common.table.RunPartition;
import batchpipe.common.table.TableKeys;
import batchpipe.local.demo.Demo;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.SharedEmulators;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mindrot.jbcrypt.BCrypt;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A small demo end to end on the real local stack: the books must balance and the queues end empty. */
class PipelineIT {
    @TempDir
    Path out;

    @Test
    @SuppressWarnings("unchecked")
    void demo_recordsEveryTaskOnceStoresEveryHashAndLeavesTheQueuesEmpty() throws Exception {
        StackTemplate template = StackTemplate.load(ProjectHome.find().resolve("template.yaml"), Map.of());
        try (LocalStack stack = SharedEmulators.stack(template, "pipeit")) {
            stack.useForThisProcess();
            Demo.Outcome outcome;
            try (LocalPipeline pipeline = LocalPipeline.start(stack, new PrintStream(OutputStream.nullOutputStream()), true)) {
                outcome = new Demo(pipeline).run(Demo.Settings.builder().objects(3).linesPerObject(1_000).hashBatches(3)
                        .hashBatchSize(4).hashCost(4).seed(7).outDir(out).timeout(Duration.ofMinutes(3)).build(),
                        (done, total) -> { });
            }
            String runId = outcome.runId();
            List<Map<String, AttributeValue>> items = queryRun(stack, runId);
            List<Map<String, AttributeValue>> tasks = items.stream().filter(i -> i.get("sk").s().startsWith(TableKeys.TASK_PREFIX)).toList();
            List<Map<String, AttributeValue>> hashes = items.stream().filter(i -> i.get("sk").s().startsWith(TableKeys.HASH_PREFIX)).toList();

            assertThat(tasks).hasSize(6);
            assertThat(tasks).allSatisfy(t -> assertThat(t.get("status").s()).isEqualTo("done"));
            assertThat(tasks.stream().filter(t -> t.get("kind").s().equals("scan")).mapToLong(t -> Long.parseLong(t.get("events").n())).sum())
                    .isEqualTo(outcome.report().figures().overall().totals().events());
            assertThat(hashes).hasSize(12);
            assertThat(hashes.stream().map(h -> h.get("sk").s()).distinct().count()).isEqualTo(12);
            for (Map<String, AttributeValue> hash : hashes) {
                long index = Long.parseLong(hash.get("index").n());
                assertThat(BCrypt.checkpw(String.format("password_%06d", index), hash.get("hash").s())).isTrue();
            }
            assertThat(items).anySatisfy(i -> assertThat(i.get("sk").s()).isEqualTo(TableKeys.SUMMARY_SK));
            assertThat(outcome.report().figures().status()).isEqualTo("complete");
            assertThat(Files.readString(out.resolve("report.md"))).contains(runId);
            assertThat(Files.exists(out.resolve("report.json"))).isTrue();

            for (String queue : List.of("TasksQueue", "TasksDeadLetterQueue", "CompletionsQueue", "CompletionsDeadLetterQueue")) {
                Map<String, String> attributes = stack.sqs().getQueueAttributes(b -> b.queueUrl(stack.ref(queue))
                        .attributeNamesWithStrings("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings();
                assertThat(attributes).as(queue).containsEntry("ApproximateNumberOfMessages", "0")
                        .containsEntry("ApproximateNumberOfMessagesNotVisible", "0");
            }
        }
    }

    static List<Map<String, AttributeValue>> queryRun(LocalStack stack, String runId) {
        return RunPartition.items(stack.dynamoDb(), stack.ref("RunsTable"), runId, null);
    }
}
