package batchpipe.aggregator.stats;

import batchpipe.aggregator.stats.RunFigures.CallLatency;
import batchpipe.aggregator.stats.RunFigures.ColdStarts;
import batchpipe.aggregator.stats.RunFigures.DynamoDbCalls;
import batchpipe.aggregator.stats.RunFigures.Group;
import batchpipe.aggregator.stats.RunFigures.Latency;
import batchpipe.aggregator.stats.RunFigures.LatencyDistribution;
import batchpipe.aggregator.stats.RunFigures.PathAccuracy;
import batchpipe.aggregator.stats.RunFigures.PlannedTasks;
import batchpipe.aggregator.stats.RunFigures.Problem;
import batchpipe.aggregator.stats.RunFigures.Totals;
import batchpipe.aggregator.stats.RunFigures.Workers;
import batchpipe.common.run.InvocationRecord;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.ScanOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.WorkerInvocation;
import batchpipe.common.table.TableCall;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The run's figures, one task record at a time: folded as the Query pages arrive, none of them kept once
 * folded. What the exact nearest-rank percentiles need is kept as primitive columns (three latencies per
 * group, 8 bytes a value), the timeline's inputs as five more ({@link Timeline.Fold}), and everything else
 * as running totals, per-invocation entries (a batch of tasks each) and a countBy merge bounded per path
 * ({@link CountByMerge}). What each figure means and how it is rounded is {@link FigureRules}'; the tests
 * compute the same figures from a list of the records (RunStatistics, in the test sources) and
 * {@code StreamingReportTest} checks that both agree.
 * <p>
 * Records must be folded in task-id order (a Query's order): the first problems listed and an
 * invocation's first init duration depend on it. Every figure is computed from the task records alone
 * (plus the run's creation time), so tasks.csv is enough to check it by hand:
 * <ul>
 *   <li>window = last {@code finishedAt} − run {@code createdAt} (or first {@code startedAt} without one);</li>
 *   <li>throughput = total ÷ window seconds (tasks, events, uncompressed MB = 10^6 bytes, hashes);</li>
 *   <li>latencies: task duration = {@code durationMs}; queue wait = {@code startedAt − sentAt} (when SQS
 *       accepted the message; records written before sentAt was kept fall back to {@code enqueuedAt}, the
 *       producer's planning time); end to end = {@code finishedAt −} the same start; percentiles by nearest
 *       rank ({@link Percentiles});</li>
 *   <li>planning = run {@code createdAt} to run {@code sendFinishedAt} (the last task sent);</li>
 *   <li>cold starts per worker invocation (request id): cold invocations ÷ invocations, init percentiles
 *       over cold invocations, one init each.</li>
 * </ul>
 */
public final class FiguresFold {
    private final GroupFold overall = new GroupFold();
    private final Map<String, GroupFold> byKind = new TreeMap<>();
    private final Map<String, GroupFold> byPlatform = new TreeMap<>();
    private long tasks, withQueueStart, withSent, failed;
    private long firstStart = Long.MAX_VALUE, lastFinish = Long.MIN_VALUE;
    private final List<Problem> problems = new ArrayList<>();
    private final CountByMerge countBy = new CountByMerge(CountByMerge.MAX_VALUES_PER_PATH);
    private final SortedSet<String> countByPaths = new TreeSet<>();
    private final Map<String, Long> overCounts = new TreeMap<>();
    private final SortedSet<String> estimated = new TreeSet<>();
    private final Timeline.Fold timeline = new Timeline.Fold();
    private int invocationRecords;
    private final Map<TableCall, LongColumn> callMicros = new EnumMap<>(TableCall.class);

    public void add(TaskRecord t) {
        tasks++;
        firstStart = Math.min(firstStart, t.startedAt());
        lastFinish = Math.max(lastFinish, t.finishedAt());
        overall.add(t);
        if ("scan".equals(t.kind()) || "hash".equals(t.kind())) byKind.computeIfAbsent(t.kind(), k -> new GroupFold()).add(t);
        byPlatform.computeIfAbsent(FigureRules.platform(t.invocation()), k -> new GroupFold()).add(t);
        if (FigureRules.queueStart(t) != null) withQueueStart++;
        if (t.sentAt() != null) withSent++;
        if (!t.done() && problems.size() < FigureRules.MAX_PROBLEMS) problems.add(FigureRules.problem(t));
        if (FigureRules.failedOrRejected(t)) failed++;
        ScanOutcome scan = t.scan();
        if (scan != null && scan.countBy() != null) {
            countByPaths.addAll(scan.countBy().keySet());
            countBy.add(scan.countBy());
        }
        FigureRules.addCountByAccuracy(scan, overCounts, estimated);
        timeline.add(t);
    }

    /** A worker invocation record: its timed DynamoDB calls, in whole microseconds. */
    public void add(InvocationRecord invocation) {
        invocationRecords++;
        invocation.callsMs().forEach((call, ms) -> {
            LongColumn column = callMicros.computeIfAbsent(call, c -> new LongColumn());
            for (double m : ms) column.add(FigureRules.micros(m));
        });
    }

    /** @param run the run record, or null when there is none (the tasks found are then the planned total) */
    public RunFigures figures(String runId, RunRecord run) {
        PlannedTasks planned = FigureRules.plannedTasks(run, tasks);
        long last = tasks == 0 ? 0 : lastFinish;
        long windowStart = FigureRules.windowStart(run, tasks == 0 ? 0 : firstStart);
        double windowSeconds = FigureRules.windowSeconds(tasks, windowStart, last);

        Map<String, Group> kinds = new TreeMap<>();
        byKind.forEach((kind, group) -> kinds.put(kind, group.group(windowSeconds)));
        Map<String, Group> platforms = new TreeMap<>();
        byPlatform.forEach((platform, group) -> platforms.put(platform, group.group(windowSeconds)));
        Integer tolerated = StoredSpec.of(run).toleratedFailurePercent();
        return new RunFigures(runId, run == null ? null : run.label(), planned, FigureRules.status(tasks, planned),
                FigureRules.window(run, windowStart, last, windowSeconds), FigureRules.latencyDefinitions(withSent, withQueueStart),
                overall.group(windowSeconds), kinds, platforms, timeline.figures(windowStart, last), distribution(), countBy.merged(),
                countByAccuracy(), List.copyOf(problems),
                tolerated == null ? null : FigureRules.failureTolerance(failed, planned.total(), tolerated), dynamoDbCalls(),
                FigureRules.host(run));
    }

    private LatencyDistribution distribution() {
        return new LatencyDistribution(Percentiles.distributionPoints(), Percentiles.distribution(overall.durations.sorted()),
                Percentiles.distribution(overall.waits.sorted()), Percentiles.distribution(overall.endToEnd.sorted()));
    }

    private Map<String, PathAccuracy> countByAccuracy() {
        Map<String, Long> over = new TreeMap<>(overCounts);
        // a path whose merge ran past its bound: its counts may over-state by up to the floor new values entered at
        countBy.overCounts().forEach((path, n) -> over.merge(path, n, Long::sum));
        return FigureRules.countByAccuracy(countByPaths, over, estimated);
    }

    private DynamoDbCalls dynamoDbCalls() {
        if (invocationRecords == 0) return null;
        int withTasks = overall.invocations.size();
        Map<String, CallLatency> byCall = new LinkedHashMap<>();
        callMicros.forEach((call, column) -> {
            if (column.size() > 0) byCall.put(call.wireName(), FigureRules.callLatency(column.sorted()));
        });
        return FigureRules.dynamoDbCalls(invocationRecords, withTasks, byCall);
    }

    /** One group's figures (overall, a kind, a platform), a record at a time, cold starts per worker invocation included. */
    private static final class GroupFold {
        private int tasks;
        private final Map<String, Long> byStatus = new TreeMap<>();
        private long events, malformed, bytes, compressed, hashes, writeCalls, timedWriteCalls;
        private double writeMsTotal, writeMsMax;
        private final LongColumn durations = new LongColumn(), waits = new LongColumn(), endToEnd = new LongColumn();
        private final SortedSet<Long> threads = new TreeSet<>();
        private final SortedSet<Double> vcpuShares = new TreeSet<>();
        /** Per request id: {tasks, cold (0 or 1), whether an init duration was stated (0 or 1), the first one stated}. */
        private final Map<String, long[]> invocations = new HashMap<>();

        void add(TaskRecord t) {
            tasks++;
            WorkerInvocation invocation = t.invocation();
            if (invocation.threads() != null) threads.add(invocation.threads().longValue());
            if (invocation.vcpuShare() != null) vcpuShares.add(invocation.vcpuShare());
            byStatus.merge(t.status().wireName(), 1L, Long::sum);
            if (t.scan() != null) {
                events += t.scan().events();
                malformed += t.scan().malformed();
                bytes += t.scan().bytes();
                compressed += t.scan().compressedBytes();
            }
            if (t.hash() != null) hashes += t.hash().hashes();
            durations.add(t.durationMs());
            Long queued = FigureRules.queueStart(t);
            if (queued != null) {
                waits.add(t.startedAt() - queued);
                endToEnd.add(t.finishedAt() - queued);
            }
            if (t.writes() != null) {
                writeCalls += t.writes().calls();
                timedWriteCalls += FigureRules.timedWriteCalls(t.writes());
                writeMsTotal += t.writes().msTotal();
                writeMsMax = Math.max(writeMsMax, t.writes().msMax());
            }
            if (invocation.requestId() != null) {
                long[] of = invocations.computeIfAbsent(invocation.requestId(), k -> new long[4]);
                of[0]++;
                if (invocation.cold()) of[1] = 1;
                if (of[2] == 0 && invocation.initMs() != null) {
                    of[2] = 1;
                    of[3] = invocation.initMs();
                }
            }
        }

        Group group(double windowSeconds) {
            return new Group(tasks, new TreeMap<>(byStatus), new Totals(events, malformed, bytes, compressed, hashes),
                    FigureRules.throughput(tasks, events, bytes, hashes, windowSeconds),
                    new Latency(Percentiles.summarize(durations.sorted()), Percentiles.summarize(waits.sorted()),
                            Percentiles.summarize(endToEnd.sorted())),
                    coldStarts(), FigureRules.dynamoDbWrites(tasks, writeCalls, timedWriteCalls, writeMsTotal, writeMsMax),
                    new Workers(new ArrayList<>(threads), new ArrayList<>(vcpuShares)));
        }

        private ColdStarts coldStarts() {
            long cold = 0, tasksOfCold = 0;
            LongColumn inits = new LongColumn();
            for (long[] of : invocations.values()) {
                if (of[1] == 0) continue;
                cold++;
                tasksOfCold += of[0];
                if (of[2] == 1) inits.add(of[3]);
            }
            return FigureRules.coldStarts(invocations.size(), cold, tasksOfCold, inits.sorted());
        }
    }
}
