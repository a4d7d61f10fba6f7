package batchpipe.bench;

import batchpipe.common.json.Json;
import batchpipe.common.spec.RunSpec;
import batchpipe.common.table.RunProgress;
import batchpipe.common.task.TaskLimits;
import batchpipe.local.esm.SqsEventSourceMapping;
import batchpipe.local.runtime.LambdaProcess;
import batchpipe.local.runtime.RuntimeApiServer;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.template.FunctionDefinition;
import batchpipe.local.template.StackTemplate;
import batchpipe.producer.RunPlanner;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * The cold-start target: from spawning the JVM to the first response arriving at the Runtime API, for
 * the worker as {@code sam build} lays it out and for {@link EmptyHandler}, both under the real Lambda
 * runtime interface client, with the same JVM, the same flags (Lambda's launch flags and the worker's
 * JAVA_TOOL_OPTIONS from template.yaml) and the same environment, taken in rotation.
 *
 * <p>The worker's first response is the one a user waits for: a one-message SQS batch, received from
 * the local stack's tasks queue, holding the first small hash task of a two-task run planned by the real
 * producer code; the worker checks the task's record, hashes, writes the hashes and its record to
 * DynamoDB and counts the task on the run's progress. (A cold worker's first task is almost never the
 * one that completes a run, so it does not notify the aggregator; the second task is dropped.) The
 * worker answering an empty batch is measured too: its init and the runtime's round trip alone,
 * without the first SDK calls.
 */
final class ColdStart {
    static final String TARGET = "Cold start: first worker response via the runtime interface client vs an empty handler";
    static final double LIMIT = 2.0;
    static final int HASHES = 10;
    static final int HASH_COST = TaskLimits.MIN_HASH_COST;
    private static final String STACK_NAME = "coldstart";
    private static final Duration PROCESS_DEADLINE = Duration.ofMinutes(2);

    /** What is launched: the worker with a real task, the empty handler, the worker with nothing to do. */
    enum Variant {
        WORKER_TASK("worker", "worker, one-message SQS batch (a hash task of " + HASHES + " at cost " + HASH_COST + ", 1st of a 2-task run, local stack)"),
        EMPTY_HANDLER("empty", "empty RequestHandler (aws-lambda-java-core only)"),
        WORKER_EMPTY_BATCH("worker-empty-batch", "worker, empty SQS batch {\"Records\":[]}");

        /** For the progress line. */
        final String shortName;
        /** For the figures. */
        final String label;

        Variant(String shortName, String label) {
            this.shortName = shortName;
            this.label = label;
        }
    }

    /** One cold start, in seconds from the spawn: init done (first invocation/next), response arrived; CPU used by then. */
    record Timing(double initSeconds, double responseSeconds, double cpuSeconds) {
    }

    record Result(Target target, List<MarkdownReport.Figure> figures, List<String> commands, List<String> notes) {
    }

    /** Where {@code ./mvnw package} leaves the runtime interface client and the worker's Lambda folder. */
    record Artifacts(Path runtimeDir, Path workerDir) {
        static Artifacts under(Path home) {
            return new Artifacts(home.resolve("deploy/runtime/target/runtime"), home.resolve("deploy/functions/worker/target/function"));
        }

        /** Null when both are there; otherwise what is missing and how to build it. */
        String missing() throws IOException {
            if (!Files.isDirectory(runtimeDir) || !containsJar(runtimeDir, "aws-lambda-java-runtime-interface-client-")) {
                return "the runtime interface client is missing from " + runtimeDir + "; run ./mvnw -B -DskipTests package first";
            }
            if (!Files.isRegularFile(workerDir.resolve("batchpipe/worker/WorkerHandler.class")) || !Files.isDirectory(workerDir.resolve("lib"))) {
                return "the worker's Lambda folder " + workerDir + " is missing or incomplete; run ./mvnw -B -DskipTests package first";
            }
            return null;
        }

        Path lambdaCoreJar() throws IOException {
            try (Stream<Path> jars = Files.list(runtimeDir)) {
                return jars.filter(p -> p.getFileName().toString().startsWith("aws-lambda-java-core-")).findFirst()
                        .orElseThrow(() -> new IOException("no aws-lambda-java-core jar in " + runtimeDir));
            }
        }

        private static boolean containsJar(Path dir, String prefix) throws IOException {
            try (Stream<Path> files = Files.list(dir)) {
                return files.anyMatch(p -> p.getFileName().toString().startsWith(prefix) && p.getFileName().toString().endsWith(".jar"));
            }
        }
    }

    private final Path home;
    private final Path workDir;
    private final int runs;
    private final PrintStream out;

    ColdStart(Path home, Path workDir, int runs, PrintStream out) {
        this.home = home;
        this.workDir = workDir.resolve("cold-start");
        this.runs = runs;
        this.out = out;
    }

    Result measure() throws Exception {
        Artifacts artifacts = Artifacts.under(home);
        String missing = artifacts.missing();
        if (missing != null) {
            out.println("bench: cold start not measured: " + missing);
            return new Result(Target.skipped(TARGET, Target.Bound.AT_MOST, LIMIT, "not measured: " + missing), List.of(), List.of(),
                    List.of("Cold start not measured: " + missing + "."));
        }
        Path emptyDir = emptyFunction(artifacts);
        String loadBefore = loadAverage();
        Map<Variant, List<Timing>> timings = new LinkedHashMap<>();
        List<String> commands = new ArrayList<>();
        // The producer code that plans each run logs to standard output; the bench's own lines go to `out`.
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream(), true));
        try (LocalStack stack = LocalStack.start(home, StackTemplate.load(home.resolve("template.yaml"), Map.of()), STACK_NAME,
                LocalStack.Ports.free())) {
            FunctionDefinition worker = stack.function("WorkerFunction");
            Map<String, String> env = new LinkedHashMap<>(worker.environment());
            env.putAll(stack.endpointSettings());
            Launcher launcher = new Launcher(stack, worker, env, artifacts, emptyDir);
            commands.add(launcher.describe(Variant.WORKER_TASK));
            commands.add(launcher.describe(Variant.EMPTY_HANDLER));
            for (int r = 0; r < runs; r++) {
                out.printf(Locale.ROOT, "bench: cold start, run %d/%d ...", r + 1, runs);
                for (Variant variant : Variant.values()) {
                    Timing t = launcher.coldStart(variant, r);
                    timings.computeIfAbsent(variant, v -> new ArrayList<>()).add(t);
                    out.printf(Locale.ROOT, " %s %.2f s (init %.2f s);", variant.shortName, t.responseSeconds(), t.initSeconds());
                }
                out.println();
            }
        } finally {
            System.setOut(stdout);
        }
        return result(timings, commands, loadBefore, loadAverage());
    }

    private Result result(Map<Variant, List<Timing>> timings, List<String> commands, String loadBefore, String loadAfter) {
        List<MarkdownReport.Figure> figures = new ArrayList<>();
        for (Variant v : Variant.values()) {
            List<Double> response = timings.get(v).stream().map(Timing::responseSeconds).toList();
            figures.add(new MarkdownReport.Figure("cold start to first response, " + v.label, seconds(Stats.median(response)), list(response)));
        }
        for (Variant v : Variant.values()) {
            List<Double> init = timings.get(v).stream().map(Timing::initSeconds).toList();
            figures.add(new MarkdownReport.Figure("cold start to init done (first invocation/next), " + v.label, seconds(Stats.median(init)), list(init)));
        }
        for (Variant v : Variant.values()) {
            List<Double> cpu = timings.get(v).stream().map(Timing::cpuSeconds).filter(c -> c >= 0).toList();
            if (!cpu.isEmpty()) {
                figures.add(new MarkdownReport.Figure("CPU seconds (user + system) to first response, " + v.label, seconds(Stats.median(cpu)), list(cpu)));
            }
        }
        double worker = median(timings, Variant.WORKER_TASK), empty = median(timings, Variant.EMPTY_HANDLER);
        double emptyBatch = median(timings, Variant.WORKER_EMPTY_BATCH);
        Target target = Target.atMost(TARGET, String.format(Locale.ROOT, "%.2f vs %.2f s", worker, empty), worker / empty, LIMIT);
        List<String> notes = List.of(String.format(Locale.ROOT,
                "Cold start: each run spawns a fresh JVM per variant, in rotation (worker with a task, empty handler, worker with an "
                        + "empty batch), on-demand init (no SnapStart: priming does not run); the time is from the spawn to the "
                        + "response's arrival at the bench's Runtime API server. The worker answering an empty batch took %.2f s, "
                        + "%.2fx the empty handler: init alone, without the first S3/DynamoDB/SQS calls. Load average (1, 5, 15 min) "
                        + "before: %s; after: %s.", emptyBatch, emptyBatch / empty, loadBefore, loadAfter));
        return new Result(target, figures, commands, notes);
    }

    /** A Lambda function folder holding only {@link EmptyHandler} at the root and aws-lambda-java-core in lib/. */
    private Path emptyFunction(Artifacts artifacts) throws IOException {
        Path dir = workDir.resolve("empty-function");
        String classFile = EmptyHandler.class.getName().replace('.', '/') + ".class";
        Path target = dir.resolve(classFile);
        Files.createDirectories(target.getParent());
        try (InputStream in = EmptyHandler.class.getClassLoader().getResourceAsStream(classFile)) {
            if (in == null) throw new IOException("cannot read " + classFile + " from the bench's own class path");
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Path core = artifacts.lambdaCoreJar();
        Files.copy(core, lib.resolve(core.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        return dir;
    }

    /** Starts one variant per call, each in a fresh JVM, against one Runtime API server of its own. */
    private final class Launcher {
        private final LocalStack stack;
        private final FunctionDefinition worker;
        private final Map<String, String> env;
        private final Artifacts artifacts;
        private final Path emptyDir;
        private final String tasksQueueUrl;
        private final String tasksQueueArn;
        private final String table;

        Launcher(LocalStack stack, FunctionDefinition worker, Map<String, String> env, Artifacts artifacts, Path emptyDir) {
            this.stack = stack;
            this.worker = worker;
            this.env = env;
            this.artifacts = artifacts;
            this.emptyDir = emptyDir;
            this.tasksQueueUrl = stack.ref("TasksQueue");
            this.tasksQueueArn = stack.physicalResources().get("TasksQueue").attributes().get("Arn");
            this.table = stack.ref("RunsTable");
        }

        String describe(Variant variant) {
            boolean isWorker = variant != Variant.EMPTY_HANDLER;
            return "cd " + (isWorker ? artifacts.workerDir() : emptyDir) + " && JAVA_TOOL_OPTIONS='" + env.getOrDefault("JAVA_TOOL_OPTIONS", "")
                    + "' AWS_LAMBDA_RUNTIME_API=... " + String.join(" ", LambdaProcess.command(artifacts.runtimeDir(), handler(variant), worker.memoryMb(), env))
                    + "   # " + variant.label;
        }

        private String handler(Variant variant) {
            return variant == Variant.EMPTY_HANDLER ? EmptyHandler.class.getName() + "::handleRequest" : worker.handler();
        }

        Timing coldStart(Variant variant, int run) throws Exception {
            String runId = null;
            Message message = null;
            String event;
            if (variant == Variant.WORKER_TASK) {
                runId = String.format(Locale.ROOT, "cold-start-%d-%d", run + 1, System.currentTimeMillis());
                message = plannedTask(runId);
                event = SqsEventSourceMapping.sqsEvent(List.of(message), tasksQueueArn);
            } else {
                event = "{\"Records\":[]}";
            }
            String functionName = variant == Variant.EMPTY_HANDLER ? worker.functionName() + "-empty" : worker.functionName();
            Path functionDir = variant == Variant.EMPTY_HANDLER ? emptyDir : artifacts.workerDir();
            Path log = workDir.resolve("logs").resolve(variant.name().toLowerCase(Locale.ROOT) + "-" + (run + 1) + ".log");
            try (RuntimeApiServer api = new RuntimeApiServer("arn:aws:lambda:" + LocalStack.REGION + ":" + LocalStack.ACCOUNT
                    + ":function:" + functionName)) {
                // Queued before the spawn, so the runtime's first invocation/next is answered at once.
                CompletableFuture<RuntimeApiServer.Outcome> outcome = api.invoke(event, Duration.ofSeconds(worker.timeoutSeconds()));
                LambdaProcess process = LambdaProcess.start(functionDir, artifacts.runtimeDir(), functionName, handler(variant),
                        worker.memoryMb(), env, api.address(), false, log);
                try {
                    RuntimeApiServer.Outcome done = await(api, process, outcome, variant);
                    double cpu = process.cpuTime().map(d -> d.toNanos() / 1e9).orElse(-1.0);
                    double response = (done.arrivedNanos() - process.startedNanos()) / 1e9;
                    double init = (api.firstNextNanos().get() - process.startedNanos()) / 1e9;
                    check(variant, done, runId, process);
                    return new Timing(init, response, cpu);
                } finally {
                    process.close();
                    if (message != null) {
                        String receipt = message.receiptHandle();
                        stack.sqs().deleteMessage(b -> b.queueUrl(tasksQueueUrl).receiptHandle(receipt));
                    }
                }
            }
        }

        /**
         * Plans a two-task run with the producer's own code, receives its messages from the tasks queue and
         * returns the first; the other is deleted unseen.
         */
        private Message plannedTask(String runId) {
            RunSpec spec = new RunSpec(runId, "cold-start", List.of(), new RunSpec.HashSpec(2, HASHES, HASH_COST, RunSpec.HashSpec.DEFAULT_PREFIX));
            RunPlanner.create(stack.s3(), stack.sqs(), stack.dynamoDb(), table, tasksQueueUrl, stack.ref("CompletionsQueue"), TaskLimits.defaults(), 1)
                    .plan(spec, n -> { });
            List<Message> messages = new ArrayList<>();
            for (int attempt = 0; attempt < 5 && messages.size() < 2; attempt++) {
                messages.addAll(stack.sqs().receiveMessage(b -> b.queueUrl(tasksQueueUrl).maxNumberOfMessages(10).waitTimeSeconds(2)
                        .messageSystemAttributeNames(MessageSystemAttributeName.ALL).messageAttributeNames("All")).messages());
            }
            if (messages.size() != 2 || !messages.stream().allMatch(m -> m.body().contains("\"runId\":\"" + runId + "\""))) {
                throw new IllegalStateException("expected the 2 tasks of run " + runId + " on the tasks queue " + tasksQueueUrl + ", received " + messages);
            }
            messages.sort(Comparator.comparing(Message::body));
            String unused = messages.get(1).receiptHandle();
            stack.sqs().deleteMessage(b -> b.queueUrl(tasksQueueUrl).receiptHandle(unused));
            return messages.get(0);
        }

        private RuntimeApiServer.Outcome await(RuntimeApiServer api, LambdaProcess process, CompletableFuture<RuntimeApiServer.Outcome> outcome,
                                               Variant variant) throws Exception {
            long deadline = System.nanoTime() + PROCESS_DEADLINE.toNanos();
            while (!outcome.isDone()) {
                if (api.initError().isDone()) {
                    throw new IllegalStateException(variant.label + " failed to initialise: " + api.initError().get() + "\n" + process.outputTail(30));
                }
                if (!process.isAlive()) {
                    throw new IllegalStateException(variant.label + " exited before answering:\n" + process.outputTail(30));
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(variant.label + " did not answer within " + PROCESS_DEADLINE + ":\n" + process.outputTail(30));
                }
                Thread.sleep(5);
            }
            return outcome.get();
        }

        /** The response must be the real one: no failed message and the run complete, or the empty handler's answer. */
        private void check(Variant variant, RuntimeApiServer.Outcome done, String runId, LambdaProcess process) {
            if (!done.succeeded()) {
                throw new IllegalStateException(variant.label + " answered with an error (" + done.errorType() + "): " + done.error()
                        + "\n" + process.outputTail(30));
            }
            switch (variant) {
                case EMPTY_HANDLER -> {
                    if (!done.response().equals(Json.write(EmptyHandler.ANSWER))) {
                        throw new IllegalStateException("the empty handler answered " + done.response());
                    }
                }
                case WORKER_EMPTY_BATCH, WORKER_TASK -> {
                    Object failures = Json.parseObject(done.response()).get("batchItemFailures");
                    if (!(failures instanceof List<?> list) || !list.isEmpty()) {
                        throw new IllegalStateException(variant.label + " reported failures: " + done.response() + "\n" + process.outputTail(30));
                    }
                    if (variant == Variant.WORKER_TASK) {
                        RunProgress progress = RunProgress.read(stack.dynamoDb(), table, runId);
                        if (progress.planned() != 2 || progress.finished() != 1 || progress.done() != 1) {
                            throw new IllegalStateException("the worker answered but run " + runId + " does not show 1 of 2 tasks done: " + progress);
                        }
                    }
                }
            }
        }
    }

    private static double median(Map<Variant, List<Timing>> timings, Variant variant) {
        return Stats.median(timings.get(variant).stream().map(Timing::responseSeconds).toList());
    }

    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + ", " + parts[1] + ", " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static String seconds(double value) {
        return String.format(Locale.ROOT, "%.2f s", value);
    }

    private static String list(List<Double> values) {
        return String.join(", ", values.stream().map(v -> String.format(Locale.ROOT, "%.2f", v)).toList()) + " s";
    }
}
