package batchpipe.aggregator.stats;

import batchpipe.aggregator.stats.RunFigures.CallLatency;
import batchpipe.aggregator.stats.RunFigures.ColdStarts;
import batchpipe.aggregator.stats.RunFigures.DynamoDbCalls;
import batchpipe.aggregator.stats.RunFigures.Group;
import batchpipe.aggregator.stats.RunFigures.Latency;
import batchpipe.aggregator.stats.RunFigures.LatencyDefinitions;
import batchpipe.aggregator.stats.RunFigures.LatencyDistribution;
import batchpipe.aggregator.stats.RunFigures.PathAccuracy;
import batchpipe.aggregator.stats.RunFigures.PlannedTasks;
import batchpipe.aggregator.stats.RunFigures.Problem;
import batchpipe.aggregator.stats.RunFigures.Totals;
import batchpipe.aggregator.stats.RunFigures.Workers;
import batchpipe.common.run.HashOutcome;
import batchpipe.common.run.InvocationRecord;
import batchpipe.common.table.TableCall;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.ScanOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.WriteTimes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The test oracle of the run's figures: they computed plainly from a list of the task records, each total
 * by a stream or a loop over the whole list, to check the aggregator's one-record-at-a-time
 * {@link FiguresFold} against ({@code StreamingReportTest}). What a figure means and how it is rounded both
 * take from {@link FigureRules} (and the timeline's buckets from {@link Timeline}), so the two differ only
 * in how they total. The figures' definitions in words are on FiguresFold.
 */
public final class RunStatistics {
    private RunStatistics() {
    }

    /** @param run the run record, or null when there is none (the tasks found are then the planned total) */
    public static RunFigures compute(String runId, RunRecord run, List<TaskRecord> tasks) {
        return compute(runId, run, tasks, List.of());
    }

    /** @param invocations the run's worker invocation records: the per-call DynamoDB view, when there are any */
    public static RunFigures compute(String runId, RunRecord run, List<TaskRecord> tasks, List<InvocationRecord> invocations) {
        PlannedTasks planned = FigureRules.plannedTasks(run, tasks.size());
        long firstStart = tasks.stream().mapToLong(TaskRecord::startedAt).min().orElse(0);
        long lastFinish = tasks.stream().mapToLong(TaskRecord::finishedAt).max().orElse(0);
        long windowStart = FigureRules.windowStart(run, firstStart);
        double windowSeconds = FigureRules.windowSeconds(tasks.size(), windowStart, lastFinish);

        Map<String, Group> byKind = new TreeMap<>();
        for (String kind : List.of("scan", "hash")) {
            List<TaskRecord> ofKind = tasks.stream().filter(t -> kind.equals(t.kind())).toList();
            if (!ofKind.isEmpty()) byKind.put(kind, group(ofKind, windowSeconds));
        }
        Map<String, List<TaskRecord>> byPlatform = new TreeMap<>();
        for (TaskRecord t : tasks) byPlatform.computeIfAbsent(FigureRules.platform(t.invocation()), k -> new ArrayList<>()).add(t);
        Map<String, Group> platforms = new TreeMap<>();
        byPlatform.forEach((platform, ofPlatform) -> platforms.put(platform, group(ofPlatform, windowSeconds)));

        List<Problem> problems = tasks.stream().filter(t -> !t.done()).limit(FigureRules.MAX_PROBLEMS).map(FigureRules::problem).toList();
        Timeline.Fold timeline = new Timeline.Fold();
        tasks.forEach(timeline::add);
        Integer tolerated = StoredSpec.of(run).toleratedFailurePercent();
        long failed = tasks.stream().filter(FigureRules::failedOrRejected).count();
        return new RunFigures(runId, run == null ? null : run.label(), planned, FigureRules.status(tasks.size(), planned),
                FigureRules.window(run, windowStart, lastFinish, windowSeconds), latencyDefinitions(tasks), group(tasks, windowSeconds),
                byKind, platforms, timeline.figures(windowStart, lastFinish), distribution(tasks), mergedCountBy(tasks),
                countByAccuracy(tasks), problems, tolerated == null ? null : FigureRules.failureTolerance(failed, planned.total(), tolerated),
                dynamoDbCalls(invocations, tasks), FigureRules.host(run));
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
        all.forEach((call, ms) -> byCall.put(call.wireName(),
                FigureRules.callLatency(ms.stream().mapToLong(FigureRules::micros).sorted().toArray())));
        return FigureRules.dynamoDbCalls(invocations.size(), withTasks, byCall);
    }

    static LatencyDefinitions latencyDefinitions(List<TaskRecord> tasks) {
        return FigureRules.latencyDefinitions(tasks.stream().filter(t -> t.sentAt() != null).count(),
                tasks.stream().filter(t -> FigureRules.queueStart(t) != null).count());
    }

    /** Each total by a stream of its own over the whole list (the fold keeps running totals in one pass). */
    static Group group(List<TaskRecord> tasks, double windowSeconds) {
        Map<String, Long> byStatus = tasks.stream().collect(Collectors.groupingBy(t -> t.status().wireName(), TreeMap::new, Collectors.counting()));
        List<ScanOutcome> scans = tasks.stream().map(TaskRecord::scan).filter(Objects::nonNull).toList();
        long events = scans.stream().mapToLong(ScanOutcome::events).sum();
        long bytes = scans.stream().mapToLong(ScanOutcome::bytes).sum();
        long hashes = tasks.stream().map(TaskRecord::hash).filter(Objects::nonNull).mapToLong(HashOutcome::hashes).sum();
        Totals totals = new Totals(events, scans.stream().mapToLong(ScanOutcome::malformed).sum(), bytes,
                scans.stream().mapToLong(ScanOutcome::compressedBytes).sum(), hashes);
        List<WriteTimes> writes = tasks.stream().map(TaskRecord::writes).filter(Objects::nonNull).toList();
        // summed in order, as a running total adds them (DoubleStream.sum compensates, and could differ in the last bit)
        double writeMsTotal = writes.stream().mapToDouble(WriteTimes::msTotal).reduce(0, Double::sum);
        double writeMsMax = writes.stream().mapToDouble(WriteTimes::msMax).reduce(0, Math::max);
        List<Long> threads = tasks.stream().map(t -> t.invocation().threads()).filter(Objects::nonNull).map(Integer::longValue)
                .distinct().sorted().toList();
        List<Double> vcpuShares = tasks.stream().map(t -> t.invocation().vcpuShare()).filter(Objects::nonNull).distinct().sorted().toList();
        return new Group(tasks.size(), byStatus, totals, FigureRules.throughput(tasks.size(), events, bytes, hashes, windowSeconds),
                new Latency(Percentiles.summarize(durations(tasks)), Percentiles.summarize(waits(tasks)),
                        Percentiles.summarize(endToEnd(tasks))),
                coldStarts(tasks), FigureRules.dynamoDbWrites(tasks.size(), writes.stream().mapToLong(WriteTimes::calls).sum(),
                        writes.stream().mapToLong(FigureRules::timedWriteCalls).sum(), writeMsTotal, writeMsMax),
                new Workers(new ArrayList<>(threads), new ArrayList<>(vcpuShares)));
    }

    private static long[] durations(List<TaskRecord> tasks) {
        return tasks.stream().mapToLong(TaskRecord::durationMs).toArray();
    }

    private static long[] waits(List<TaskRecord> tasks) {
        return tasks.stream().filter(t -> FigureRules.queueStart(t) != null).mapToLong(t -> t.startedAt() - FigureRules.queueStart(t)).toArray();
    }

    private static long[] endToEnd(List<TaskRecord> tasks) {
        return tasks.stream().filter(t -> FigureRules.queueStart(t) != null).mapToLong(t -> t.finishedAt() - FigureRules.queueStart(t)).toArray();
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
        return FigureRules.coldStarts(byInvocation.size(), cold, tasksOfCold, toArray(inits));
    }

    /** Nearest-rank values at 1..100 % (and 99.9) of the three latencies: the CDF the HTML report draws. */
    private static LatencyDistribution distribution(List<TaskRecord> tasks) {
        return new LatencyDistribution(Percentiles.distributionPoints(), Percentiles.distribution(durations(tasks)),
                Percentiles.distribution(waits(tasks)), Percentiles.distribution(endToEnd(tasks)));
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

    /** Per countBy path once some task counted a path approximately, as {@link FigureRules#countByAccuracy} says. */
    private static Map<String, PathAccuracy> countByAccuracy(List<TaskRecord> tasks) {
        SortedSet<String> paths = new TreeSet<>();
        Map<String, Long> overCounts = new TreeMap<>();
        SortedSet<String> estimated = new TreeSet<>();
        for (TaskRecord t : tasks) {
            if (t.scan() != null && t.scan().countBy() != null) paths.addAll(t.scan().countBy().keySet());
            FigureRules.addCountByAccuracy(t.scan(), overCounts, estimated);
        }
        return FigureRules.countByAccuracy(paths, overCounts, estimated);
    }

    private static long[] toArray(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).toArray();
    }
}
