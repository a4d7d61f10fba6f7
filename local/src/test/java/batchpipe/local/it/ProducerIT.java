package batchpipe.local.it;

import batchpipe.common.json.Json;
import batchpipe.common.table.ItemCodec;
import batchpipe.common.table.TableKeys;
import batchpipe.local.runtime.InvocationResult;
import batchpipe.local.runtime.LocalLambdaRuntime;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.SharedEmulators;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** The producer Lambda on the local stack: a prefix of 2,500 objects plus 40 hash batches. */
class ProducerIT {
    private static final int OBJECTS = 2_500;
    private static LocalStack stack;
    private static LocalLambdaRuntime runtime;

    @BeforeAll
    static void start() throws Exception {
        stack = SharedEmulators.stack(StackTemplate.load(ProjectHome.find().resolve("template.yaml"), Map.of()), "prodit");
        stack.useForThisProcess();
        String bucket = stack.ref("DataBucket");
        List<Future<?>> puts = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            for (int i = 0; i < OBJECTS; i++) {
                String key = String.format("archive/2026/part-%05d.jsonl.zst", i);
                puts.add(threads.submit(() -> stack.s3().putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("{}\n"))));
            }
            // What listing must skip: a folder marker, an empty object, and keys without the suffix.
            puts.add(threads.submit(() -> stack.s3().putObject(b -> b.bucket(bucket).key("archive/2026/"), RequestBody.empty())));
            puts.add(threads.submit(() -> stack.s3().putObject(b -> b.bucket(bucket).key("archive/2026/empty.jsonl.zst"), RequestBody.empty())));
            puts.add(threads.submit(() -> stack.s3().putObject(b -> b.bucket(bucket).key("archive/2026/readme.txt"), RequestBody.fromString("x"))));
            for (Future<?> put : puts) put.get();
        }
        runtime = new LocalLambdaRuntime(stack, new PrintStream(OutputStream.nullOutputStream()));
    }

    @AfterAll
    static void stop() {
        if (runtime != null) runtime.close();
        if (stack != null) stack.close();
    }

    private static String spec(String runId) {
        return Json.write(Map.of("runId", runId,
                "scan", List.of(Map.of("bucket", stack.ref("DataBucket"), "prefix", "archive/", "suffix", ".jsonl.zst")),
                "hash", Map.of("batches", 40, "batchSize", 100, "cost", 4)));
    }

    private static long queued() {
        Map<String, String> attributes = stack.sqs().getQueueAttributes(b -> b.queueUrl(stack.ref("TasksQueue"))
                .attributeNamesWithStrings("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings();
        return Long.parseLong(attributes.get("ApproximateNumberOfMessages")) + Long.parseLong(attributes.get("ApproximateNumberOfMessagesNotVisible"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void producer_enqueuesOneMessagePerObjectAndBatch_andRefusesTheSameRunIdAgain() {
        InvocationResult first = runtime.invoke("ProducerFunction", spec("archive-run").getBytes(StandardCharsets.UTF_8));
        assertThat(first.failed()).as(first.response()).isFalse();
        Map<String, Object> response = Json.parseObject(first.response());
        assertThat(response.get("planned")).isEqualTo(Map.of("scan", 2_500L, "hash", 40L));
        assertThat(response.get("enqueued")).isEqualTo(2_540L);
        assertThat(queued()).isEqualTo(2_540);

        Map<String, AttributeValue> item = stack.dynamoDb().getItem(b -> b.tableName(stack.ref("RunsTable")).consistentRead(true)
                .key(Map.of(TableKeys.PK, AttributeValue.fromS(TableKeys.runPk("archive-run")), TableKeys.SK, AttributeValue.fromS(TableKeys.RUN_SK)))).item();
        Map<String, Object> run = ItemCodec.fromItem(item);
        assertThat((Map<String, Object>) run.get("planned")).containsEntry("scan", 2_500L).containsEntry("hash", 40L).containsEntry("total", 2_540L);
        assertThat(run).containsEntry("status", "running").containsEntry("enqueued", 2_540L);

        InvocationResult again = runtime.invoke("ProducerFunction", spec("archive-run").getBytes(StandardCharsets.UTF_8));
        assertThat(again.failed()).isTrue();
        assertThat(again.response()).contains("run 'archive-run' already exists; nothing was sent");
        assertThat(queued()).isEqualTo(2_540);
    }
}
