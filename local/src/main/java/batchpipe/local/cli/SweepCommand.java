package batchpipe.local.cli;

import batchpipe.common.spec.InvalidRunSpecException;
import batchpipe.common.spec.RunSpec;
import batchpipe.common.spec.RunSpecParser;
import batchpipe.common.task.TaskIds;
import batchpipe.common.task.TaskLimits;
import batchpipe.common.text.ControlCharacters;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.runtime.ProcessLambdaRuntime;
import batchpipe.local.sample.SampleData;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.sweep.CpuCgroups;
import batchpipe.local.sweep.LocalSweep;
import batchpipe.local.sweep.SweepEstimate;
import batchpipe.local.report.StoredRunReports;
import batchpipe.local.report.SweepDocuments;
import batchpipe.local.report.SweepReport;
import batchpipe.local.template.StackTemplate;
import batchpipe.worker.task.Invocation;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = {"Runs the same run spec at several memory sizes (and architectures), each configuration a run of its own "
                + "tied by a sweep id, and recommends one.",
                "Locally each configuration's worker runs as separate processes under the Lambda Java runtime interface client, each "
                        + "instance in a cgroup with the CPU quota its memory buys on Lambda (memory / 1769 CPUs) and the memory limit. "
                        + "Writes out/<sweepId>/sweep.json, sweep.md and sweep.html (and each run's report in out/<runId>/); prints sweep.md."})
final class SweepCommand implements Callable<Integer> {
    private static final Set<String> ARCHITECTURES = Set.of("x86_64", "arm64");
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m)?");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--spec", required = true, paramLabel = "FILE", description = "The run spec JSON every configuration runs.")
    Path specFile;

    @Option(names = "--memory", required = true, split = ",", paramLabel = "MB",
            description = "Memory sizes in MB, 128 to 10240, e.g. 885,1769,2654,3538 (1,769 MB = one vCPU).")
    List<Integer> memories;

    @Option(names = "--arch", split = ",", paramLabel = "ARCH",
            description = "Architectures: x86_64, arm64 or both (default: with --stack the deployed worker's, else this machine's); locally only "
                    + "this machine's is measurable.")
    List<String> architectures;

    @Option(names = "--repeat", defaultValue = "1", paramLabel = "N", description = "Runs per configuration, 1 to 10, one after another, each a run of its own, also with --stack (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--strategy", defaultValue = "cost", paramLabel = "S",
            description = "What to recommend: cost (cheapest per run), speed (lowest p99), balanced (Power Tuning's weighted sum) (default: ${DEFAULT-VALUE}).")
    String strategy;

    @Option(names = "--balanced-weight", defaultValue = "0.5", paramLabel = "W",
            description = "With --strategy balanced: the weight of cost, 0 to 1 (1 - W weighs p99) (default: ${DEFAULT-VALUE}).")
    double balancedWeight;

    @Option(names = "--max-p99", paramLabel = "DURATION",
            description = "Recommend the cheapest configuration whose p99 task duration is within this budget: 2500ms, 2.5s, 1m (a bare number is ms).")
    String maxP99;

    @Option(names = {"--stack", "--stack-name"}, paramLabel = "NAME",
            description = "Sweep a deployed stack's worker on AWS (in the region and with the credentials --region and --profile choose, as the "
                    + "AWS CLI): after an estimate of the Lambda compute and your confirmation, a version and an alias per configuration, the "
                    + "tasks delivered by direct invocation; the worker's memory is restored afterwards. See docs/SWEEP.md.")
    String deployedStack;

    @Option(names = "--concurrency", defaultValue = "5", paramLabel = "N",
            description = "With --stack: invocations at once, 1 to 100 (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--yes", description = "Do not ask for confirmation before running.")
    boolean yes;

    @Option(names = "--timeout", defaultValue = "1800", paramLabel = "SECONDS", description = "Seconds each configuration's run may take, 1 to 86400; a run not complete by then fails its configuration and the sweep "
                    + "goes on (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Option(names = "--out", paramLabel = "DIR", description = "Where the sweep's files go (default: out/<sweepId>); each run's report goes to out/<runId>/.")
    Path outDir;

    @Option(names = "--sample-objects", defaultValue = "4", paramLabel = "N",
            description = "Locally: sample log objects (20,000 lines each) seeded under s3://<stack>-databucket/logs/ for scan specs, 1 to 200 (default: ${DEFAULT-VALUE}).")
    int sampleObjects;

    /** For tests: read the mount table from this file instead of /proc/mounts (a fake one without a cpu controller). */
    @Option(names = "--proc-mounts", hidden = true)
    Path procMounts;

    @Mixin
    StackOptions stackOptions;

    @Mixin
    AwsOptions awsOptions;

    private final batchpipe.local.run.StackClients.Factory stackClients;

    SweepCommand() {
        this(batchpipe.local.run.StackClients::connect);
    }

    /** With the clients {@code --stack} uses made by {@code stackClients} (a test's). */
    SweepCommand(batchpipe.local.run.StackClients.Factory stackClients) {
        this.stackClients = stackClients;
    }

    @Override
    public Integer call() throws Exception {
        awsOptions.check(spec, deployedStack);
        // Checked now, before anything starts; on a stack without --arch they are made again for the worker's architecture.
        List<LocalSweep.Configuration> configurations = configurations(architectures != null ? architectures
                : List.of(Invocation.normalizedArchitecture(System.getProperty("os.arch"))));
        if (sampleObjects < 1 || sampleObjects > 200) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--sample-objects must be between 1 and 200, got " + sampleObjects);
        }
        if (timeoutSeconds < 1 || timeoutSeconds > 86_400) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--timeout must be between 1 and 86400 seconds, got " + timeoutSeconds);
        }
        if (concurrency < 1 || concurrency > 100) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--concurrency must be between 1 and 100, got " + concurrency);
        }
        Long maxP99Ms = maxP99 == null ? null : parseDuration(maxP99);
        if (!SweepReport.STRATEGIES.contains(strategy)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--strategy must be one of " + SweepReport.STRATEGIES + ", got '"
                    + ControlCharacters.escape(strategy) + "'");
        }
        if (!(balancedWeight >= 0 && balancedWeight <= 1)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--balanced-weight must be between 0 and 1, got " + balancedWeight);
        }
        if (!Files.isRegularFile(specFile)) throw new CommandLine.ParameterException(spec.commandLine(), "spec file not found: " + specFile);
        String specText = Files.readString(specFile);
        if (deployedStack != null) {
            PrintStream out = System.out;
            // stdout carries only sweep.md, as locally: the planner's JSON log lines go to stderr.
            try (StdoutRedirect toStderr = StdoutRedirect.to(System.err)) {
                return onAws(specText, maxP99Ms, out);
            }
        }
        StackTemplate template = stackOptions.loadTemplate();
        TaskLimits limits = new TaskLimits(Integer.parseInt(template.parameters().getOrDefault("MaxHashCost", Integer.toString(TaskLimits.DEFAULT_MAX_HASH_COST))));
        RunSpec sweepSpec = parse(specText, limits, "");
        Path home = ProjectHome.find();
        ProcessLambdaRuntime.Artifacts artifacts = new ProcessLambdaRuntime.Artifacts(home.resolve("deploy/runtime/target/runtime"),
                home.resolve("deploy/functions/worker/target/function"));
        if (!Files.isDirectory(artifacts.runtimeDir()) || !Files.isRegularFile(artifacts.functionDir().resolve("batchpipe/worker/WorkerHandler.class"))) {
            throw new IllegalStateException("the worker's Lambda folder (" + artifacts.functionDir() + ") or the runtime interface client ("
                    + artifacts.runtimeDir() + ") is missing: run ./mvnw -B -DskipTests package first");
        }

        CpuCgroups.Support cgroups = procMounts == null ? CpuCgroups.detect() : CpuCgroups.detect(Path.of("/proc/self/cgroup"), procMounts);
        String sweepId = "sweep-" + TaskIds.newRunId(Instant.now());
        PrintStream out = System.out;
        PrintStream err = System.err;
        // The first line says whether CPU is capped: without it the durations mean nothing for Lambda.
        err.println("batchpipe sweep " + sweepId + ": " + cgroups.describe());
        int cores = Runtime.getRuntime().availableProcessors();
        err.println("batchpipe sweep: " + configurations.size() + " configuration(s) on " + cores + " cores: "
                + String.join(", ", configurations.stream().map(c -> c.key() + String.format(Locale.ROOT, " (%.3f vCPU)", c.memoryMb() / 1769.0)).toList()));
        if (!yes && !confirmed(err)) {
            err.println("batchpipe sweep: not confirmed; nothing was run (--yes skips the question)");
            return 1;
        }
        Path sweepDir = outDir != null ? outDir : Path.of("out", sweepId);
        SweepReport.Settings settings = new SweepReport.Settings(sweepId, sweepSpec.label(), cgroups.describe(), cgroups.available(), strategy, balancedWeight, maxP99Ms);
        SweepReport report;
        try (StdoutRedirect toStderr = StdoutRedirect.to(err)) {
            try (LocalStack stack = stackOptions.start(LocalStack.Ports.free())) {
                stack.useForThisProcess();
                SampleData.seed(stack.s3(), stack.ref("DataBucket"), sampleObjects, 20_000, SampleData.DEFAULT_SEED);
                try (StdoutRedirect quiet = StdoutRedirect.discarded();
                     LocalPipeline ignored = LocalPipeline.start(stack, QuietStreams.discard(), true, Set.of(LocalSweep.WORKER))) {
                    LocalSweep sweep = new LocalSweep(stack, cgroups, artifacts, cores, err, Duration.ofSeconds(timeoutSeconds), Path.of("out"), limits);
                    ProgressBar bar = new ProgressBar(err, "tasks");
                    report = sweep.run(sweepId, sweepSpec, configurations, settings, bar::update);
                    bar.finish();
                }
            }
        }
        return write(report, sweepDir, out, err);
    }

    /**
     * On a deployed stack: the worker (and its twin for the other architecture) through versions and
     * aliases of the sweep's own, the tasks delivered by direct invocation; see docs/SWEEP.md.
     */
    private int onAws(String specText, Long maxP99Ms, PrintStream out) throws Exception {
        PrintStream err = System.err;
        RunSpec runSpec = parse(specText, TaskLimits.defaults(), "");
        try (batchpipe.local.run.StackClients clients = stackClients.connect(awsOptions.target(spec, deployedStack))) {
            var cloudFormation = clients.cloudFormation();
            var lambda = clients.lambda();
            var s3 = clients.s3();
            var sqs = clients.sqs();
            var dynamoDb = clients.dynamoDb();
            Map<String, String> outputs;
            try {
                outputs = batchpipe.local.run.DeployedStack.outputs(cloudFormation, deployedStack);
            } catch (RuntimeException e) {
                throw StackNames.deployedStackNotFound(spec, deployedStack, e, clients);
            }
            String table = batchpipe.local.run.DeployedStack.required(outputs, deployedStack, "RunsTableName");
            String queueUrl = batchpipe.local.run.DeployedStack.required(outputs, deployedStack, "TasksQueueUrl");
            String worker = batchpipe.local.run.DeployedStack.required(outputs, deployedStack, "WorkerFunctionName");
            Map<String, String> functions = new LinkedHashMap<>();
            var workerConfig = lambda.getFunctionConfiguration(b -> b.functionName(worker));
            functions.put(workerConfig.architecturesAsStrings().get(0), worker);
            String twin = outputs.get("WorkerTwinFunctionName");
            if (twin != null && !twin.isBlank()) {
                functions.put(lambda.getFunctionConfiguration(b -> b.functionName(twin)).architecturesAsStrings().get(0), twin);
            }
            // The template deploys arm64 by default: without --arch, sweep the architecture the worker was deployed on.
            List<LocalSweep.Configuration> configurations = configurations(architectures != null ? architectures
                    : List.of(workerConfig.architecturesAsStrings().get(0)));
            int maxReceiveCount = Integer.parseInt(workerConfig.environment().variables().getOrDefault("MAX_RECEIVE_COUNT", "3"));
            String queueArn = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNamesWithStrings("QueueArn")).attributesAsStrings().get("QueueArn");
            String sweepId = "sweep-" + TaskIds.newRunId(Instant.now());
            List<batchpipe.local.sweep.AliasSweep.Configuration> aliasConfigurations = configurations.stream()
                    .map(c -> new batchpipe.local.sweep.AliasSweep.Configuration(c.key(), c.architecture(), c.memoryMb())).toList();
            batchpipe.local.sweep.AliasSweep aliases = new batchpipe.local.sweep.AliasSweep(lambda, sweepId, functions, queueArn,
                    10, concurrency, maxReceiveCount, Duration.ofMinutes(10), d -> Thread.sleep(d.toMillis()), err);
            for (var c : aliasConfigurations) aliases.functionFor(c.architecture()); // a missing twin, before asking anything
            // The worker rejects a cost above its own MAX_HASH_COST: plan against that, not the default.
            TaskLimits stackLimits = new TaskLimits(Integer.parseInt(workerConfig.environment().variables()
                    .getOrDefault("MAX_HASH_COST", Integer.toString(TaskLimits.DEFAULT_MAX_HASH_COST))));
            runSpec = parse(specText, stackLimits, " (stack " + deployedStack + ")");
            batchpipe.local.sweep.AwsSweep aws = new batchpipe.local.sweep.AwsSweep(s3, dynamoDb, table, stackLimits, concurrency, err);
            SweepEstimate.Workload work = aws.workload(runSpec);
            String label = runSpec.label();
            SweepEstimate.Reference reference = estimateReference(s3, outputs.get("ReportsLocation"), label, err);
            var prices = batchpipe.aggregator.cost.PriceTable.defaults();
            err.println("batchpipe sweep " + sweepId + " on stack " + deployedStack + " in " + clients.target().describe()
                    + " (workers: " + functions + "): " + configurations.size() + " configuration run(s) of " + work.tasks() + " tasks each ("
                    + work.hashTasks() + " hash, " + work.scanTasks() + " scan), delivered " + concurrency
                    + " invocations at once to a version and alias of its own per configuration");
            err.println("  estimate: " + SweepEstimate.assumptions(reference, work));
            BigDecimal total = BigDecimal.ZERO;
            for (LocalSweep.Configuration c : configurations) {
                SweepEstimate.Estimate e = SweepEstimate.estimate(work, reference, c.key(), c.architecture(), c.memoryMb(), prices);
                total = total.add(e.lambdaCompute());
                err.println("  " + c.key() + ": estimated Lambda compute $" + e.lambdaCompute().toPlainString() + " (" + e.basis() + ")");
            }
            err.println("  in all: estimated Lambda compute $" + total.round(new java.math.MathContext(3)).toPlainString());
            if (!yes && !confirmed(err)) {
                err.println("batchpipe sweep: not confirmed; nothing was changed (--yes skips the question)");
                return 1;
            }
            Thread restoreOnExit = new Thread(aliases::restore, "sweep-restore");
            Runtime.getRuntime().addShutdownHook(restoreOnExit);
            List<batchpipe.local.sweep.AwsSweep.ConfigurationRun> runs;
            try {
                runs = batchpipe.local.sweep.AwsSweep.run(aliases, sweepId, runSpec, configurations, aws.runs(), concurrency,
                        Duration.ofSeconds(timeoutSeconds), err);
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(restoreOnExit);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running
                }
            }
            List<SweepReport.Outcome> outcomes = new ArrayList<>();
            for (batchpipe.local.sweep.AwsSweep.ConfigurationRun run : runs) {
                LocalSweep.Configuration c = run.configuration();
                if (run.incomplete() != null) {
                    outcomes.add(run.incomplete());
                    continue;
                }
                try {
                    outcomes.add(aws.awaitReport(run.runId(), c, concurrency, Duration.ofSeconds(timeoutSeconds)));
                } catch (IllegalStateException noReport) {
                    // Complete, but the aggregator wrote no report in time: failed with that reason, the others still reported.
                    outcomes.add(new SweepReport.Incomplete(c.key(), c.architecture(), c.memoryMb(), c.repeat(),
                            c.roundedShare(), concurrency, run.runId(), noReport.getMessage(), null));
                }
            }
            SweepReport report = SweepReport.of(new SweepReport.Settings(sweepId, label, "AWS Lambda on stack " + deployedStack
                    + ": CPU in proportion to memory, as Lambda gives it", true, strategy, balancedWeight, maxP99Ms), outcomes);
            return write(report, outDir != null ? outDir : Path.of("out", sweepId), out, err);
        }
    }

    /**
     * The sweep's spec, valid under {@code limits}, and naming no run or sweep: a sweep names its runs itself.
     *
     * @param where what to add to the file's name in an error message: the stack whose limits refused it
     */
    private RunSpec parse(String specText, TaskLimits limits, String where) {
        RunSpec sweepSpec;
        try {
            sweepSpec = new RunSpecParser(limits).parse(specText);
        } catch (InvalidRunSpecException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), specFile + where + ": " + e.getMessage());
        }
        if (sweepSpec.runId() != null || sweepSpec.sweepId() != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), specFile + ": a sweep names its runs itself; remove 'runId' and 'sweepId'");
        }
        return sweepSpec;
    }

    /**
     * The newest stored report of the spec's label in the stack's reports (its ReportsLocation output), for the
     * estimate; null (the estimate then comes from the spec) when there is none or they cannot be read.
     */
    private static SweepEstimate.Reference estimateReference(software.amazon.awssdk.services.s3.S3Client s3, String reportsLocation, String label,
                                                             PrintStream err) {
        if (label == null || reportsLocation == null || reportsLocation.isBlank()) return null;
        try {
            ReportsAt at = ReportsAt.parse(reportsLocation);
            return SweepEstimate.reference(StoredRunReports.inBucket(s3, at.bucket(),
                    batchpipe.aggregator.delivery.ReportStore.normalisePrefix(at.prefix())).reports(), label);
        } catch (RuntimeException e) {
            err.println("batchpipe sweep: could not read the stored reports in " + reportsLocation + " (" + e.getMessage()
                    + "); estimating from the spec");
            return null;
        }
    }

    private static int write(SweepReport report, Path sweepDir, PrintStream out, PrintStream err) throws java.io.IOException {
        Files.createDirectories(sweepDir);
        for (Map.Entry<String, String> file : SweepDocuments.render(report).entrySet()) {
            Files.writeString(sweepDir.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
        }
        for (Map.Entry<String, String> chart : SweepDocuments.charts(report).entrySet()) {
            Files.writeString(sweepDir.resolve(chart.getKey() + ".svg"), SweepDocuments.standaloneSvg(chart.getValue()), StandardCharsets.UTF_8);
        }
        out.print(ControlCharacters.escapeKeepingLines(SweepDocuments.markdown(report)));
        out.flush();
        err.println("batchpipe sweep: sweep.json, sweep.md, sweep.html and the charts in " + sweepDir);
        return 0;
    }

    private List<LocalSweep.Configuration> configurations(List<String> architectures) {
        List<LocalSweep.Configuration> configurations = new ArrayList<>();
        if (repeat < 1 || repeat > 10) throw new CommandLine.ParameterException(spec.commandLine(), "--repeat must be between 1 and 10, got " + repeat);
        Map<String, Boolean> seen = new LinkedHashMap<>();
        for (String arch : architectures) {
            if (!ARCHITECTURES.contains(arch)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--arch must be x86_64 or arm64, got '" + ControlCharacters.escape(arch) + "'");
            }
            for (int memory : memories) {
                if (memory < 128 || memory > 10_240) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "--memory sizes must be between 128 and 10240 MB (Lambda's range), got " + memory);
                }
                if (seen.put(arch + "-" + memory, true) != null) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "--memory/--arch name " + arch + " " + memory + " MB twice");
                }
                for (int r = 1; r <= repeat; r++) configurations.add(new LocalSweep.Configuration(arch, memory, r));
            }
        }
        return configurations;
    }

    /** 2500ms, 2.5s, 1m, or a bare number of milliseconds. */
    long parseDuration(String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max-p99 must be a duration like 2500ms, 2.5s or 1m, got '"
                    + ControlCharacters.escape(text) + "'");
        }
        double value = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        double ms = switch (unit) {
            case "s" -> value * 1000;
            case "m" -> value * 60_000;
            default -> value;
        };
        if (ms < 1) throw new CommandLine.ParameterException(spec.commandLine(), "--max-p99 must be at least 1 ms, got '" + ControlCharacters.escape(text) + "'");
        return Math.round(ms);
    }

    private static boolean confirmed(PrintStream err) {
        if (System.console() == null) return true; // not interactive (a script, a test): nothing to ask
        err.print("batchpipe sweep: run them? [y/N] ");
        err.flush();
        String answer = System.console().readLine();
        return answer != null && (answer.trim().equalsIgnoreCase("y") || answer.trim().equalsIgnoreCase("yes"));
    }
}
