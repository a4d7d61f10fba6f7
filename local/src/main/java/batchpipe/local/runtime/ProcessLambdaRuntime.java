package batchpipe.local.runtime;

import batchpipe.local.stack.LocalStack;
import batchpipe.local.template.FunctionDefinition;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One function run as Lambda runs it, in separate processes: each instance is its own JVM under the
 * real Lambda Java runtime interface client ({@link LambdaProcess}) talking to a Runtime API server of
 * its own, started on the first invocation that finds no idle instance (a cold start) and kept warm
 * after, at most {@code maxInstances} at once. Each instance is launched through a {@link Placement} (the
 * sweep's puts it in a cgroup with the CPU quota its memory buys) before its JVM starts.
 *
 * <p>It answers invocations as the in-process runtime does, with the facts of Lambda's REPORT line: the
 * duration from the moment the instance could take the event (queued, or its init done) to its answer's
 * arrival; the init time on a cold start (spawn to the runtime's first {@code invocation/next}); the
 * instance's own peak resident memory.
 */
public final class ProcessLambdaRuntime implements AutoCloseable {
    /**
     * Lambda's limit for an on-demand init is 10 s; a JVM held to a small CPU quota on a loaded machine
     * can take longer, and a failed init only sends its batch back for the visibility timeout, so the
     * local limit is the function's Timeout when that is longer.
     */
    static final Duration LAMBDA_INIT_TIMEOUT = Duration.ofSeconds(10);

    /** Where an instance's process runs: the launcher prefix of its command, and what to release when it has ended. */
    public interface Placement extends AutoCloseable {
        List<String> launcher();

        @Override
        void close() throws IOException;
    }

    /** Makes the placement of the {@code n}th instance (0-based). */
    @FunctionalInterface
    public interface Placements {
        Placement place(int instance) throws IOException;
    }

    /** Where the function's code and Lambda's runtime are, as `./mvnw package` lays them out. */
    public record Artifacts(Path runtimeDir, Path functionDir) {
    }

    private final class Instance {
        final int number;
        final RuntimeApiServer server;
        final LambdaProcess process;
        final Placement placement;
        Double pendingInitMs;
        long readyNanos;

        Instance(int number, RuntimeApiServer server, LambdaProcess process, Placement placement) {
            this.number = number;
            this.server = server;
            this.process = process;
            this.placement = placement;
        }
    }

    private final FunctionDefinition function;
    private final Map<String, String> environment;
    private final Artifacts artifacts;
    private final int memoryMb;
    private final int maxInstances;
    private final Placements placements;
    private final Path logDir;
    private final Deque<Instance> idle = new ArrayDeque<>();
    private final List<Instance> all = new ArrayList<>();
    private final List<Placement> released = new ArrayList<>();
    private final List<InvocationResult> history = Collections.synchronizedList(new ArrayList<>());
    private int started;
    private boolean closed;

    /**
     * @param environment the function's variables and the stack's endpoints (Lambda's own are added by {@link LambdaProcess})
     * @param memoryMb    the memory size this runtime gives every instance (the heap and AWS_LAMBDA_FUNCTION_MEMORY_SIZE)
     * @param logDir      each instance's output goes to {@code <function>-<n>.log} there
     */
    public ProcessLambdaRuntime(FunctionDefinition function, Map<String, String> environment, Artifacts artifacts, int memoryMb,
                                int maxInstances, Placements placements, Path logDir) {
        if (maxInstances < 1) throw new IllegalArgumentException("maxInstances must be at least 1, got " + maxInstances);
        this.function = function;
        this.environment = withPrivateJniLibrary(environment, artifacts.runtimeDir(), logDir);
        this.artifacts = artifacts;
        this.memoryMb = memoryMb;
        this.maxInstances = maxInstances;
        this.placements = placements;
        this.logDir = logDir;
    }

    /** The runtime interface client's system property naming its JNI library, read before it unpacks its own. */
    static final String JNI_PROPERTY = "com.amazonaws.services.lambda.runtime.api.client.runtimeapi.NativeClient.JNI";

    /**
     * Each runtime interface client unpacks its JNI library to the same file, /tmp/.libaws-lambda-jni.so,
     * replacing it: on Lambda every instance has a /tmp of its own, here instances started together would
     * rewrite the file another one is mapping (the JVM dies of SIGBUS). So the library is unpacked once,
     * into this runtime's folder, and every instance is pointed at it through the client's own property.
     */
    private static Map<String, String> withPrivateJniLibrary(Map<String, String> environment, Path runtimeDir, Path dir) {
        String arch = System.getProperty("os.arch").equals("aarch64") ? "aarch_64" : "x86_64";
        String entry = "jni/libaws-lambda-jni.linux-" + arch + ".so";
        try (var jars = Files.newDirectoryStream(runtimeDir, "aws-lambda-java-runtime-interface-client-*.jar")) {
            for (Path jar : jars) {
                try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
                    java.util.zip.ZipEntry found = zip.getEntry(entry);
                    if (found == null) continue;
                    Path library = Files.createDirectories(dir).resolve("libaws-lambda-jni.so");
                    try (var in = zip.getInputStream(found)) {
                        Files.copy(in, library, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    }
                    java.util.Map<String, String> env = new java.util.LinkedHashMap<>(environment);
                    String options = env.getOrDefault("JAVA_TOOL_OPTIONS", "");
                    env.put("JAVA_TOOL_OPTIONS", (options.isBlank() ? "" : options + " ") + "-D" + JNI_PROPERTY + "=" + library.toAbsolutePath());
                    return Map.copyOf(env);
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot unpack the runtime interface client's JNI library from " + runtimeDir, e);
        }
        // Not this platform's (musl?): the client unpacks its own, and instances had better start one at a time.
        return Map.copyOf(environment);
    }

    /** Invokes the function (the logical id must be this runtime's function) and waits for its answer. */
    public InvocationResult invoke(String logicalId, byte[] event) {
        if (!logicalId.equals(function.logicalId())) {
            throw new IllegalArgumentException("this runtime runs " + function.logicalId() + ", not " + logicalId);
        }
        String requestId = UUID.randomUUID().toString();
        long queued = System.nanoTime();
        Instance instance;
        try {
            instance = acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return record(failure(requestId, "Runtime.Interrupted", "interrupted while waiting for an instance", queued, null));
        } catch (IOException | RuntimeException e) {
            return record(failure(requestId, "Runtime.InitError", "the instance could not start: " + e.getMessage(), queued, null));
        }
        Double initMs = null;
        try {
            if (instance.readyNanos == 0) {
                String initError = awaitInit(instance);
                initMs = instance.pendingInitMs;
                if (initError != null) {
                    discard(instance);
                    return record(failure(requestId, "Runtime.InitError", initError, queued, initMs));
                }
            }
            long from = Math.max(queued, instance.readyNanos);
            Duration timeout = Duration.ofSeconds(function.timeoutSeconds());
            CompletableFuture<RuntimeApiServer.Outcome> answer = instance.server.invoke(requestId, new String(event, StandardCharsets.UTF_8), timeout,
                    RuntimeApiServer.UNSAMPLED_TRACE);
            RuntimeApiServer.Outcome outcome;
            try {
                outcome = waitWhileAlive(instance, answer, timeout);
            } catch (TimeoutException e) {
                discard(instance);
                return record(result(requestId, "{\"errorType\":\"Runtime.Timeout\",\"errorMessage\":\"Task timed out after "
                        + function.timeoutSeconds() + ".00 seconds\"}", "Runtime.Timeout", elapsedMs(from), instance, initMs));
            }
            if (outcome == null) {
                discard(instance);
                return record(result(requestId, "{\"errorType\":\"Runtime.ExitError\",\"errorMessage\":\"the instance's process exited: "
                        + jsonText(instance.process.outputTail(5)) + "\"}", "Runtime.ExitError", elapsedMs(from), instance, initMs));
            }
            double durationMs = (outcome.arrivedNanos() - from) / 1e6;
            InvocationResult result = outcome.succeeded()
                    ? result(requestId, outcome.response(), null, durationMs, instance, initMs)
                    : result(requestId, outcome.error(), outcome.errorType() == null ? "Unhandled" : outcome.errorType(), durationMs, instance, initMs);
            release(instance);
            return record(result);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            discard(instance);
            return record(failure(requestId, "Runtime.Interrupted", "interrupted", queued, initMs));
        }
    }

    /** Every invocation so far, as Lambda's REPORT lines would state them. */
    public List<InvocationResult> history() {
        synchronized (history) {
            return List.copyOf(history);
        }
    }

    /** How many instances were started (cold starts). */
    public synchronized int instancesStarted() {
        return started;
    }

    public FunctionDefinition function() {
        return function;
    }

    public int memoryMb() {
        return memoryMb;
    }

    private synchronized Instance acquire() throws InterruptedException, IOException {
        while (true) {
            if (closed) throw new IllegalStateException("the runtime is closed");
            Instance warm = idle.pollFirst();
            if (warm != null) return warm;
            if (all.size() < maxInstances) break;
            wait();
        }
        int number = started++;
        Placement placement = placements.place(number);
        RuntimeApiServer server = null;
        try {
            server = new RuntimeApiServer("arn:aws:lambda:" + LocalStack.REGION + ":" + LocalStack.ACCOUNT + ":function:" + function.functionName());
            Files.createDirectories(logDir);
            LambdaProcess process = LambdaProcess.start(artifacts.functionDir(), artifacts.runtimeDir(), function.functionName(), function.handler(),
                    memoryMb, environment, server.address(), false, logDir.resolve(function.logicalId() + "-" + number + ".log"), placement.launcher());
            Instance instance = new Instance(number, server, process, placement);
            all.add(instance);
            return instance;
        } catch (IOException | RuntimeException e) {
            if (server != null) server.close();
            placement.close();
            throw e;
        }
    }

    /** Null once the instance's init is done; else what went wrong. */
    private String awaitInit(Instance instance) throws InterruptedException {
        Duration limit = Duration.ofSeconds(Math.max(LAMBDA_INIT_TIMEOUT.toSeconds(), function.timeoutSeconds()));
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (instance.server.initError().isDone()) return instance.server.initError().getNow("init failed");
            Long ready = instance.server.firstNextNanos().getNow(null);
            if (ready != null) {
                instance.readyNanos = ready;
                instance.pendingInitMs = (ready - instance.process.startedNanos()) / 1e6;
                return null;
            }
            if (!instance.process.isAlive()) return "the instance's process exited during init: " + instance.process.outputTail(10);
            Thread.sleep(2);
        }
        return "init did not finish within " + limit.toSeconds() + " s";
    }

    /** The answer, or null when the process died first. */
    private static RuntimeApiServer.Outcome waitWhileAlive(Instance instance, CompletableFuture<RuntimeApiServer.Outcome> answer, Duration timeout)
            throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return answer.get(50, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (!instance.process.isAlive()) return answer.getNow(null);
                if (System.nanoTime() >= deadline) throw e;
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
    }

    private synchronized void release(Instance instance) {
        if (closed) return;
        idle.addFirst(instance);
        notifyAll();
    }

    private void discard(Instance instance) {
        stop(instance);
        synchronized (this) {
            all.remove(instance);
            notifyAll();
        }
    }

    private void stop(Instance instance) {
        try {
            instance.process.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        instance.server.close();
        synchronized (released) {
            released.add(instance.placement);
        }
    }

    private InvocationResult result(String requestId, String response, String error, double durationMs, Instance instance, Double initMs) {
        return new InvocationResult(function.logicalId(), requestId, response, error, durationMs, LocalLambdaRuntime.billed(durationMs, initMs), memoryMb,
                peakRssMb(instance.process.pid()), initMs);
    }

    private InvocationResult failure(String requestId, String type, String message, long fromNanos, Double initMs) {
        double durationMs = elapsedMs(fromNanos);
        return new InvocationResult(function.logicalId(), requestId, "{\"errorType\":\"" + type + "\",\"errorMessage\":\"" + jsonText(message) + "\"}",
                type, durationMs, LocalLambdaRuntime.billed(durationMs, initMs), memoryMb, 0, initMs);
    }

    private InvocationResult record(InvocationResult result) {
        history.add(result);
        return result;
    }

    private static double elapsedMs(long fromNanos) {
        return (System.nanoTime() - fromNanos) / 1e6;
    }

    /** VmHWM of the instance's JVM: the closest local analogue of Max Memory Used; 0 when it cannot be read. */
    static long peakRssMb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("\\D+", "")) / 1024;
            }
        } catch (IOException | RuntimeException ignored) {
            // the process has ended, or this is not Linux
        }
        return 0;
    }

    private static String jsonText(String text) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20) out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            else out.append(c);
        }
        return out.toString();
    }

    /**
     * Stops every instance's process and server, then releases their placements (a cgroup can only be
     * removed once its processes have ended). Safe to call twice, and from a shutdown hook.
     */
    @Override
    public void close() throws IOException {
        List<Instance> running;
        synchronized (this) {
            closed = true;
            running = new ArrayList<>(all);
            all.clear();
            idle.clear();
            notifyAll();
        }
        running.forEach(this::stop);
        IOException first = null;
        List<Placement> toRelease;
        synchronized (released) {
            toRelease = new ArrayList<>(released);
            released.clear();
        }
        for (Placement p : toRelease) {
            try {
                p.close();
            } catch (IOException e) {
                if (first == null) first = e;
            }
        }
        if (first != null) throw first;
    }
}
