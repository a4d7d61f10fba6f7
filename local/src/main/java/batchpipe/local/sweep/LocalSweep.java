package batchpipe.local.sweep;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.ReportLineSource;
import batchpipe.aggregator.ReportService;
import batchpipe.aggregator.RunReader;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.cost.ReportLine;
import batchpipe.aggregator.delivery.JsonLinesRunEvents;
import batchpipe.aggregator.delivery.ReportStore;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.spec.RunSpec;
import batchpipe.common.spec.RunSpecParser;
import batchpipe.common.task.TaskLimits;
import batchpipe.local.esm.SqsEventSourceMapping;
import batchpipe.local.report.ReportFiles;
import batchpipe.local.report.SweepReport;
import batchpipe.local.run.RunWatcher;
import batchpipe.local.runtime.InvocationResult;
import batchpipe.local.runtime.ProcessLambdaRuntime;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.template.FunctionDefinition;
import batchpipe.producer.RunPlanner;
import batchpipe.worker.pool.PoolSize;
import batchpipe.worker.task.Invocation;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * A sweep on the local stack: the same run spec once per configuration (memory size × architecture ×
 * repeat), one after another, each a run of its own tied to the others by the sweep id on its run record.
 * The worker of each configuration runs as separate processes under the Lambda Java runtime interface
 * client, each instance in a cgroup of its own with the CPU quota its memory buys on Lambda
 * ({@code memory / 1769} CPUs) and the memory limit; the producer's planning and the aggregator run in
 * this JVM as for {@code ./batchpipe run}.
 *
 * <p>Within a configuration at most {@code floor(cores / share)} instances run at once, so that the
 * machine's cores can serve every instance its whole quota and none is slowed by another; a share larger
 * than the machine's cores is not run ("beyond this machine"), and an architecture other than this
 * machine's is "not measurable here". Where cgroups cannot be made, every configuration still runs, on
 * all cores, and the sweep says "CPU not capped" and recommends nothing.
 */
public final class LocalSweep {
    public static final String WORKER = "WorkerFunction";

    /** One configuration's place in the sweep. */
    public record Configuration(String architecture, int memoryMb, int repeat) {
        public String key() {
            return architecture + "-" + memoryMb + (repeat > 1 ? "#" + repeat : "");
        }

        double vcpuShare() {
            return memoryMb / (double) PoolSize.MB_PER_VCPU;
        }

        /** {@link #vcpuShare()} to three decimals, as the sweep's reports show it. */
        public double roundedShare() {
            return round(vcpuShare());
        }

        /** Its run's id: {@code <sweepId>-<arch>-<memory>}, with {@code -r<n>} for a repeat beyond the first. */
        public String runId(String sweepId) {
            return sweepId + "-" + architecture + "-" + memoryMb + (repeat > 1 ? "-r" + repeat : "");
        }

        /** The spec of its run: the sweep's spec with the run's id, the sweep id, and the label followed by its key. */
        public RunSpec runSpec(RunSpec sweepSpec, String sweepId) {
            return sweepSpec.withRunId(runId(sweepId)).withSweepId(sweepId)
                    .withLabel((sweepSpec.label() != null ? sweepSpec.label() + " " : "sweep ") + key());
        }
    }

    private final LocalStack stack;
    private final CpuCgroups.Support cgroups;
    private final ProcessLambdaRuntime.Artifacts artifacts;
    private final int cores;
    private final PrintStream err;
    private final Duration timeout;
    private final Path outRoot;
    private final TaskLimits limits;
    /** Caps made and not yet removed, and the runtime running now: what Ctrl-C must clean up. */
    private final Set<CpuCgroups.Cap> openCaps = ConcurrentHashMap.newKeySet();
    private volatile ProcessLambdaRuntime current;

    public LocalSweep(LocalStack stack, CpuCgroups.Support cgroups, ProcessLambdaRuntime.Artifacts artifacts, int cores, PrintStream err,
                      Duration timeout, Path outRoot, TaskLimits limits) {
        this.stack = stack;
        this.cgroups = cgroups;
        this.artifacts = artifacts;
        this.cores = cores;
        this.err = err;
        this.timeout = timeout;
        this.outRoot = outRoot;
        this.limits = limits;
    }

    /** How many instances of this share the machine's cores can serve at once, each its whole quota. */
    static int instancesAtOnce(int cores, double share) {
        return Math.max(1, (int) Math.floor(cores / share + 1e-9));
    }

    /** Runs every configuration in order and reports the sweep; the per-configuration reports land in out/&lt;runId&gt;/. */
    public SweepReport run(String sweepId, RunSpec sweepSpec, List<Configuration> configurations, SweepReport.Settings settings,
                           BiConsumer<Long, Long> progress) throws IOException, InterruptedException {
        Thread cleanup = new Thread(this::cleanUp, "sweep-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            List<SweepReport.Outcome> outcomes = new ArrayList<>();
            String machine = Invocation.normalizedArchitecture(System.getProperty("os.arch"));
            for (Configuration c : configurations) {
                double share = c.vcpuShare();
                if (!c.architecture().equals(machine)) {
                    outcomes.add(new SweepReport.NotRun(c.key(), c.architecture(), c.memoryMb(), c.repeat(), round(share), SweepReport.NOT_MEASURABLE_HERE,
                            "this machine is " + machine + "; " + c.architecture() + " runs on AWS only (--stack)"));
                    err.println("batchpipe sweep: " + c.key() + ": not measurable here (this machine is " + machine + ")");
                    continue;
                }
                if (cgroups.available() && share > cores + 1e-9) {
                    outcomes.add(new SweepReport.NotRun(c.key(), c.architecture(), c.memoryMb(), c.repeat(), round(share), SweepReport.BEYOND_THIS_MACHINE,
                            String.format(Locale.ROOT, "%.2f vCPUs is more than this machine's %d cores", share, cores)));
                    err.printf(Locale.ROOT, "batchpipe sweep: %s: beyond this machine (%.2f vCPUs, %d cores)%n", c.key(), share, cores);
                    continue;
                }
                outcomes.add(measure(sweepId, sweepSpec, c, progress));
            }
            return SweepReport.of(settings, outcomes);
        } finally {
            cleanUp();
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
    }

    /**
     * One configuration's run, measured and reported; or, when the run does not complete within the
     * timeout (or stalls), {@link SweepReport.Incomplete} with the reason, after the same clean-up (its
     * processes stopped, its cgroups removed) and with its tasks' messages purged from the queues, so that
     * none of them reaches the next configuration's workers.
     */
    private SweepReport.Outcome measure(String sweepId, RunSpec sweepSpec, Configuration c, BiConsumer<Long, Long> progress)
            throws IOException, InterruptedException {
        double share = c.vcpuShare();
        int instances = instancesAtOnce(cores, share);
        String runId = c.runId(sweepId);
        RunSpec spec = new RunSpecParser(limits).check(c.runSpec(sweepSpec, sweepId));
        long memoryBytes = c.memoryMb() * 1024L * 1024L;
        Integer jvmProcessors = cgroups.available() ? probeProcessors(sweepId, c, share, memoryBytes) : null;
        err.printf(Locale.ROOT, "batchpipe sweep: %s: %.3f vCPU share, %d instance%s at once%s; run %s%n", c.key(), share, instances,
                instances == 1 ? "" : "s", jvmProcessors == null ? "" : ", a JVM in its cgroup sees " + jvmProcessors + " processor(s)", runId);

        FunctionDefinition worker = stack.function(WORKER);
        Map<String, String> env = new LinkedHashMap<>(worker.environment());
        env.putAll(stack.endpointSettings());
        long[] throttling = new long[2];
        double[] throttledSeconds = new double[1];
        ProcessLambdaRuntime.Placements placements = n -> placement(sweepId, c, n, share, memoryBytes, throttling, throttledSeconds);
        List<InvocationResult> history;
        RunWatcher.RunIncompleteException incomplete = null;
        Path logDir = outRoot.resolve(runId).resolve("worker-logs");
        try (ProcessLambdaRuntime runtime = new ProcessLambdaRuntime(worker, env, artifacts, c.memoryMb(), instances, placements, logDir)) {
            current = runtime;
            FunctionDefinition.SqsEventSource event = worker.sqsEvents().get(0);
            FunctionDefinition.SqsEventSource atOnce = new FunctionDefinition.SqsEventSource(event.name(), event.queueLogicalId(), event.batchSize(),
                    event.maximumBatchingWindowSeconds(), instances, event.reportBatchItemFailures());
            String queueUrl = stack.ref(event.queueLogicalId());
            SqsEventSourceMapping mapping = new SqsEventSourceMapping(stack.sqs(), queueUrl,
                    stack.physicalResources().get(event.queueLogicalId()).attributes().get("Arn"), WORKER, atOnce, runtime::invoke, err, 1);
            mapping.start();
            try {
                String table = stack.ref("RunsTable");
                RunPlanner planner = RunPlanner.create(stack.s3(), stack.sqs(), stack.dynamoDb(), table, queueUrl,
                        stack.ref("CompletionsQueue"), limits, 8);
                planner.plan(spec, sent -> { });
                String deadLetters = stack.ref("TasksDeadLetterQueue");
                RunWatcher watcher = new RunWatcher(stack.dynamoDb(), stack.s3(), table,
                        () -> RunWatcher.queueEmpty(stack.sqs(), queueUrl) && RunWatcher.queueEmpty(stack.sqs(), deadLetters));
                try {
                    watcher.awaitCompletion(runId, timeout, progress);
                    watcher.awaitSummary(runId, timeout);
                } catch (RunWatcher.RunIncompleteException e) {
                    incomplete = e;
                }
            } finally {
                mapping.close();
                // Before the next configuration's run sends its tasks, or this mapping could take one and sit on it.
                mapping.awaitStopped(Duration.ofSeconds(10));
            }
            history = runtime.history();
        } finally {
            current = null;
        }
        CpuCgroups.Throttling total = new CpuCgroups.Throttling(throttling[0], throttling[1], throttledSeconds[0]);
        String quota = cgroups.available() ? String.format(Locale.ROOT, "%d/%d us per instance", Math.round(share * CpuCgroups.PERIOD_US), CpuCgroups.PERIOD_US) : null;
        if (incomplete != null) {
            purgeTasks(worker);
            err.printf(Locale.ROOT, "batchpipe sweep: %s: run %s %s; marked failed, its remaining messages purged, going on%n", c.key(), runId,
                    incomplete.reason());
            return new SweepReport.Incomplete(c.key(), c.architecture(), c.memoryMb(), c.repeat(), round(share), instances, runId, incomplete.reason(),
                    new SweepReport.CpuEvidence(quota, total.periods(), total.throttledPeriods(), Math.round(total.throttledSeconds() * 1000) / 1000.0,
                            jvmProcessors, List.of()));
        }

        List<ReportLine> lines = new ArrayList<>();
        String architecture = Invocation.normalizedArchitecture(System.getProperty("os.arch"));
        for (InvocationResult r : history) {
            lines.add(new ReportLine(r.requestId(), worker.functionName(), architecture, r.memorySizeMb(), r.durationMs(), r.billedMs(), r.initMs(),
                    r.maxMemoryMb() > 0 ? Math.toIntExact(r.maxMemoryMb()) : null));
        }
        String source = "the sweep's worker processes under Lambda's Java runtime interface client: all " + lines.size()
                + " worker invocations of configuration " + c.key() + " (" + (quota == null ? "CPU not capped: " + cgroups.unavailable()
                : "cgroup v" + cgroups.version() + " CPU quota " + quota + ", memory limit " + c.memoryMb() + " MiB; cpu.stat: "
                + total.throttledPeriods() + " of " + total.periods() + " periods throttled, " + String.format(Locale.ROOT, "%.1f", total.throttledSeconds())
                + " s held back") + "); the aggregator ran in-process and is not priced";
        Map<String, String> aggregator = stack.function("AggregatorFunction").environment();
        String table = stack.ref("RunsTable");
        ReportService reports = new ReportService(new RunReader(stack.dynamoDb(), table), stack.dynamoDb(), table, PriceTable.defaults(),
                CostAssumptions.defaults(), metrics -> { }, Clock.systemUTC(), ReportLineSource.NONE,
                new ReportStore(stack.s3(), aggregator.get("REPORT_BUCKET"), aggregator.get("REPORT_PREFIX")),
                new JsonLinesRunEvents(stack.runEventsFile(), Clock.systemUTC()));
        Report summary;
        try (RunReport report = reports.reportAgain(runId, new ReportInputs(lines, source, CostAssumptions.defaults()))) {
            ReportFiles.write(outRoot.resolve(runId), report); // then its tasks.csv spill is deleted: a sweep writes one per measurement
            summary = report.summary();
        }
        SweepReport.CpuEvidence evidence = new SweepReport.CpuEvidence(quota, total.periods(), total.throttledPeriods(),
                Math.round(total.throttledSeconds() * 1000) / 1000.0, jvmProcessors, summary.figures().overall().workers().threadsSeen());
        err.printf(Locale.ROOT, "batchpipe sweep: %s: run %s %s, %d invocations, %d of %d CFS periods throttled%n", c.key(), runId,
                summary.figures().status(), lines.size(), total.throttledPeriods(), total.periods());
        return new SweepReport.Measured(c.key(), c.architecture(), c.memoryMb(), c.repeat(), round(share), instances, summary, evidence,
                // the per-task rates need the task records themselves; a sweep's runs are small enough to read whole
                hashRates(new RunReader(stack.dynamoDb(), table).read(runId).tasks()));
    }

    /** Empties the tasks queue and its dead-letter queue (visible and in-flight messages) of a run that did not complete. */
    private void purgeTasks(FunctionDefinition worker) {
        String queueUrl = stack.ref(worker.sqsEvents().get(0).queueLogicalId());
        for (String queue : List.of(queueUrl, stack.ref("TasksDeadLetterQueue"))) {
            stack.sqs().purgeQueue(b -> b.queueUrl(queue));
        }
    }

    /** Hashes per second of each done hash task: its hashes ÷ its duration. */
    static List<Double> hashRates(List<TaskRecord> tasks) {
        List<Double> rates = new ArrayList<>();
        for (TaskRecord t : tasks) {
            if (t.hash() == null || t.status() != TaskStatus.DONE || t.durationMs() <= 0) continue;
            rates.add(t.hash().hashes() * 1000.0 / t.durationMs());
        }
        return rates;
    }

    private ProcessLambdaRuntime.Placement placement(String sweepId, Configuration c, int instance, double share, long memoryBytes,
                                                     long[] throttling, double[] throttledSeconds) throws IOException {
        if (!cgroups.available()) {
            return new ProcessLambdaRuntime.Placement() {
                @Override
                public List<String> launcher() {
                    return List.of();
                }

                @Override
                public void close() {
                }
            };
        }
        CpuCgroups.Cap cap = cgroups.create(cgroupName(sweepId, c, "i" + instance), share, memoryBytes);
        openCaps.add(cap);
        return new ProcessLambdaRuntime.Placement() {
            @Override
            public List<String> launcher() {
                return cap.launcher();
            }

            @Override
            public void close() throws IOException {
                // The kernel's count goes with the cgroup: read it first.
                CpuCgroups.Throttling t = cap.throttling();
                synchronized (throttling) {
                    throttling[0] += t.periods();
                    throttling[1] += t.throttledPeriods();
                    throttledSeconds[0] += t.throttledSeconds();
                }
                cap.close();
                openCaps.remove(cap);
            }
        };
    }

    private static String cgroupName(String sweepId, Configuration c, String suffix) {
        return ("batchpipe-" + ProcessHandle.current().pid() + "-" + sweepId + "-" + c.architecture() + "-" + c.memoryMb() + "-r" + c.repeat() + "-" + suffix)
                .replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    /**
     * What a JVM started in such a cgroup reports as availableProcessors(): the JVM reads the CFS quota
     * (rounded up to whole CPUs), and the worker's pool is sized no larger than that.
     */
    private Integer probeProcessors(String sweepId, Configuration c, double share, long memoryBytes) throws IOException, InterruptedException {
        try (CpuCgroups.Cap cap = cgroups.create(cgroupName(sweepId, c, "probe"), share, memoryBytes)) {
            openCaps.add(cap);
            try {
                List<String> command = new ArrayList<>(cap.launcher());
                command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xshare:auto", "-XX:TieredStopAtLevel=1",
                        "-cp", System.getProperty("java.class.path"), ProcessorsProbe.class.getName()));
                Process probe = new ProcessBuilder(command).redirectErrorStream(true).start();
                String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                if (!probe.waitFor(30, TimeUnit.SECONDS) || probe.exitValue() != 0) {
                    err.println("batchpipe sweep: the processor probe failed: " + output);
                    return null;
                }
                return Integer.parseInt(output.lines().reduce((a, b) -> b).orElse("").trim());
            } catch (NumberFormatException e) {
                return null;
            } finally {
                openCaps.remove(cap);
            }
        }
    }

    /** Stops the running configuration's processes and removes every cgroup still there: also on Ctrl-C. */
    private void cleanUp() {
        ProcessLambdaRuntime running = current;
        if (running != null) {
            try {
                running.close();
            } catch (IOException e) {
                err.println("batchpipe sweep: cleaning up: " + e.getMessage());
            }
        }
        for (CpuCgroups.Cap cap : List.copyOf(openCaps)) {
            try {
                cap.close();
                openCaps.remove(cap);
            } catch (IOException e) {
                err.println("batchpipe sweep: could not remove cgroup " + cap.cpuDir() + ": " + e.getMessage());
            }
        }
    }

    private static double round(double share) {
        return Math.round(share * 1000) / 1000.0;
    }
}
