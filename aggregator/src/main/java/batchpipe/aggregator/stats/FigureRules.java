package batchpipe.aggregator.stats;

import batchpipe.aggregator.stats.RunFigures.CallLatency;
import batchpipe.aggregator.stats.RunFigures.ColdStarts;
import batchpipe.aggregator.stats.RunFigures.DynamoDbCalls;
import batchpipe.aggregator.stats.RunFigures.DynamoDbWrites;
import batchpipe.aggregator.stats.RunFigures.FailureTolerance;
import batchpipe.aggregator.stats.RunFigures.LatencyDefinitions;
import batchpipe.aggregator.stats.RunFigures.PathAccuracy;
import batchpipe.aggregator.stats.RunFigures.Phase;
import batchpipe.aggregator.stats.RunFigures.PlannedTasks;
import batchpipe.aggregator.stats.RunFigures.Problem;
import batchpipe.aggregator.stats.RunFigures.Throughput;
import batchpipe.aggregator.stats.RunFigures.Window;
import batchpipe.common.run.CountAccuracy;
import batchpipe.common.run.RunHost;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.ScanOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.run.WorkerInvocation;
import batchpipe.common.run.WriteTimes;

import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * The rules of the run's figures, each stated once. The aggregator folds the task records one at a time
 * ({@link FiguresFold}); its tests compute the same figures from a list of them, plainly, as the oracle
 * the fold is checked against ({@code RunStatistics} in the test sources, {@code StreamingReportTest}).
 * Both take from here what a figure means and how it is rounded (the texts that define the window, the
 * latencies and the failure tolerance; where a queue wait starts; which write calls are timed; the
 * platform key; the formulas that turn totals into figures), so that they can differ only in how they
 * total, which is what the comparison checks. Percentiles are {@link Percentiles}' and the timeline's
 * buckets {@link Timeline}'s.
 */
final class FigureRules {
    /** The most problems a report lists: the rest are in tasks.csv. */
    static final int MAX_PROBLEMS = 50;

    private FigureRules() {
    }

    /** The planned tasks: the run record's, or without one the tasks found. */
    static PlannedTasks plannedTasks(RunRecord run, long tasksFound) {
        return run == null ? new PlannedTasks(null, null, tasksFound)
                : new PlannedTasks(run.planned().scan(), run.planned().hash(), run.planned().total());
    }

    static String status(long tasksFound, PlannedTasks planned) {
        return tasksFound >= planned.total() ? "complete" : "incomplete";
    }

    /** Where the run window starts: the run's creation, or without a run record the first task's start. */
    static long windowStart(RunRecord run, long firstStart) {
        return run != null ? run.createdAt() : firstStart;
    }

    /** The window in seconds, at least a millisecond once a task finished, so that rates stay finite. */
    static double windowSeconds(long tasks, long windowStart, long lastFinish) {
        return tasks == 0 ? 0 : Math.max(0.001, (lastFinish - windowStart) / 1000.0);
    }

    static Window window(RunRecord run, long windowStart, long lastFinish, double windowSeconds) {
        Phase planning = run == null || run.sendFinishedAt() == null ? null
                : new Phase(run.createdAt(), run.sendFinishedAt(), round3((run.sendFinishedAt() - run.createdAt()) / 1000.0),
                        "run createdAt (before listing) - run sendFinishedAt (the last task sent)");
        return new Window(windowStart, lastFinish, round3(windowSeconds),
                run != null ? "last finishedAt - run createdAt" : "last finishedAt - first startedAt", planning);
    }

    /** Where a task's queue wait starts: when SQS accepted its message, or on older records the producer's planning time. */
    static Long queueStart(TaskRecord t) {
        return t.sentAt() != null ? t.sentAt() : t.enqueuedAt();
    }

    /** What the latencies measure, saying where the queue wait starts on how many of the tasks that have a start. */
    static LatencyDefinitions latencyDefinitions(long withSent, long withQueueStart) {
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
        return new LatencyDefinitions("finishedAt - startedAt of each task, in its worker", "startedAt - " + from, "finishedAt - " + from);
    }

    /** "x86_64/1769MB": a record without them says "unknown" and "?", as reports have always grouped such records. */
    static String platform(WorkerInvocation invocation) {
        return (invocation.architecture() == null ? "unknown" : invocation.architecture()) + "/"
                + (invocation.memoryMb() == null ? "?" : invocation.memoryMb()) + "MB";
    }

    static Problem problem(TaskRecord t) {
        return new Problem(t.taskId(), t.status().wireName(), String.valueOf(t.reason()));
    }

    /** Failed and rejected tasks both did not produce their result: they count against the spec's tolerance. */
    static boolean failedOrRejected(TaskRecord t) {
        return t.status() == TaskStatus.FAILED || t.status() == TaskStatus.REJECTED;
    }

    /** A run within its tolerance has at most that share of its planned tasks failed. */
    static FailureTolerance failureTolerance(long failed, long planned, int toleratedPercent) {
        double failedPercent = planned == 0 ? 0 : 100.0 * failed / planned;
        return new FailureTolerance(toleratedPercent, failed, planned, round3(failedPercent),
                failed * 100 <= (long) toleratedPercent * planned,
                "failed + rejected tasks / planned tasks, against the run spec's toleratedFailurePercent");
    }

    static Throughput throughput(long tasks, long events, long bytes, long hashes, double windowSeconds) {
        return new Throughput(perSecond(tasks, windowSeconds), perSecond(events, windowSeconds), perSecond(bytes / 1e6, windowSeconds),
                perSecond(hashes, windowSeconds));
    }

    /** A record's count includes its own put, which it cannot time: its milliseconds cover the others. */
    static long timedWriteCalls(WriteTimes writes) {
        return Math.max(0, writes.calls() - 1);
    }

    static DynamoDbWrites dynamoDbWrites(long tasks, long writeCalls, long timedWriteCalls, double writeMsTotal, double writeMsMax) {
        return new DynamoDbWrites(writeCalls, tasks == 0 ? 0 : round3((double) writeCalls / tasks),
                timedWriteCalls == 0 ? 0 : round3(writeMsTotal / timedWriteCalls), round3(writeMsMax));
    }

    /** Per worker invocation: each cold one counts once, with its one init duration ({@code inits}, any order). */
    static ColdStarts coldStarts(long invocations, long cold, long tasksOfCold, long[] inits) {
        return new ColdStarts(invocations, cold, tasksOfCold, invocations == 0 ? 0 : round3((double) cold / invocations),
                Percentiles.summarize(inits));
    }

    /** Adds a task's approximate countBy paths: by how much each may over-state (errors add up) and which distinct counts are estimates. */
    static void addCountByAccuracy(ScanOutcome scan, Map<String, Long> overCounts, Set<String> estimated) {
        if (scan == null || scan.countByAccuracy() == null) return;
        for (Map.Entry<String, CountAccuracy> path : scan.countByAccuracy().entrySet()) {
            if (!path.getValue().countsExact()) overCounts.merge(path.getKey(), path.getValue().maxOverCount(), Long::sum);
            if (!path.getValue().distinctExact()) estimated.add(path.getKey());
        }
    }

    /**
     * Per countBy path, once some path is approximate: whether its counts are, by how much they may
     * over-state, and whether its distinct count is estimated. Empty when every count is exact, so that such
     * a report is the same as before approximate counting existed.
     */
    static Map<String, PathAccuracy> countByAccuracy(SortedSet<String> paths, Map<String, Long> overCounts, Set<String> estimated) {
        Map<String, PathAccuracy> accuracy = new TreeMap<>();
        if (overCounts.isEmpty() && estimated.isEmpty()) return accuracy;
        for (String path : paths) {
            accuracy.put(path, new PathAccuracy(overCounts.containsKey(path), overCounts.getOrDefault(path, 0L), estimated.contains(path)));
        }
        return accuracy;
    }

    /** A call's milliseconds as whole microseconds, so that nearest rank picks one of the measured values exactly. */
    static long micros(double ms) {
        return Math.round(ms * 1000);
    }

    /** Nearest rank over the calls of one kind, in microseconds, ascending and not empty. */
    static CallLatency callLatency(long[] sortedMicros) {
        return new CallLatency(sortedMicros.length, Percentiles.nearestRank(sortedMicros, 50) / 1000.0,
                Percentiles.nearestRank(sortedMicros, 99) / 1000.0, sortedMicros[sortedMicros.length - 1] / 1000.0);
    }

    /** @param withTasks the invocations the task records name, to say when some invocations wrote no record */
    static DynamoDbCalls dynamoDbCalls(int invocationRecords, int withTasks, Map<String, CallLatency> byCall) {
        return new DynamoDbCalls(invocationRecords, withTasks, byCall, "each DynamoDB call a worker made for the run's tasks, timed"
                + " around the SDK call by what it was for, from the run's " + invocationRecords + " worker invocation records ("
                + (invocationRecords >= withTasks ? "every invocation its task records name"
                        : "of " + withTasks + " invocations its task records name: the calls of the others are not in these figures")
                + "; p50 and p99 by nearest rank over the calls); the completion claim is made after the record is written and is not in it");
    }

    /** The machine a local run's record names, for the reports to say where the durations come from; null on Lambda. */
    static RunFigures.Host host(RunRecord run) {
        RunHost h = run == null ? null : run.host();
        if (h == null) return null;
        return new RunFigures.Host(h.cpuModel(), h.cores(), h.jdk(), h.os(), h.loadAverage(), h.capturedAt(), RunFigures.Host.NOTE);
    }

    static double perSecond(double amount, double seconds) {
        return seconds <= 0 ? 0 : round3(amount / seconds);
    }

    static double round3(double d) {
        return Math.round(d * 1000) / 1000.0;
    }
}
