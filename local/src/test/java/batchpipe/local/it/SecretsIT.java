package batchpipe.local.it;

import batchpipe.aggregator.Report;
import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.common.json.Json;
import batchpipe.common.table.RunPartition;
import batchpipe.common.table.TableKeys;
import batchpipe.local.run.RunWatcher;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.SharedEmulators;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import batchpipe.producer.run.RunStore;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Passwords given to a hash task never show up anywhere but in their bcrypt hashes: not in the
 * functions' logs, not in task records or error reasons, not in the report, whether the task succeeds
 * or is rejected.
 */
class SecretsIT {
    private static final String RUN = "secrets";
    private static final List<String> SECRETS = List.of("Tr0ub4dor-and-3-Alpha", "correct-horse-battery-Bravo", "hunter2-Charlie-hunter2");
    /** 80 bytes: over bcrypt's limit, so the task is rejected, and the reason must not quote it. */
    private static final String TOO_LONG_SECRET = "Delta-" + "x".repeat(74);

    private static String hashTask(String taskId, List<String> inputs, int cost) {
        return Json.write(Map.of("v", 1, "runId", RUN, "taskId", taskId, "kind", "hash", "enqueuedAt", Instant.now().toString(),
                "cost", cost, "count", inputs.size(), "inputs", inputs));
    }

    @Test
    void passwordsAppearInNoLogRecordReasonOrReport() throws Exception {
        StackTemplate template = StackTemplate.load(ProjectHome.find().resolve("template.yaml"), Map.of());
        ByteArrayOutputStream logs = new ByteArrayOutputStream();
        try (LocalStack stack = SharedEmulators.stack(template, "secrets")) {
            stack.useForThisProcess();
            RunStore runs = new RunStore(stack.dynamoDb(), stack.ref("RunsTable"));
            List<String> taskIds = List.of("hash-000001", "hash-000002", "hash-000003");
            runs.create(RunRecord.planned(RUN, null, "{}", new Planned(0, 3, 3), 0, Instant.now().toEpochMilli(), 1));
            runs.createProgressShards(RUN, taskIds, 1);
            String queue = stack.ref("TasksQueue");
            stack.sqs().sendMessage(b -> b.queueUrl(queue).messageBody(hashTask("hash-000001", SECRETS, 4)));
            stack.sqs().sendMessage(b -> b.queueUrl(queue).messageBody(hashTask("hash-000002", List.of(TOO_LONG_SECRET), 4)));
            stack.sqs().sendMessage(b -> b.queueUrl(queue).messageBody(hashTask("hash-000003", List.of(SECRETS.get(0)), 31)));

            PrintStream stdout = System.out;
            PrintStream captured = new PrintStream(logs, true, StandardCharsets.UTF_8);
            System.setOut(captured);
            Report report;
            try (LocalPipeline ignored = LocalPipeline.start(stack, captured, true)) {
                RunWatcher watcher = new RunWatcher(stack.dynamoDb(), stack.s3(), stack.ref("RunsTable"));
                watcher.awaitCompletion(RUN, Duration.ofMinutes(2), (done, total) -> { });
                report = watcher.awaitReport(RUN, Duration.ofMinutes(1));
            } finally {
                System.setOut(stdout);
            }

            List<String> everywhere = new ArrayList<>();
            everywhere.add(logs.toString(StandardCharsets.UTF_8));
            everywhere.add(Json.write(report));
            // every item of the run, on whichever of its partition keys it is
            List<Map<String, AttributeValue>> items = RunPartition.items(stack.dynamoDb(), stack.ref("RunsTable"), RUN, null);
            items.forEach(item -> everywhere.add(item.toString()));

            assertThat(everywhere.get(0)).as("the functions did log").contains("task rejected");
            assertThat(items).anySatisfy(item -> assertThat(item.get(TableKeys.SK).s()).isEqualTo(TableKeys.taskSk("hash-000002")))
                    .anySatisfy(item -> {
                        if (item.get(TableKeys.SK).s().equals(TableKeys.taskSk("hash-000003"))) {
                            assertThat(item.get("reason").s()).contains("'cost' is 31, outside the allowed range 4 to 14");
                        }
                    });
            for (String text : everywhere) {
                for (String secret : SECRETS) {
                    assertThat(text).doesNotContain(secret);
                }
                assertThat(text).doesNotContain("Delta-xxxx");
            }
        }
    }
}
