package batchpipe.local.runtime;

import batchpipe.common.json.Json;
import batchpipe.local.chaos.Chaos;
import batchpipe.local.chaos.ChaosProfile;
import batchpipe.local.chaos.InstanceCrash;
import batchpipe.local.chaos.InvocationScope;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.template.FunctionDefinition;
import software.amazon.cloudwatchlogs.emf.config.EnvironmentConfigurationProvider;
import software.amazon.cloudwatchlogs.emf.environment.Environments;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Runs the template's functions in this JVM, as Lambda would run them: handler, memory, timeout and
 * environment from template.yaml (Globals merged, references resolved to the local stack), the
 * runtime's own serializers, a Context whose remaining time counts down, warm instances reused, and an
 * invocation that outlives its Timeout reported as a timeout (and its instance discarded).
 */
public final class LocalLambdaRuntime implements AutoCloseable {
    /** The worker's pool size override (see PoolSize), which this runtime sets to the machine's cores. */
    static final String LOCAL_POOL_VARIABLE = "WORKER_COUNT";
    /** Tells the producer to record this machine in each run it plans (see ProducerConfig): durations here are not Lambda's. */
    static final String RECORD_HOST_VARIABLE = "BATCHPIPE_RECORD_HOST";

    private final Function<String, FunctionDefinition> resolveFunction;
    private final ClassLoader loader;
    private final PrintStream functionLog;
    private final Map<String, FunctionDefinition> definitions = new ConcurrentHashMap<>();
    private final Map<String, Deque<FunctionInstance>> idle = new ConcurrentHashMap<>();
    private final List<InvocationResult> history = Collections.synchronizedList(new ArrayList<>());
    /**
     * Handler executions still running, counted on the handler's own thread: an invocation the runtime
     * stopped waiting for (a timeout, an abort) may still be unwinding, and an audit must wait for it.
     */
    private final java.util.concurrent.atomic.AtomicInteger handlersRunning = new java.util.concurrent.atomic.AtomicInteger();
    private final ExecutorService invocations = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "lambda-invocation");
        t.setDaemon(true);
        return t;
    });

    public LocalLambdaRuntime(LocalStack stack, PrintStream functionLog) {
        this(stack::function, functionLog);
    }

    /** @param resolveFunction a function's definition by logical id (throws for an unknown id) */
    public LocalLambdaRuntime(Function<String, FunctionDefinition> resolveFunction, PrintStream functionLog) {
        // Lambda's EMF metrics are JSON lines on stdout. The metrics library tells Lambda apart by the
        // process environment, which in-process functions do not change, so say it here; otherwise it
        // would try to reach a CloudWatch agent on a local socket.
        EnvironmentConfigurationProvider.getConfig().setEnvironmentOverride(Environments.Lambda);
        this.resolveFunction = resolveFunction;
        this.loader = LocalLambdaRuntime.class.getClassLoader();
        this.functionLog = functionLog;
    }

    public FunctionDefinition definition(String logicalId) {
        return definitions.computeIfAbsent(logicalId, resolveFunction);
    }

    public InvocationResult invoke(String logicalId, Path eventFile) throws IOException {
        return invoke(logicalId, Files.readAllBytes(eventFile));
    }

    public InvocationResult invoke(String logicalId, byte[] event) {
        FunctionDefinition function = definition(logicalId);
        String requestId = UUID.randomUUID().toString();
        long start = System.nanoTime();
        FunctionInstance instance;
        try {
            instance = acquire(function);
        } catch (RuntimeException initFailure) {
            // Lambda reports an init failure as Runtime.InitError, billed for the attempt.
            return record(new InvocationResult(logicalId, requestId, errorDocument(initFailure, "Runtime.InitError"), "Runtime.InitError",
                    elapsedMs(start), billed(elapsedMs(start)), function.memoryMb(), peakRssMb(), null));
        }
        Double initMs = instance.takeColdStart();
        long invokeStart = System.nanoTime();
        LocalContext context = new LocalContext(function, requestId,
                "arn:aws:lambda:" + LocalStack.REGION + ":" + LocalStack.ACCOUNT + ":function:" + function.functionName(),
                invokeStart, functionLog);
        InvocationScope scope = new InvocationScope(logicalId);
        long timeoutMs = function.timeoutSeconds() * 1000L;
        Chaos chaos = Chaos.active();
        if (chaos != null && chaos.targets(logicalId)) {
            if (chaos.deliversCrashedTask(new String(event, StandardCharsets.UTF_8))) {
                // Dead from the start: its first AWS call fails, nothing of this batch is written or acknowledged.
                scope.kill("instance crashed running task " + chaos.crashedTaskId() + " (forced on every delivery)");
            } else if (chaos.strike(ChaosProfile.CRASH, "worker instance crashed mid-batch")) {
                scope.armCrash(chaos.upTo(6), false);
            } else if (chaos.strike(ChaosProfile.ABORT, "worker instance aborted mid-batch")) {
                scope.armCrash(chaos.upTo(6), true);
            }
            if (chaos.strike(ChaosProfile.TIMEOUT, "invocation ran past its deadline")) {
                // The handler believes it has its whole Timeout; the runtime cuts it off much sooner.
                timeoutMs = chaos.upTo(400);
            }
        }
        AtomicReference<Thread> handlerThread = new AtomicReference<>();
        handlersRunning.incrementAndGet();
        CompletableFuture<byte[]> call;
        try {
            call = CompletableFuture.supplyAsync(() -> {
                handlerThread.set(Thread.currentThread());
                InvocationScope.enter(scope);
                try {
                    return instance.adapter().invoke(event, context);
                } catch (RuntimeException | Error e) {
                    throw e;
                } catch (Exception e) {
                    throw new CompletionException(e);
                } finally {
                    InvocationScope.leave();
                    handlersRunning.decrementAndGet();
                }
            }, invocations);
        } catch (RuntimeException notStarted) {
            handlersRunning.decrementAndGet();
            throw notStarted;
        }
        String response;
        String error = null;
        try {
            // An aborted instance answers nothing: stop waiting the moment it dies.
            Object done = CompletableFuture.anyOf(call, scope.aborts() ? scope.killed() : new CompletableFuture<>())
                    .get(timeoutMs, TimeUnit.MILLISECONDS);
            if (scope.dead()) {
                throw new ExecutionException(new InstanceCrash(scope.killed().getNow("instance died")));
            }
            response = new String((byte[]) done, StandardCharsets.UTF_8);
        } catch (TimeoutException e) {
            // CompletableFuture.cancel does not interrupt: interrupt the handler's thread ourselves.
            Thread running = handlerThread.get();
            if (running != null) running.interrupt();
            scope.kill("timed out");  // frozen, as Lambda freezes it: its threads make no further calls
            instance.markBroken();
            error = "Runtime.Timeout";
            response = Json.write(Map.of("errorType", error,
                    "errorMessage", String.format(Locale.ROOT, "Task timed out after %.2f seconds", timeoutMs / 1000.0)));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof CompletionException c && c.getCause() != null ? c.getCause() : e.getCause();
            if (scope.dead() || cause instanceof InstanceCrash) {
                instance.markBroken();
                error = "Runtime.ExitError";
                response = errorDocument(cause, error);
            } else {
                error = cause.getClass().getName();
                response = errorDocument(cause, error);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Thread running = handlerThread.get();
            if (running != null) running.interrupt();
            instance.markBroken();
            error = "Runtime.Interrupted";
            response = errorDocument(e, error);
        }
        double durationMs = elapsedMs(invokeStart);
        release(instance);
        return record(new InvocationResult(logicalId, requestId, response, error, durationMs, billed(durationMs, initMs),
                function.memoryMb(), peakRssMb(), initMs));
    }

    /** How many handler executions are still running, including ones the runtime stopped waiting for. */
    public int handlersRunning() {
        return handlersRunning.get();
    }

    /** Every invocation so far, for reports: what Lambda's REPORT lines would say. */
    public List<InvocationResult> history() {
        synchronized (history) {
            return List.copyOf(history);
        }
    }

    private InvocationResult record(InvocationResult result) {
        history.add(result);
        return result;
    }

    private FunctionInstance acquire(FunctionDefinition function) {
        Deque<FunctionInstance> pool = idle.computeIfAbsent(function.logicalId(), id -> new ArrayDeque<>());
        synchronized (pool) {
            FunctionInstance warm = pool.pollFirst();
            if (warm != null) return warm;
        }
        return FunctionInstance.create(function, environment(function), loader);
    }

    private void release(FunctionInstance instance) {
        if (instance.broken()) return;
        Deque<FunctionInstance> pool = idle.get(instance.function().logicalId());
        synchronized (pool) {
            pool.addFirst(instance);
        }
    }

    /** The function's variables plus those Lambda itself sets. */
    static Map<String, String> environment(FunctionDefinition function) {
        Map<String, String> env = new LinkedHashMap<>(function.environment());
        // Lambda caps an instance's CPU by its memory (1,769 MB buys one vCPU) and the worker sizes its
        // pool to that share. This runtime caps nothing: every instance shares all of this machine's
        // cores, so a pool of one thread per instance would leave cores idle whenever fewer instances
        // than cores are busy (one batch of slow hash tasks at the end of a run). Locally the pool is
        // therefore sized to the machine, unless the template or the process environment sets it.
        if (!env.containsKey(LOCAL_POOL_VARIABLE) && System.getenv(LOCAL_POOL_VARIABLE) == null) {
            env.put(LOCAL_POOL_VARIABLE, Integer.toString(Runtime.getRuntime().availableProcessors()));
        }
        env.put(RECORD_HOST_VARIABLE, "true");
        env.put("AWS_LAMBDA_FUNCTION_NAME", function.functionName());
        env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", Integer.toString(function.memoryMb()));
        env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
        env.put("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/" + function.functionName());
        env.put("AWS_REGION", LocalStack.REGION);
        env.put("AWS_DEFAULT_REGION", LocalStack.REGION);
        env.put("AWS_EXECUTION_ENV", "AWS_Lambda_" + function.runtime());
        env.put("_HANDLER", function.handler());
        return env;
    }

    static String errorDocument(Throwable error, String type) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("errorMessage", String.valueOf(error.getMessage()));
        doc.put("errorType", type);
        doc.put("stackTrace", Arrays.stream(error.getStackTrace()).limit(20).map(StackTraceElement::toString).toList());
        return Json.write(doc);
    }

    /** Lambda bills per millisecond, rounded up. */
    static long billed(double durationMs) {
        return (long) Math.ceil(durationMs);
    }

    /**
     * Billed Duration as Lambda writes it since 1 August 2025: the INIT phase of a cold start is billed with the
     * invocation, {@code ceil(Duration + Init Duration)}, so a local REPORT line reads like one from AWS.
     */
    static long billed(double durationMs, Double initMs) {
        return billed(durationMs + (initMs == null ? 0 : initMs));
    }

    private static double elapsedMs(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e6;
    }

    /** VmHWM: the peak resident set of this process, the closest local analogue of Max Memory Used. */
    static long peakRssMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("\\D+", "")) / 1024;
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux: fall back to the heap
        }
        Runtime rt = Runtime.getRuntime();
        return (rt.totalMemory() - rt.freeMemory()) / (1024 * 1024);
    }

    @Override
    public void close() {
        invocations.shutdownNow();
    }
}
