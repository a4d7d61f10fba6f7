package batchpipe.aggregator.stats;

import batchpipe.aggregator.stats.RunFigures.CallLatency;
import batchpipe.aggregator.stats.RunFigures.ColdStarts;
import batchpipe.aggregator.stats.RunFigures.DynamoDbCalls;
import batchpipe.aggregator.stats.RunFigures.DynamoDbWrites;
import batchpipe.aggregator.stats.RunFigures.FailureTolerance;
import batchpipe.aggregator.stats.RunFigures.Group;
import batchpipe.aggregator.stats.RunFigures.Latency;
import batchpipe.aggregator.stats.RunFigures.LatencyDefinitions;
import batchpipe.aggregator.stats.RunFigures.LatencyDistribution;
import batchpipe.aggregator.stats.RunFigures.PathAccuracy;
import batchpipe.aggregator.stats.RunFigures.Phase;
import batchpipe.aggregator.stats.RunFigures.PlannedTasks;
import batchpipe.aggregator.stats.RunFigures.Problem;
import batchpipe.aggregator.stats.RunFigures.Throughput;
import batchpipe.aggregator.stats.RunFigures.Totals;
import batchpipe.aggregator.stats.RunFigures.Window;
import batchpipe.aggregator.stats.RunFigures.Workers;
import batchpipe.common.run.CountAccuracy;
import batchpipe.common.run.InvocationRecord;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.ScanOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
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
 * {@link RunStatistics} one record at a time: the same figures, by the same rules, from task records
 * folded as the Query pages arrive, none of them kept once folded. What the exact nearest-rank
 * percentiles need is kept as primitive columns (three latencies per group, 8 bytes a value), the
 * timeline's inputs as five more, and everything else as running totals, per-invocation entries (a
 * batch of tasks each) and a countBy merge bounded per path ({@link CountByMerge}). RunStatistics stays
 * the definition: {@code StreamingReportTest} checks that both give the same figures.
 * <p>
 * Records must be folded in task-id order (a Query's order), as RunStatistics takes them: the first
 * problems listed and an invocation's first init duration depend on it.
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
    // the timeline's inputs: the window it cuts into buckets is known only once the last record is in
    private final LongColumn finishedAt = new LongColumn();
    private final IntColumn kinds = new IntColumn();
    private final LongColumn events = new LongColumn(), bytes = new LongColumn(), hashes = new LongColumn();
    private int invocationRecords;
    private final Map<TableCall, LongColumn> callMicros = new EnumMap<>(TableCall.class);

    private static final int KIND_OTHER = 0, KIND_SCAN = 1, KIND_HASH = 2;

    public void add(TaskRecord t) {
        tasks++;
        firstStart = Math.min(firstStart, t.startedAt());
        lastFinish = Math.max(lastFinish, t.finishedAt());
        overall.add(t);
        if ("scan".equals(t.kind()) || "hash".equals(t.kind())) byKind.computeIfAbsent(t.kind(), k -> new GroupFold()).add(t);
        byPlatform.computeIfAbsent(RunStatistics.platform(t.invocation()), k -> new GroupFold()).add(t);
        if (RunStatistics.queueStart(t) != null) withQueueStart++;
        if (t.sentAt() != null) withSent++;
        if (!t.done() && problems.size() < RunStatistics.MAX_PROBLEMS) {
            problems.add(new Problem(t.taskId(), t.status().wireName(), String.valueOf(t.reason())));
        }
        if (t.status() == TaskStatus.FAILED || t.status() == TaskStatus.REJECTED) failed++;
        ScanOutcome scan = t.scan();
        if (scan != null) {
            if (scan.countBy() != null) {
                countByPaths.addAll(scan.countBy().keySet());
                countBy.add(scan.countBy());
            }
            if (scan.countByAccuracy() != null) {
                for (Map.Entry<String, CountAccuracy> path : scan.countByAccuracy().entrySet()) {
                    if (!path.getValue().countsExact()) overCounts.merge(path.getKey(), path.getValue().maxOverCount(), Long::sum);
                    if (!path.getValue().distinctExact()) estimated.add(path.getKey());
                }
            }
        }
        finishedAt.add(t.finishedAt());
        kinds.add("scan".equals(t.kind()) ? KIND_SCAN : "hash".equals(t.kind()) ? KIND_HASH : KIND_OTHER);
        events.add(scan == null ? 0 : scan.events());
        bytes.add(scan == null ? 0 : scan.bytes());
        hashes.add(t.hash() == null ? 0 : t.hash().hashes());
    }

    /** A worker invocation record: its timed DynamoDB calls, in microseconds, as RunStatistics rounds them. */
    public void add(InvocationRecord invocation) {
        invocationRecords++;
        invocation.callsMs().forEach((call, ms) -> {
            LongColumn column = callMicros.computeIfAbsent(call, c -> new LongColumn());
            for (double m : ms) column.add(Math.round(m * 1000));
        });
    }

    /** @param run the run record, or null when there is none (the tasks found are then the planned total) */
    public RunFigures figures(String runId, RunRecord run) {
        long planned = run == null ? tasks : run.planned().total();
        PlannedTasks plannedTasks = run == null ? new PlannedTasks(null, null, planned)
                : new PlannedTasks(run.planned().scan(), run.planned().hash(), run.planned().total());
        String status = tasks >= planned ? "complete" : "incomplete";
        Long createdAt = run == null ? null : run.createdAt();
        long first = tasks == 0 ? 0 : firstStart;
        long last = tasks == 0 ? 0 : lastFinish;
        long windowStart = createdAt != null ? createdAt : first;
        double windowSeconds = tasks == 0 ? 0 : Math.max(0.001, (last - windowStart) / 1000.0);
        Phase planning = run == null || run.sendFinishedAt() == null ? null
                : new Phase(run.createdAt(), run.sendFinishedAt(), RunStatistics.round3((run.sendFinishedAt() - run.createdAt()) / 1000.0),
                        "run createdAt (before listing) - run sendFinishedAt (the last task sent)");
        Window window = new Window(windowStart, last, RunStatistics.round3(windowSeconds),
                createdAt != null ? "last finishedAt - run createdAt" : "last finishedAt - first startedAt", planning);

        Map<String, Group> kinds = new TreeMap<>();
        byKind.forEach((kind, group) -> kinds.put(kind, group.group(windowSeconds)));
        Map<String, Group> platforms = new TreeMap<>();
        byPlatform.forEach((platform, group) -> platforms.put(platform, group.group(windowSeconds)));
        Integer tolerated = StoredSpec.of(run).toleratedFailurePercent();
        return new RunFigures(runId, run == null ? null : run.label(), plannedTasks, status, window, latencyDefinitions(),
                overall.group(windowSeconds), kinds, platforms, timeline(windowStart, last), distribution(), countBy.merged(),
                countByAccuracy(), List.copyOf(problems), tolerated == null ? null : failureTolerance(planned, tolerated),
                dynamoDbCalls(), RunStatistics.host(run));
    }

    private LatencyDefinitions latencyDefinitions() {
        String from;
        if (withSent == withQueueStart) {
            from = "the SQS SentTimestamp of the task's message (when SQS accepted it)";
        } else if (withSent == 0) {
            from = "enqueuedAt (these records predate SentTimestamp: enqueuedAt is when the producer planned the run, so the"
                    + " wait includes the run's listing and sending)";
        } else {
            from = "the SQS SentTimestamp of the task's message on " + withSent + " of " + withQueueStart
                    + " tasks, enqueuedAt (the producer's planning time) on the others";
        }
        return new LatencyDefinitions("finishedAt - startedAt of each task, in its worker",
                "startedAt - " + from, "finishedAt - " + from);
    }

    private FailureTolerance failureTolerance(long planned, int toleratedPercent) {
        double failedPercent = planned == 0 ? 0 : 100.0 * failed / planned;
        return new FailureTolerance(toleratedPercent, failed, planned, RunStatistics.round3(failedPercent),
                failed * 100 <= (long) toleratedPercent * planned,
                "failed + rejected tasks / planned tasks, against the run spec's toleratedFailurePercent");
    }

    /** {@link Timeline#of}, from the columns. */
    private RunFigures.TimelineFigures timeline(long startMs, long endMs) {
        long windowMs = Math.max(0, endMs - startMs);
        long width = Timeline.bucketSeconds(windowMs);
        String rule = "a task counts in the bucket of its finishedAt; rates divide by the seconds the bucket covers";
        if (tasks == 0) return new RunFigures.TimelineFigures(startMs, width, rule, List.of());
        int n = (int) Math.max(1, Math.max(0, Math.floorDiv(windowMs + width * 1000 - 1, width * 1000)));
        long[] count = new long[n], scan = new long[n], hash = new long[n], ev = new long[n], by = new long[n], hs = new long[n];
        for (int t = 0; t < finishedAt.size(); t++) {
            long offset = finishedAt.get(t) - startMs;
            int i = (int) Math.min(n - 1, Math.max(0, Math.floorDiv(offset, width * 1000)));
            count[i]++;
            if (kinds.get(t) == KIND_SCAN) scan[i]++;
            if (kinds.get(t) == KIND_HASH) hash[i]++;
            ev[i] += events.get(t);
            by[i] += bytes.get(t);
            hs[i] += hashes.get(t);
        }
        List<RunFigures.Bucket> buckets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long fromMs = i * width * 1000;
            double seconds = Math.max(0.001, Math.min(width * 1000, windowMs - fromMs) / 1000.0);
            buckets.add(new RunFigures.Bucket(i * width, RunStatistics.round3(seconds), count[i], scan[i], hash[i], ev[i], by[i],
                    hs[i], RunStatistics.round3(count[i] / seconds), RunStatistics.round3(ev[i] / seconds),
                    RunStatistics.round3(by[i] / 1e6 / seconds), RunStatistics.round3(hs[i] / seconds)));
        }
        return new RunFigures.TimelineFigures(startMs, width, rule, buckets);
    }

    private LatencyDistribution distribution() {
        return new LatencyDistribution(Percentiles.distributionPoints(), Percentiles.distribution(overall.durations.sorted()),
                Percentiles.distribution(overall.waits.sorted()), Percentiles.distribution(overall.endToEnd.sorted()));
    }

    private Map<String, PathAccuracy> countByAccuracy() {
        Map<String, Long> over = new TreeMap<>(overCounts);
        // a path whose merge ran past its bound: its counts may over-state by up to the floor new values entered at
        countBy.overCounts().forEach((path, n) -> over.merge(path, n, Long::sum));
        Map<String, PathAccuracy> accuracy = new TreeMap<>();
        if (over.isEmpty() && estimated.isEmpty()) return accuracy;
        for (String path : countByPaths) {
            accuracy.put(path, new PathAccuracy(over.containsKey(path), over.getOrDefault(path, 0L), estimated.contains(path)));
        }
        return accuracy;
    }

    private DynamoDbCalls dynamoDbCalls() {
        if (invocationRecords == 0) return null;
        int withTasks = overall.invocations.size();
        Map<String, CallLatency> byCall = new LinkedHashMap<>();
        callMicros.forEach((call, column) -> {
            if (column.size() == 0) return;
            long[] micros = column.sorted();
            byCall.put(call.wireName(), new CallLatency(micros.length, Percentiles.nearestRank(micros, 50) / 1000.0,
                    Percentiles.nearestRank(micros, 99) / 1000.0, micros[micros.length - 1] / 1000.0));
        });
        return new DynamoDbCalls(invocationRecords, withTasks, byCall, "each DynamoDB call a worker made for the run's tasks, timed"
                + " around the SDK call by what it was for, from the run's " + invocationRecords + " worker invocation records ("
                + (invocationRecords >= withTasks ? "every invocation its task records name"
                        : "of " + withTasks + " invocations its task records name: the calls of the others are not in these figures")
                + "; p50 and p99 by nearest rank over the calls); the completion claim is made after the record is written and is not in it");
    }

    /** {@link RunStatistics#group} and {@link RunStatistics#coldStarts} for one group, a record at a time. */
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
            Long queued = RunStatistics.queueStart(t);
            if (queued != null) {
                waits.add(t.startedAt() - queued);
                endToEnd.add(t.finishedAt() - queued);
            }
            if (t.writes() != null) {
                writeCalls += t.writes().calls();
                timedWriteCalls += Math.max(0, t.writes().calls() - 1);
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
                    new Throughput(perSecond(tasks, windowSeconds), perSecond(events, windowSeconds),
                            perSecond(bytes / 1e6, windowSeconds), perSecond(hashes, windowSeconds)),
                    new Latency(Percentiles.summarize(durations.sorted()), Percentiles.summarize(waits.sorted()),
                            Percentiles.summarize(endToEnd.sorted())),
                    coldStarts(),
                    new DynamoDbWrites(writeCalls, tasks == 0 ? 0 : RunStatistics.round3((double) writeCalls / tasks),
                            timedWriteCalls == 0 ? 0 : RunStatistics.round3(writeMsTotal / timedWriteCalls), RunStatistics.round3(writeMsMax)),
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
            long count = invocations.size();
            return new ColdStarts(count, cold, tasksOfCold, count == 0 ? 0 : RunStatistics.round3((double) cold / count),
                    Percentiles.summarize(inits.sorted()));
        }

        private static double perSecond(double amount, double seconds) {
            return seconds <= 0 ? 0 : RunStatistics.round3(amount / seconds);
        }
    }
}
