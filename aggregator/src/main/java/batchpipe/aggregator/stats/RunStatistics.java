package batchpipe.aggregator.stats;

import batchpipe.aggregator.stats.RunFigures.CallLatency;
import batchpipe.aggregator.stats.RunFigures.ColdStarts;
import batchpipe.aggregator.stats.RunFigures.DynamoDbCalls;
import batchpipe.aggregator.stats.RunFigures.DynamoDbWrites;
import batchpipe.aggregator.stats.RunFigures.FailureTolerance;
import batchpipe.aggregator.stats.RunFigures.Group;
import batchpipe.aggregator.stats.RunFigures.Latency;
import batchpipe.aggregator.stats.RunFigures.LatencyDefinitions;
import batchpipe.aggregator.stats.RunFigures.Phase;
import batchpipe.aggregator.stats.RunFigures.LatencyDistribution;
import batchpipe.aggregator.stats.RunFigures.PathAccuracy;
import batchpipe.aggregator.stats.RunFigures.PlannedTasks;
import batchpipe.aggregator.stats.RunFigures.Problem;
import batchpipe.aggregator.stats.RunFigures.Throughput;
import batchpipe.aggregator.stats.RunFigures.Totals;
import batchpipe.aggregator.stats.RunFigures.Window;
import batchpipe.aggregator.stats.RunFigures.Workers;
import batchpipe.common.run.CountAccuracy;
import batchpipe.common.run.InvocationRecord;
import batchpipe.common.table.TableCall;
import batchpipe.common.run.RunHost;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.ScanOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.run.WorkerInvocation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns a run's record and task records into the report's figures, from a list of them: the definition
 * of each figure. The aggregator computes the same figures without holding the records
 * ({@link FiguresFold}, checked against this class by {@code StreamingReportTest}). Every figure is
 * computed from the task records alone (plus the run's creation time), so tasks.csv is enough to check
 * it by hand:
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
public final class RunStatistics {
    /** The most problems a report lists: the rest are in tasks.csv. */
    static final int MAX_PROBLEMS = 50;

    private RunStatistics() {
    }

    /** @param run the run record, or null when there is none (the tasks found are then the planned total) */
    public static RunFigures compute(String runId, RunRecord run, List<TaskRecord> tasks) {
        return compute(runId, run, tasks, List.of());
    }

    /** @param invocations the run's worker invocation records: the per-call DynamoDB view, when there are any */
    public static RunFigures compute(String runId, RunRecord run, List<TaskRecord> tasks, List<InvocationRecord> invocations) {
        long planned = run == null ? tasks.size() : run.planned().total();
        PlannedTasks plannedTasks = run == null ? new PlannedTasks(null, null, planned)
                : new PlannedTasks(run.planned().scan(), run.planned().hash(), run.planned().total());
        String status = tasks.size() >= planned ? "complete" : "incomplete";

        Long createdAt = run == null ? null : run.createdAt();
        long firstStart = tasks.stream().mapToLong(TaskRecord::startedAt).min().orElse(0);
        long lastFinish = tasks.stream().mapToLong(TaskRecord::finishedAt).max().orElse(0);
        long windowStart = createdAt != null ? createdAt : firstStart;
        double windowSeconds = tasks.isEmpty() ? 0 : Math.max(0.001, (lastFinish - windowStart) / 1000.0);
        Phase planning = run == null || run.sendFinishedAt() == null ? null
                : new Phase(run.createdAt(), run.sendFinishedAt(), round3((run.sendFinishedAt() - run.createdAt()) / 1000.0),
                        "run createdAt (before listing) - run sendFinishedAt (the last task sent)");
        Window window = new Window(windowStart, lastFinish, round3(windowSeconds),
                createdAt != null ? "last finishedAt - run createdAt" : "last finishedAt - first startedAt", planning);

        Map<String, Group> byKind = new TreeMap<>();
        for (String kind : List.of("scan", "hash")) {
            List<TaskRecord> ofKind = tasks.stream().filter(t -> kind.equals(t.kind())).toList();
            if (!ofKind.isEmpty()) byKind.put(kind, group(ofKind, windowSeconds));
        }
        Map<String, List<TaskRecord>> byPlatform = new TreeMap<>();
        for (TaskRecord t : tasks) byPlatform.computeIfAbsent(platform(t.invocation()), k -> new ArrayList<>()).add(t);
        Map<String, Group> platforms = new TreeMap<>();
        byPlatform.forEach((platform, ofPlatform) -> platforms.put(platform, group(ofPlatform, windowSeconds)));

        List<Problem> problems = new ArrayList<>();
        for (TaskRecord t : tasks) {
            if (!t.done() && problems.size() < MAX_PROBLEMS) {
                problems.add(new Problem(t.taskId(), t.status().wireName(), String.valueOf(t.reason())));
            }
        }
        Integer tolerated = StoredSpec.of(run).toleratedFailurePercent();
        return new RunFigures(runId, run == null ? null : run.label(), plannedTasks, status, window, latencyDefinitions(tasks),
                group(tasks, windowSeconds),
                byKind, platforms, Timeline.of(tasks, windowStart, lastFinish), distribution(tasks), mergedCountBy(tasks),
                countByAccuracy(tasks), problems, tolerated == null ? null : failureTolerance(tasks, planned, tolerated),
                dynamoDbCalls(invocations, tasks), host(run));
    }

    /** The machine a local run's record names, for the reports to say where the durations come from; null on Lambda. */
    static RunFigures.Host host(RunRecord run) {
        RunHost h = run == null ? null : run.host();
        if (h == null) return null;
        return new RunFigures.Host(h.cpuModel(), h.cores(), h.jdk(), h.os(), h.loadAverage(), h.capturedAt(), RunFigures.Host.NOTE);
    }

    /** Nearest rank over every timed call of each kind, in the order {@link TableCall} lists them; null without invocation records. */
    static DynamoDbCalls dynamoDbCalls(List<InvocationRecord> invocations, List<TaskRecord> tasks) {
        if (invocations.isEmpty()) return null;
        int withTasks = (int) tasks.stream().map(t -> t.invocation().requestId()).filter(java.util.Objects::nonNull).distinct().count();
        Map<TableCall, List<Double>> all = new java.util.EnumMap<>(TableCall.class);
        for (InvocationRecord invocation : invocations) {
            invocation.callsMs().forEach((call, ms) -> all.computeIfAbsent(call, c -> new ArrayList<>()).addAll(ms));
        }
        Map<String, CallLatency> byCall = new java.util.LinkedHashMap<>();
        all.forEach((call, ms) -> {
            // microseconds as whole numbers, so nearest rank picks one of the measured values exactly
            long[] micros = ms.stream().mapToLong(m -> Math.round(m * 1000)).sorted().toArray();
            byCall.put(call.wireName(), new CallLatency(micros.length, Percentiles.nearestRank(micros, 50) / 1000.0,
                    Percentiles.nearestRank(micros, 99) / 1000.0, micros[micros.length - 1] / 1000.0));
        });
        return new DynamoDbCalls(invocations.size(), withTasks, byCall, "each DynamoDB call a worker made for the run's tasks, timed"
                + " around the SDK call by what it was for, from the run's " + invocations.size() + " worker invocation records ("
                + (invocations.size() >= withTasks ? "every invocation its task records name"
                        : "of " + withTasks + " invocations its task records name: the calls of the others are not in these figures")
                + "; p50 and p99 by nearest rank over the calls); the completion claim is made after the record is written and is not in it");
    }

    /** Where a task's queue wait starts: when SQS accepted its message, or on older records the producer's planning time. */
    static Long queueStart(TaskRecord t) {
        return t.sentAt() != null ? t.sentAt() : t.enqueuedAt();
    }

    static LatencyDefinitions latencyDefinitions(List<TaskRecord> tasks) {
        long withStart = tasks.stream().filter(t -> queueStart(t) != null).count();
        long withSent = tasks.stream().filter(t -> t.sentAt() != null).count();
        String from;
        if (withSent == withStart) {
            from = "the SQS SentTimestamp of the task's message (when SQS accepted it)";
        } else if (withSent == 0) {
            from = "enqueuedAt (these records predate SentTimestamp: enqueuedAt is when the producer planned the run, so the"
                    + " wait includes the run's listing and sending)";
        } else {
            from = "the SQS SentTimestamp of the task's message on " + withSent + " of " + withStart
                    + " tasks, enqueuedAt (the producer's planning time) on the others";
        }
        return new LatencyDefinitions("finishedAt - startedAt of each task, in its worker",
                "startedAt - " + from, "finishedAt - " + from);
    }

    /** "x86_64/1769MB": a record without them says "unknown" and "?", as reports have always grouped such records. */
    static String platform(WorkerInvocation invocation) {
        return (invocation.architecture() == null ? "unknown" : invocation.architecture()) + "/"
                + (invocation.memoryMb() == null ? "?" : invocation.memoryMb()) + "MB";
    }

    /**
     * Failed and rejected tasks (both did not produce their result) as a share of the planned tasks,
     * against the spec's tolerance; a run within it has at most that share failed.
     */
    static FailureTolerance failureTolerance(List<TaskRecord> tasks, long planned, int toleratedPercent) {
        long failed = tasks.stream().filter(t -> t.status() == TaskStatus.FAILED || t.status() == TaskStatus.REJECTED).count();
        double failedPercent = planned == 0 ? 0 : 100.0 * failed / planned;
        return new FailureTolerance(toleratedPercent, failed, planned, round3(failedPercent),
                failed * 100 <= (long) toleratedPercent * planned,
                "failed + rejected tasks / planned tasks, against the run spec's toleratedFailurePercent");
    }

    static Group group(List<TaskRecord> tasks, double windowSeconds) {
        Map<String, Long> byStatus = new TreeMap<>();
        long events = 0, malformed = 0, bytes = 0, compressed = 0, hashes = 0, writeCalls = 0, timedWriteCalls = 0;
        double writeMsTotal = 0, writeMsMax = 0;
        List<Long> durations = new ArrayList<>(), waits = new ArrayList<>(), endToEnd = new ArrayList<>();
        SortedSet<Long> threads = new TreeSet<>();
        SortedSet<Double> vcpuShares = new TreeSet<>();
        for (TaskRecord t : tasks) {
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
            Long queued = queueStart(t);
            if (queued != null) {
                waits.add(t.startedAt() - queued);
                endToEnd.add(t.finishedAt() - queued);
            }
            if (t.writes() != null) {
                writeCalls += t.writes().calls();
                // a record's count includes its own put, which it cannot time: its milliseconds cover the others
                timedWriteCalls += Math.max(0, t.writes().calls() - 1);
                writeMsTotal += t.writes().msTotal();
                writeMsMax = Math.max(writeMsMax, t.writes().msMax());
            }
        }
        return new Group(tasks.size(), byStatus, new Totals(events, malformed, bytes, compressed, hashes),
                new Throughput(perSecond(tasks.size(), windowSeconds), perSecond(events, windowSeconds),
                        perSecond(bytes / 1e6, windowSeconds), perSecond(hashes, windowSeconds)),
                new Latency(Percentiles.summarize(toArray(durations)), Percentiles.summarize(toArray(waits)),
                        Percentiles.summarize(toArray(endToEnd))),
                coldStarts(tasks),
                new DynamoDbWrites(writeCalls, tasks.isEmpty() ? 0 : round3((double) writeCalls / tasks.size()),
                        timedWriteCalls == 0 ? 0 : round3(writeMsTotal / timedWriteCalls), round3(writeMsMax)),
                new Workers(new ArrayList<>(threads), new ArrayList<>(vcpuShares)));
    }

    /**
     * Per worker invocation (request id): an instance initialises once, however many tasks its first
     * invocation runs, so each cold invocation counts once, with its one init duration. Records without a
     * request id (the dead-letter recorder's) belong to no invocation.
     */
    static ColdStarts coldStarts(List<TaskRecord> tasks) {
        Map<String, List<TaskRecord>> byInvocation = new TreeMap<>();
        for (TaskRecord t : tasks) {
            if (t.invocation().requestId() != null) byInvocation.computeIfAbsent(t.invocation().requestId(), k -> new ArrayList<>()).add(t);
        }
        long cold = 0, tasksOfCold = 0;
        List<Long> inits = new ArrayList<>();
        for (List<TaskRecord> ofInvocation : byInvocation.values()) {
            if (ofInvocation.stream().noneMatch(t -> t.invocation().cold())) continue;
            cold++;
            tasksOfCold += ofInvocation.size();
            ofInvocation.stream().map(t -> t.invocation().initMs()).filter(java.util.Objects::nonNull).findFirst().ifPresent(inits::add);
        }
        long invocations = byInvocation.size();
        return new ColdStarts(invocations, cold, tasksOfCold, invocations == 0 ? 0 : round3((double) cold / invocations),
                Percentiles.summarize(toArray(inits)));
    }

    /** Nearest-rank values at 1..100 % (and 99.9) of the three latencies: the CDF the HTML report draws. */
    private static LatencyDistribution distribution(List<TaskRecord> tasks) {
        List<Long> durations = new ArrayList<>(), waits = new ArrayList<>(), endToEnd = new ArrayList<>();
        for (TaskRecord t : tasks) {
            durations.add(t.durationMs());
            Long queued = queueStart(t);
            if (queued != null) {
                waits.add(t.startedAt() - queued);
                endToEnd.add(t.finishedAt() - queued);
            }
        }
        return new LatencyDistribution(Percentiles.distributionPoints(), Percentiles.distribution(toArray(durations)),
                Percentiles.distribution(toArray(waits)), Percentiles.distribution(toArray(endToEnd)));
    }

    private static Map<String, Map<String, Long>> mergedCountBy(List<TaskRecord> tasks) {
        Map<String, Map<String, Long>> merged = new TreeMap<>();
        for (TaskRecord t : tasks) {
            if (t.scan() == null || t.scan().countBy() == null) continue;
            t.scan().countBy().forEach((path, values) -> {
                Map<String, Long> target = merged.computeIfAbsent(path, k -> new TreeMap<>());
                values.forEach((value, n) -> target.merge(value, n, Long::sum));
            });
        }
        return merged;
    }

    /**
     * Per countBy path, once some task counted a path approximately (its record's {@code countByAccuracy}):
     * whether the counts are approximate, by how much each may over-state (the merged counts add the
     * tasks' counts, so their errors add: the sum of the tasks' {@code maxOverCount}), and whether the
     * tasks' {@code countByDistinct} is estimated. Empty when every task counted exactly, so that such a
     * report is the same as before approximate counting existed.
     */
    private static Map<String, PathAccuracy> countByAccuracy(List<TaskRecord> tasks) {
        SortedSet<String> paths = new TreeSet<>();
        Map<String, Long> overCounts = new TreeMap<>();
        SortedSet<String> estimated = new TreeSet<>();
        for (TaskRecord t : tasks) {
            ScanOutcome scan = t.scan();
            if (scan == null) continue;
            if (scan.countBy() != null) paths.addAll(scan.countBy().keySet());
            if (scan.countByAccuracy() == null) continue;
            for (Map.Entry<String, CountAccuracy> path : scan.countByAccuracy().entrySet()) {
                if (!path.getValue().countsExact()) overCounts.merge(path.getKey(), path.getValue().maxOverCount(), Long::sum);
                if (!path.getValue().distinctExact()) estimated.add(path.getKey());
            }
        }
        Map<String, PathAccuracy> accuracy = new TreeMap<>();
        if (overCounts.isEmpty() && estimated.isEmpty()) return accuracy;
        for (String path : paths) {
            accuracy.put(path, new PathAccuracy(overCounts.containsKey(path), overCounts.getOrDefault(path, 0L), estimated.contains(path)));
        }
        return accuracy;
    }

    private static long[] toArray(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).toArray();
    }

    private static double perSecond(double amount, double seconds) {
        return seconds <= 0 ? 0 : round3(amount / seconds);
    }

    static double round3(double d) {
        return Math.round(d * 1000) / 1000.0;
    }
}
