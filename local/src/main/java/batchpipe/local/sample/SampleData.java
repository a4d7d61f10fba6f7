package batchpipe.local.sample;

import java.util.Locale;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;

/**
 * Puts the seeded sample objects in the local bucket: {@code logs/app-000.jsonl.zst} and onwards. The
 * sample events in events/ refer to the first of them, so every sample works on a fresh local stack.
 */
public final class SampleData {
    public static final String PREFIX = "logs/";
    public static final long DEFAULT_SEED = 42;

    private SampleData() {
    }

    public static String key(int index) {
        return String.format(Locale.ROOT, "%sapp-%03d.jsonl.zst", PREFIX, index);
    }

    /** Returns the total compressed bytes written. */
    public static long seed(S3Client s3, String bucket, int objects, int linesPerObject, long seed) throws IOException {
        SampleLogs logs = new SampleLogs(seed, 2_000);
        long total = 0;
        for (int i = 0; i < objects; i++) {
            byte[] object = logs.zstdObject(i, linesPerObject);
            String key = key(i);
            s3.putObject(b -> b.bucket(bucket).key(key).contentType("application/zstd"), RequestBody.fromBytes(object));
            total += object.length;
        }
        return total;
    }
}
