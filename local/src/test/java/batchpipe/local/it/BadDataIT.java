package batchpipe.local.it;

import batchpipe.common.json.Json;
import batchpipe.common.table.RunProgress;
import batchpipe.common.table.RunPartition;
import batchpipe.common.task.TaskIds;
import batchpipe.local.runtime.InvocationResult;
import batchpipe.local.runtime.LocalLambdaRuntime;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.run.RunWatcher;
import batchpipe.local.sample.SampleLogs;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.SharedEmulators;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import com.github.luben.zstd.Zstd;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad data in a real run: each bad object ends with a clear account on its own task record, and the
 * run still completes and is reported.
 */
class BadDataIT {
    private static final String GOOD_LINE = "{\"level\":\"INFO\",\"status\":200}\n";

    @Test
    void everyBadObjectGetsAClearRecordAndTheRunCompletes() throws Exception {
        StackTemplate template = StackTemplate.load(ProjectHome.find().resolve("template.yaml"), Map.of());
        try (LocalStack stack = SharedEmulators.stack(template, "baddata")) {
            stack.useForThisProcess();
            String bucket = stack.ref("DataBucket");
            ByteArrayOutputStream sample = new ByteArrayOutputStream();
            new SampleLogs(5, 0).write(0, 2_000, sample);
            byte[] frame = Zstd.compress(sample.toByteArray(), 3);

            put(stack, bucket, "bad/corrupt.jsonl.zst", corruptFrame(frame));
            put(stack, bucket, "bad/truncated.jsonl.zst", Arrays.copyOf(frame, frame.length / 2));
            put(stack, bucket, "bad/one-50mb-line.jsonl", fiftyMegabyteLineThenAGoodOne());
            put(stack, bucket, "bad/deep.jsonl", ("[".repeat(10_000) + "]".repeat(10_000) + "\n" + GOOD_LINE).getBytes(StandardCharsets.UTF_8));
            put(stack, bucket, "bad/not-utf8.jsonl", concat(new byte[] {'{', '"', 'm', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}', '\n'},
                    GOOD_LINE.getBytes(StandardCharsets.UTF_8)));
            put(stack, bucket, "bad/deleted-before-its-turn.jsonl.zst", frame);
            put(stack, bucket, "bad/empty.jsonl", new byte[0]);

            String spec = Json.write(Map.of("runId", "bad-data", "scan", List.of(Map.of("bucket", bucket, "prefix", "bad/"))));
            String runId;
            try (LocalLambdaRuntime producer = new LocalLambdaRuntime(stack, new PrintStream(OutputStream.nullOutputStream()))) {
                InvocationResult planned = producer.invoke("ProducerFunction", spec.getBytes(StandardCharsets.UTF_8));
                assertThat(planned.failed()).as(planned.response()).isFalse();
                // The empty object is not planned: there is nothing in it to scan.
                assertThat(Json.parseObject(planned.response()).get("planned")).isEqualTo(Map.of("scan", 6L, "hash", 0L));
                runId = (String) Json.parseObject(planned.response()).get("runId");
            }
            stack.s3().deleteObject(b -> b.bucket(bucket).key("bad/deleted-before-its-turn.jsonl.zst"));

            PrintStream stdout = System.out;
            System.setOut(new PrintStream(OutputStream.nullOutputStream()));
            try (LocalPipeline ignored = LocalPipeline.start(stack, new PrintStream(OutputStream.nullOutputStream()), true)) {
                RunWatcher watcher = new RunWatcher(stack.dynamoDb(), stack.s3(), stack.ref("RunsTable"));
                RunProgress progress = watcher.awaitCompletion(runId, Duration.ofMinutes(3), (done, total) -> { });
                assertThat(progress).isEqualTo(new RunProgress(6, 6, 3, 3, 0));
                assertThat(watcher.awaitReport(runId, Duration.ofMinutes(1)).runId()).isEqualTo(runId);
            } finally {
                System.setOut(stdout);
            }

            Map<String, AttributeValue> corrupt = record(stack, runId, bucket, "bad/corrupt.jsonl.zst");
            assertThat(corrupt.get("status").s()).isEqualTo("rejected");
            assertThat(corrupt.get("reason").s()).contains("bad/corrupt.jsonl.zst").contains("zstd data is corrupt or truncated");

            Map<String, AttributeValue> truncated = record(stack, runId, bucket, "bad/truncated.jsonl.zst");
            assertThat(truncated.get("status").s()).isEqualTo("rejected");
            assertThat(truncated.get("reason").s()).contains("zstd data is corrupt or truncated");

            Map<String, AttributeValue> longLine = record(stack, runId, bucket, "bad/one-50mb-line.jsonl");
            assertThat(longLine.get("status").s()).isEqualTo("done");
            assertThat(longLine.get("oversizedLines").n()).isEqualTo("1");
            assertThat(longLine.get("malformedLines").l()).extracting(AttributeValue::n).containsExactly("1");
            assertThat(longLine.get("events").n()).isEqualTo("1");

            Map<String, AttributeValue> deep = record(stack, runId, bucket, "bad/deep.jsonl");
            assertThat(deep.get("status").s()).isEqualTo("done");
            assertThat(deep.get("malformed").n()).isEqualTo("1");
            assertThat(deep.get("events").n()).isEqualTo("1");

            Map<String, AttributeValue> latin = record(stack, runId, bucket, "bad/not-utf8.jsonl");
            assertThat(latin.get("status").s()).isEqualTo("done");
            assertThat(latin.get("malformedLines").l()).extracting(AttributeValue::n).containsExactly("1");
            assertThat(latin.get("events").n()).isEqualTo("1");

            Map<String, AttributeValue> deleted = record(stack, runId, bucket, "bad/deleted-before-its-turn.jsonl.zst");
            assertThat(deleted.get("status").s()).isEqualTo("rejected");
            assertThat(deleted.get("reason").s()).contains("does not exist");
        }
    }

    private static Map<String, AttributeValue> record(LocalStack stack, String runId, String bucket, String key) {
        String table = stack.ref("RunsTable");
        return stack.dynamoDb().getItem(b -> b.tableName(table).consistentRead(true).key(
                RunPartition.layoutOf(stack.dynamoDb(), table, runId).taskRecordKey(TaskIds.scanTaskId(runId, bucket, key)))).item();
    }

    private static void put(LocalStack stack, String bucket, String key, byte[] bytes) {
        stack.s3().putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(bytes));
    }

    /** A zstd frame whose header is intact and whose compressed blocks are garbage. */
    private static byte[] corruptFrame(byte[] frame) {
        byte[] corrupt = frame.clone();
        for (int i = 12; i < corrupt.length; i += 7) corrupt[i] ^= 0x5A;
        return corrupt;
    }

    private static byte[] fiftyMegabyteLineThenAGoodOne() {
        byte[] line = new byte[50 * 1024 * 1024 + 1];
        Arrays.fill(line, (byte) 'x');
        byte[] open = "{\"blob\":\"".getBytes(StandardCharsets.UTF_8);
        System.arraycopy(open, 0, line, 0, open.length);
        line[line.length - 3] = '"';
        line[line.length - 2] = '}';
        line[line.length - 1] = '\n';
        return concat(line, GOOD_LINE.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
