package batchpipe.local.sample;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * Puts the seeded sample objects in the local bucket: {@code logs/app-000.jsonl.zst} and onwards. The
 * sample events in events/ refer to the first of them, so every sample works on a fresh local stack.
 *
 * <p>Generating and compressing the objects is CPU work of its own (about as much as scanning them),
 * so {@link #generate} starts it on background threads, one per processor, before there is anywhere to
 * put them: the demo starts it first and the emulators start meanwhile. At most {@link #WINDOW} finished
 * objects wait in memory for their upload, whatever the number of objects.
 */
public final class SampleData implements AutoCloseable {
    public static final String PREFIX = "logs/";
    public static final long DEFAULT_SEED = 42;
    /** Objects generated ahead of their upload. */
    static final int WINDOW = 8;

    private final ExecutorService generators;
    private final List<Future<byte[]>> objects;
    private final Semaphore window;
    private boolean uploaded;

    private SampleData(ExecutorService generators, List<Future<byte[]>> objects, Semaphore window) {
        this.generators = generators;
        this.objects = objects;
        this.window = window;
    }

    public static String key(int index) {
        return String.format(Locale.ROOT, "%sapp-%03d.jsonl.zst", PREFIX, index);
    }

    /** Starts generating {@code objects} objects of {@code linesPerObject} lines each in the background. */
    public static SampleData generate(int objects, int linesPerObject, long seed) {
        SampleLogs logs = new SampleLogs(seed, 2_000);
        int threads = Math.max(1, Math.min(objects, Runtime.getRuntime().availableProcessors()));
        ExecutorService generators = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "sample-data");
            thread.setDaemon(true);
            return thread;
        });
        // Fair, and the pool runs tasks in submission order: object i always holds a permit before
        // object i + WINDOW asks for one, so the in-order upload below cannot wait on a blocked task.
        Semaphore window = new Semaphore(WINDOW, true);
        List<Future<byte[]>> futures = new ArrayList<>(objects);
        for (int i = 0; i < objects; i++) {
            int index = i;
            futures.add(generators.submit(() -> {
                window.acquire();
                return logs.zstdObject(index, linesPerObject);
            }));
        }
        generators.shutdown();
        return new SampleData(generators, futures, window);
    }

    /** Generates and uploads in one go; returns the total compressed bytes written. */
    public static long seed(S3Client s3, String bucket, int objects, int linesPerObject, long seed) throws IOException {
        try (SampleData data = generate(objects, linesPerObject, seed)) {
            return data.upload(s3, bucket);
        }
    }

    /** Uploads every object, in order, as it is ready; returns the total compressed bytes written. */
    public long upload(S3Client s3, String bucket) throws IOException {
        if (uploaded) throw new IllegalStateException("the sample objects were uploaded already");
        uploaded = true;
        long total = 0;
        for (int i = 0; i < objects.size(); i++) {
            byte[] object;
            try {
                object = objects.get(i).get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while generating sample object " + key(i));
            } catch (ExecutionException e) {
                throw new IOException("generating sample object " + key(i) + " failed: " + e.getCause(), e.getCause());
            }
            String key = key(i);
            s3.putObject(b -> b.bucket(bucket).key(key).contentType("application/zstd"), RequestBody.fromBytes(object));
            total += object.length;
            objects.set(i, null); // the future holds the bytes: let them go
            window.release();
        }
        return total;
    }

    public int objectCount() {
        return objects.size();
    }

    /** Stops generating what is not generated yet (when the demo fails before its upload). */
    @Override
    public void close() {
        generators.shutdownNow();
    }
}
