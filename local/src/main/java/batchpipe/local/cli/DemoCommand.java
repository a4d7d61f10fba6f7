package batchpipe.local.cli;

import batchpipe.aggregator.stats.RunFigures;
import batchpipe.aggregator.Report;
import batchpipe.report.Display;
import batchpipe.aggregator.report.TextSummary;
import batchpipe.common.run.PlanResult;
import batchpipe.common.text.ControlCharacters;
import batchpipe.local.chaos.Books;
import batchpipe.local.chaos.Chaos;
import batchpipe.local.chaos.ChaosProfile;
import batchpipe.local.chaos.ChaosStackSettings;
import batchpipe.local.demo.Demo;
import batchpipe.local.run.RunWatcher;
import batchpipe.local.esm.SqsEventSourceMapping;
import batchpipe.local.report.ReportFiles;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.sample.SampleData;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.ProjectHome;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Runs the whole pipeline on a fresh local stack and writes its report.",
                "Loads seeded sample logs, invokes the producer as the schedule would, lets the event source mappings "
                    + "drive the workers until the run completes, runs the aggregator, prints a summary and writes report.json, "
                    + "report.md, tasks.csv, countby.csv and report.html into --out."})
final class DemoCommand implements Callable<Integer> {
    /** Seeded sample objects kept between demos (below the project folder); the same seed gives the same bytes. */
    static final String SAMPLE_CACHE = "out/sample-cache";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--objects", defaultValue = "24", description = "Sample log objects to scan (default: ${DEFAULT-VALUE}).")
    int objects;

    @Option(names = "--lines", description = "JSON lines per object (default: 20000; 2000 with --chaos).")
    Integer lines;

    @Option(names = "--hash-batches", defaultValue = "8", description = "Password batches to hash (default: ${DEFAULT-VALUE}).")
    int hashBatches;

    @Option(names = "--batch-size", description = "Passwords per batch (default: 25; 5 with --chaos).")
    Integer batchSize;

    @Option(names = "--cost", description = "bcrypt cost (default: 10; 8 with --chaos).")
    Integer cost;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the sample data (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", description = "Folder for the report files (default: out/<runId>).")
    Path out;

    @Option(names = "--timeout", defaultValue = "600", description = "Seconds to wait for the run (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Option(names = "--verbose", description = "Show the functions' log lines (JSON) on stderr.")
    boolean verbose;

    @Option(names = "--chaos", paramLabel = "PROFILES",
            description = "Inject faults into the workers and the event source mapping, then audit the books: all, or a comma-separated list of "
                    + "crash, abort, throttle, s3-break, sqs-fail, timeout, duplicate.")
    String chaosProfiles;

    @Option(names = "--chaos-rate", defaultValue = "0.1", description = "Probability of each injected fault at each chance (default: ${DEFAULT-VALUE}).")
    double chaosRate;

    @Option(names = "--chaos-seed", defaultValue = "1", description = "Seed of the fault injector, so a failure replays (default: ${DEFAULT-VALUE}).")
    long chaosSeed;

    @Option(names = "--chaos-crash-task", paramLabel = "TASK_ID",
            description = "Crash the worker instance on every delivery of this task (e.g. hash-000002): it must end failed through the "
                    + "dead-letter recorder and its run complete with that failure. Works alone or with --chaos; sets WorkerBatchSize=1 "
                    + "unless overridden, so the crash takes no neighbour with it.")
    String chaosCrashTask;

    @Mixin
    StackOptions stackOptions;

    @Mixin
    StackNames.LocalOnly localOnly;

    @Override
    public Integer call() throws Exception {
        localOnly.check(spec);
        boolean chaosMode = chaosProfiles != null || chaosCrashTask != null;
        // A chaos run's tasks are small, so that a batch fits the shrunk worker timeout (ChaosStackSettings).
        if (lines == null) lines = chaosMode ? 2_000 : 20_000;
        if (batchSize == null) batchSize = chaosMode ? 5 : 25;
        if (cost == null) cost = chaosMode ? 8 : 10;
        if (objects < 0 || lines < 1 || hashBatches < 0 || batchSize < 1 || batchSize > 1000 || timeoutSeconds < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--objects and --hash-batches must be >= 0, --lines >= 1, --batch-size 1 to 1000, --timeout >= 1");
        }
        if (objects == 0 && hashBatches == 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "nothing to do: --objects and --hash-batches are both 0");
        }
        if (out != null && ReportFiles.whyNotAFolder(out) != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out " + out + " " + ReportFiles.whyNotAFolder(out));
        }
        Chaos chaos = null;
        if (chaosMode) {
            try {
                chaos = Chaos.activate(chaosProfiles == null ? java.util.Set.of() : ChaosProfile.parse(chaosProfiles), chaosRate, chaosSeed,
                        false, chaosCrashTask);
                Map<String, String> parameters = ChaosStackSettings.parameterOverrides(stackOptions.parameterOverrides, chaosCrashTask != null);
                stackOptions.parameterOverrides.clear();
                stackOptions.parameterOverrides.putAll(parameters);
            } catch (IllegalArgumentException e) {
                Chaos.deactivate();
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        try {
            return run(chaos);
        } finally {
            Chaos.deactivate();
        }
    }

    private int run(Chaos chaos) throws Exception {
        PrintStream err = System.err;
        // The functions' JSON logs would drown the progress bar; --verbose shows them.
        PrintStream functionLog = verbose ? err : QuietStreams.discard();
        PrintStream stdout = System.out;
        // The functions log to stdout, as on Lambda: to stderr with --verbose, else nowhere.
        System.setOut(verbose ? err : functionLog);
        err.println("batchpipe demo: starting the local stack (ElasticMQ, S3Proxy, dynalite)...");
        double beforeStack = secondsSinceJvmStart();
        long stackStart = System.nanoTime();
        // The sample objects are generated while the emulators start: both take seconds, on different cores.
        try (SampleData samples = SampleData.generate(objects, lines, seed, ProjectHome.find().resolve(SAMPLE_CACHE));
             LocalStack stack = stackOptions.start(LocalStack.Ports.free())) {
            stack.useForThisProcess();
            long pipelineStart = System.nanoTime();
            try (LocalPipeline pipeline = LocalPipeline.start(stack, functionLog, true)) {
                Startup startup = new Startup(beforeStack, (pipelineStart - stackStart) / 1e9, (System.nanoTime() - pipelineStart) / 1e9);
                err.printf(Locale.ROOT, "batchpipe demo: %d objects x %d lines to scan, %d x %d passwords at cost %d%n",
                        objects, lines, hashBatches, batchSize, cost);
                ProgressBar bar = new ProgressBar(err, "tasks");
                Demo.Outcome outcome;
                try {
                    outcome = new Demo(pipeline).run(Demo.Settings.builder().objects(objects).linesPerObject(lines)
                            .hashBatches(hashBatches).hashBatchSize(batchSize).hashCost(cost).seed(seed).outDir(out)
                            .timeout(Duration.ofSeconds(timeoutSeconds)).build(), samples, bar::update);
                } catch (RunWatcher.RunStalledException stalled) {
                    bar.finish();
                    // System.out stays redirected: the functions still run and log until the pipeline closes,
                    // and their lines belong on stderr (--verbose) or nowhere, never in the summary.
                    stdout.println(stalled.getMessage());
                    if (chaos == null) throw stalled;
                    return audit(stdout, err, chaos, pipeline, stalled.runId());
                }
                bar.finish();
                String sampleSource = samples.objectsFromCache() + " of " + objects + " read from " + SAMPLE_CACHE;
                printSummary(stdout, outcome, pipeline, stack, startup, sampleSource);
                if (chaos != null) {
                    return audit(stdout, err, chaos, pipeline, outcome.runId());
                }
            }
        } finally {
            System.setOut(stdout);
        }
        return 0;
    }

    /**
     * After injected faults, the books must still balance. Waits first until nothing is in flight (no
     * handler running, not even one the runtime stopped waiting for, and no message in the tasks queue
     * or its dead-letter queue), then prints the faults, every task's books and the audit; exit 1 if
     * they do not balance.
     */
    private static int audit(PrintStream out, PrintStream err, Chaos chaos, LocalPipeline pipeline, String runId) throws InterruptedException {
        LocalStack stack = pipeline.stack();
        double waited = Books.settle(pipeline);
        err.printf(Locale.ROOT, "batchpipe demo: waited %.1f s for in-flight invocations and queues to settle before the audit%n", waited);
        out.printf(Locale.ROOT, "  chaos: profiles %s at rate %s, seed %d%s%n", chaos.profiles(), chaos.rate(), chaos.seed(),
                chaos.crashedTaskId() == null ? "" : ", task " + chaos.crashedTaskId() + " crashes on every delivery");
        chaos.injected().forEach((fault, n) -> out.printf(Locale.ROOT, "    injected %4d x %s%n", n, fault));
        Books.Audit audit = Books.audit(stack, runId);
        out.println("  every task's books:");
        audit.tasks().forEach(t -> out.println("    " + t.line()));
        out.println("  books: " + audit.summary());
        return audit.balanced() ? 0 : 1;
    }


    /** Seconds from the JVM's start to the stack's, the emulators' start, and the runtime and mappings' start. */
    private record Startup(double jvmAndCli, double emulators, double pipeline) {
    }

    /** The JVM's own uptime (the process start time the OS reports is rounded to whole seconds). */
    private static double secondsSinceJvmStart() {
        return java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() / 1e3;
    }

    private static void printSummary(PrintStream out, Demo.Outcome outcome, LocalPipeline pipeline, LocalStack stack, Startup startup,
                                     String sampleSource) {
        Report report = outcome.report();
        out.println(headline(outcome));
        TextSummary.lines(report).forEach(out::println);
        for (Map.Entry<String, SqsEventSourceMapping.Stats> e : pipeline.mappingStats().entrySet()) {
            SqsEventSourceMapping.Stats s = e.getValue();
            out.printf(Locale.ROOT, "  %s: %,d invocations, %,d messages delivered, %,d deleted, %,d returned to the queue%n",
                    e.getKey(), s.invocations(), s.messagesDelivered(), s.messagesDeleted(), s.messagesReturned());
        }
        out.printf(Locale.ROOT, "  dead-letter queue: %s messages%n", visibleMessages(stack, "TasksDeadLetterQueue"));
        Demo.Phases phases = outcome.phases();
        out.printf(Locale.ROOT, "  time: %.1f s since the JVM started: JVM and CLI %.1f s, emulators %.1f s, runtime and mappings %.1f s,"
                        + " waiting for and uploading the samples %.1f s (%s), planning %.1f s, running %.1f s, aggregating %.1f s,"
                        + " final report %.1f s%n", secondsSinceJvmStart(), startup.jvmAndCli(), startup.emulators(), startup.pipeline(),
                phases.seeding(), sampleSource, phases.planning(), phases.running(), phases.aggregating(), phases.reporting());
        out.println("  report: " + String.join(", ", ReportFiles.RUN_FILES.stream()
                .map(f -> outcome.outDir().resolve(f).toString()).toList()));
        out.println("  report in the local bucket: " + outcome.reportLocation().uri());
        out.println("  Run Completed event: " + outcome.completionEvent());
    }

    /** The summary's first line: the run, its status and tasks by status, which come from the run's records. */
    static String headline(Demo.Outcome outcome) {
        RunFigures figures = outcome.report().figures();
        PlanResult planned = outcome.plan();
        return ControlCharacters.escape(String.format(Locale.ROOT, "Run %s: %s, %s tasks (%d scan, %d hash) %s in %s (demo wall time %.1f s)",
                outcome.runId(), figures.status(), Display.count(figures.overall().tasks()), planned.plannedScan(), planned.plannedHash(),
                figures.overall().byStatus(), Display.seconds(figures.window().seconds()), outcome.wallSeconds()));
    }

    private static String visibleMessages(LocalStack stack, String queueLogicalId) {
        var attributes = stack.sqs().getQueueAttributes(b -> b.queueUrl(stack.ref(queueLogicalId))
                .attributeNamesWithStrings("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings();
        return attributes.get("ApproximateNumberOfMessages") + " visible, " + attributes.get("ApproximateNumberOfMessagesNotVisible") + " in flight";
    }
}
