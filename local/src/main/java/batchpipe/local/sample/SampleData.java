package batchpipe.local.sample;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Puts the seeded sample objects in the local bucket: {@code logs/app-000.jsonl.zst} and onwards. The
 * sample events in events/ refer to the first of them, so every sample works on a fresh local stack.
 *
 * <p>Generating and compressing the objects is CPU work of its own (about as much as scanning them),
 * so {@link #generate} starts it on background threads, one per processor, before there is anywhere to
 * put them: the demo starts it first and the emulators start meanwhile. At most {@link #WINDOW} finished
 * objects wait in memory for their upload, whatever the number of objects; uploads run a few at once.
 *
 * <p>With a cache folder, each object is also kept there and read back by later runs with the same
 * seed, size and generator: the same seed gives the same bytes, so generating them again is wasted
 * CPU. The folder name holds a digest of the generator's class, so a changed generator never reads
 * objects an older one wrote.
 */
public final class SampleData implements AutoCloseable {
    public static final String PREFIX = "logs/";
    public static final long DEFAULT_SEED = 42;
    /** Objects generated ahead of their upload. */
    static final int WINDOW = 8;
    /** Uploads in flight at once. */
    static final int UPLOADERS = 4;
    private static final String GENERATOR_DIGEST = generatorDigest();

    private final ExecutorService generators;
    private final List<Future<byte[]>> objects; // synchronized: uploaders clear what they uploaded
    private final Semaphore window;
    private final AtomicInteger fromCache;
    private boolean uploaded;

    private SampleData(ExecutorService generators, List<Future<byte[]>> objects, Semaphore window, AtomicInteger fromCache) {
        this.generators = generators;
        this.objects = objects;
        this.window = window;
        this.fromCache = fromCache;
    }

    public static String key(int index) {
        return String.format(Locale.ROOT, "%sapp-%03d.jsonl.zst", PREFIX, index);
    }

    /** Starts generating {@code objects} objects of {@code linesPerObject} lines each in the background. */
    public static SampleData generate(int objects, int linesPerObject, long seed) {
        return generate(objects, linesPerObject, seed, null);
    }

    /**
     * As {@link #generate(int, int, long)}, reading objects from {@code cacheRoot} where an earlier run
     * left them and leaving the others there; null for no cache.
     */
    public static SampleData generate(int objects, int linesPerObject, long seed, Path cacheRoot) {
        SampleLogs logs = new SampleLogs(seed, 2_000);
        Path cache = cacheRoot == null ? null : cacheRoot.resolve(GENERATOR_DIGEST).resolve("seed" + seed + "-lines" + linesPerObject);
        AtomicInteger fromCache = new AtomicInteger();
        int threads = Math.max(1, Math.min(objects, Runtime.getRuntime().availableProcessors()));
        ExecutorService generators = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "sample-data");
            thread.setDaemon(true);
            return thread;
        });
        // Fair, and the pool runs tasks in submission order: object i always holds a permit before
        // object i + WINDOW asks for one, so the in-order upload below cannot wait on a blocked task.
        Semaphore window = new Semaphore(WINDOW, true);
        List<Future<byte[]>> futures = Collections.synchronizedList(new ArrayList<>(objects));
        for (int i = 0; i < objects; i++) {
            int index = i;
            futures.add(generators.submit(() -> {
                window.acquire();
                Path cached = cache == null ? null : cache.resolve(key(index).substring(PREFIX.length()));
                if (cached != null && Files.isRegularFile(cached)) {
                    fromCache.incrementAndGet();
                    return Files.readAllBytes(cached);
                }
                byte[] object = logs.zstdObject(index, linesPerObject);
                if (cached != null) keep(cached, object);
                return object;
            }));
        }
        generators.shutdown();
        return new SampleData(generators, futures, window, fromCache);
    }

    /** Written under a temporary name and moved into place, so a reader never sees half an object. */
    private static void keep(Path cached, byte[] object) {
        try {
            Files.createDirectories(cached.getParent());
            Path tmp = Files.createTempFile(cached.getParent(), cached.getFileName().toString(), ".tmp");
            Files.write(tmp, object);
            Files.move(tmp, cached, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // Only a cache: the object was generated and is uploaded either way.
        }
    }

    /** How many objects came from the cache folder rather than the generator (known once uploaded). */
    public int objectsFromCache() {
        return fromCache.get();
    }

    /** A digest of the generator's class file: objects it did not write are never read back. */
    private static String generatorDigest() {
        try (InputStream in = SampleLogs.class.getResourceAsStream("SampleLogs.class")) {
            if (in == null) return "unknown-generator";
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(in.readAllBytes());
            return "generator-" + HexFormat.of().formatHex(digest, 0, 6);
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot read SampleLogs.class: " + e, e);
        }
    }

    /** Generates and uploads in one go; returns the total compressed bytes written. */
    public static long seed(S3Client s3, String bucket, int objects, int linesPerObject, long seed) throws IOException {
        try (SampleData data = generate(objects, linesPerObject, seed)) {
            return data.upload(s3, bucket);
        }
    }

    /**
     * Uploads every object as it is ready, {@link #UPLOADERS} at a time (S3 PUTs wait on the network, or
     * locally on S3Proxy's disk); returns the total compressed bytes written.
     */
    public long upload(S3Client s3, String bucket) throws IOException {
        if (uploaded) throw new IllegalStateException("the sample objects were uploaded already");
        uploaded = true;
        AtomicInteger next = new AtomicInteger();
        AtomicLong total = new AtomicLong();
        ExecutorService uploaders = Executors.newFixedThreadPool(Math.min(UPLOADERS, Math.max(1, objects.size())));
        try {
            List<Future<Void>> running = new ArrayList<>();
            for (int u = 0; u < Math.min(UPLOADERS, objects.size()); u++) {
                running.add(uploaders.submit(() -> {
                    // Objects are taken in index order, so the generation window always moves on.
                    for (int i = next.getAndIncrement(); i < objects.size(); i = next.getAndIncrement()) {
                        byte[] object = objects.get(i).get();
                        String key = key(i);
                        s3.putObject(b -> b.bucket(bucket).key(key).contentType("application/zstd"), RequestBody.fromBytes(object));
                        total.addAndGet(object.length);
                        objects.set(i, null); // the future holds the bytes: let them go
                        window.release();
                    }
                    return null;
                }));
            }
            for (Future<Void> uploader : running) {
                uploader.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while uploading the sample objects");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof ExecutionException generation ? generation.getCause() : e.getCause();
            throw new IOException("seeding the sample objects failed: " + cause, cause);
        } finally {
            uploaders.shutdownNow();
        }
        return total.get();
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
