package batchpipe.worker.priming;

import batchpipe.common.table.TableKeys;
import batchpipe.common.json.Json;
import batchpipe.common.priming.Priming;
import batchpipe.common.priming.SdkPriming;
import batchpipe.common.task.TaskCodec;
import batchpipe.common.task.TaskLimits;
import batchpipe.worker.hash.Bcrypt;
import batchpipe.worker.scan.LogScanner;
import batchpipe.worker.scan.Match;
import batchpipe.worker.scan.ScanOptions;
import batchpipe.worker.scan.ScanResult;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import java.util.zip.GZIPOutputStream;

/**
 * The worker's warm-up before the SnapStart snapshot: scans of a built-in log sample (zstd and gzip,
 * with counting and both kinds of match), low-cost bcrypt hashes, task decoding, and the SDK calls a
 * task makes, on canned clients. It uses its own short-lived pool, so no pool thread of the handler
 * (and none of their per-thread state) is in the snapshot.
 */
public final class WorkerPriming {
    /** About 1.2 MB of JSON lines: enough for the scan loops to reach the optimising compiler. */
    static final int SAMPLE_LINES = 6_000;
    static final int SCAN_PASSES = 4;
    static final int BCRYPT_COST = TaskLimits.MIN_HASH_COST;
    static final int BCRYPT_HASHES = 8;

    private static final String PRIMING_QUEUE_URL = "https://sqs.us-east-1.amazonaws.com/000000000000/priming";
    private static final String[] LEVELS = {"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"};
    private static final String[] METHODS = {"GET", "GET", "POST", "PUT", "DELETE"};

    private WorkerPriming() {
    }

    public static Priming.Builder hooks() {
        return Priming.of("worker")
                .warm("scan", WorkerPriming::scanSamples)
                .warm("bcrypt", WorkerPriming::hashSamples)
                .warm("tasks", WorkerPriming::decodeSampleTasks)
                .warm("sdk", WorkerPriming::sdkCalls);
    }

    static void scanSamples() throws IOException {
        byte[] plain = sampleLog();
        byte[] zstd = compress(plain, true);
        byte[] gzip = compress(plain, false);
        ScanOptions options = new ScanOptions(List.of("level", "status", "http.method"), null,
                ScanOptions.DEFAULT_MAX_LINE_BYTES, 64 << 10);
        ForkJoinPool pool = new ForkJoinPool(Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors())));
        try {
            LogScanner scanner = new LogScanner(pool);
            for (int pass = 0; pass < SCAN_PASSES; pass++) {
                check(scanner.scan(new ByteArrayInputStream(zstd), options.withMatch(new Match.FieldEquals("level", "ERROR"))));
                check(scanner.scan(new ByteArrayInputStream(gzip), options.withMatch(new Match.Contains("timeout"))));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void check(ScanResult result) {
        if (result.events() != SAMPLE_LINES) {
            throw new IllegalStateException("the priming sample scanned to " + result.events() + " events, not " + SAMPLE_LINES);
        }
    }

    static void hashSamples() {
        for (int i = 0; i < BCRYPT_HASHES; i++) {
            String password = "priming_" + i;
            String hash = Bcrypt.hashpw(password, Bcrypt.gensalt(BCRYPT_COST));
            if (!Bcrypt.checkpw(password, hash)) {
                throw new IllegalStateException("bcrypt did not verify its own hash");
            }
        }
    }

    static void decodeSampleTasks() throws Exception {
        TaskCodec codec = new TaskCodec(TaskLimits.defaults());
        String scan = "{\"v\":1,\"runId\":\"priming\",\"taskId\":\"scan-priming\",\"kind\":\"scan\","
                + "\"enqueuedAt\":\"2026-01-01T00:00:00.000Z\",\"bucket\":\"priming\",\"key\":\"logs/sample.jsonl.zst\","
                + "\"countBy\":[\"level\",\"status\"],\"match\":{\"contains\":\"timeout\"}}";
        String hash = "{\"v\":1,\"runId\":\"priming\",\"taskId\":\"hash-000001\",\"kind\":\"hash\","
                + "\"enqueuedAt\":\"2026-01-01T00:00:00.000Z\",\"cost\":4,\"count\":10,\"prefix\":\"password_\",\"start\":1}";
        for (String body : List.of(scan, hash)) {
            codec.encode(codec.decode(body));
        }
    }

    static void sdkCalls() throws IOException {
        byte[] object = compress(sampleLog(), true);
        SdkPriming.s3(object, s3 -> {
            try (ResponseInputStream<GetObjectResponse> in = s3.getObject(b -> b.bucket("priming").key("logs/sample.jsonl.zst"))) {
                in.transferTo(OutputStream.nullOutputStream());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        Map<String, AttributeValue> key = TableKeys.key("priming", TableKeys.taskSk("priming"));
        SdkPriming.dynamoDb(dynamoDb -> {
            dynamoDb.getItem(b -> b.tableName("priming").key(key).consistentRead(true));
            dynamoDb.putItem(b -> b.tableName("priming").item(key).conditionExpression("attribute_not_exists(pk)"));
            dynamoDb.updateItem(b -> b.tableName("priming").key(key)
                    .updateExpression("ADD done :one").expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))));
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of("priming",
                    List.of(WriteRequest.builder().putRequest(PutRequest.builder().item(key).build()).build()))));
        });
        SdkPriming.sqs(sqs -> sqs.sendMessage(b -> b.queueUrl(PRIMING_QUEUE_URL).messageBody(Json.write(Map.of("runId", "priming")))));
    }

    /** Deterministic JSON lines shaped like application logs: the same bytes on every build. */
    static byte[] sampleLog() {
        SplittableRandom random = new SplittableRandom(20_261_130L);
        StringBuilder out = new StringBuilder(SAMPLE_LINES * 200);
        for (int i = 0; i < SAMPLE_LINES; i++) {
            String level = LEVELS[random.nextInt(LEVELS.length)];
            int status = level.equals("ERROR") ? 500 + random.nextInt(4) : 200 + random.nextInt(5);
            out.append("{\"ts\":\"2026-01-01T00:").append(String.format("%02d:%02d", i / 3600 % 60, i / 60 % 60))
                    .append(".000Z\",\"level\":\"").append(level)
                    .append("\",\"status\":").append(status)
                    .append(",\"latencyMs\":").append(random.nextInt(5_000) / 10.0)
                    .append(",\"msg\":\"").append(level.equals("ERROR") ? "upstream timeout" : "request served")
                    .append("\",\"http\":{\"method\":\"").append(METHODS[random.nextInt(METHODS.length)])
                    .append("\",\"path\":\"/api/items/").append(random.nextInt(10_000))
                    .append("\"},\"user\":{\"id\":\"u-").append(random.nextInt(50_000)).append("\"}}\n");
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] compress(byte[] plain, boolean zstd) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(plain.length / 4);
        try (OutputStream out = zstd ? new ZstdOutputStreamNoFinalizer(bytes) : new GZIPOutputStream(bytes)) {
            new ByteArrayInputStream(plain).transferTo(out);
        }
        return bytes.toByteArray();
    }
}
