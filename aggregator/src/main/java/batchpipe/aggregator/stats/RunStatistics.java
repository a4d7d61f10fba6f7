package batchpipe.aggregator.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns a run's record and task records into the report's figures. Every figure is computed from the
 * task records alone (plus the run's creation time), so tasks.csv is enough to check it by hand:
 * <ul>
 *   <li>window = last {@code finishedAt} − run {@code createdAt} (or first {@code startedAt} without one);</li>
 *   <li>throughput = total ÷ window seconds (tasks, events, uncompressed MB = 10^6 bytes, hashes);</li>
 *   <li>latencies: task duration = {@code durationMs}; queue wait = {@code startedAt − enqueuedAt};
 *       end to end = {@code finishedAt − enqueuedAt}; percentiles by nearest rank ({@link Percentiles}).</li>
 * </ul>
 */
public final class RunStatistics {
    private RunStatistics() {
    }

    public static Map<String, Object> compute(String runId, Map<String, Object> run, List<Map<String, Object>> tasks) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("runId", runId);
        if (run != null && run.get("label") != null) report.put("label", run.get("label"));
        long planned = run == null ? tasks.size() : plannedTotal(run);
        report.put("planned", run == null ? Map.of("total", planned) : run.get("planned"));
        report.put("status", tasks.size() >= planned ? "complete" : "incomplete");

        Long createdAt = run == null ? null : asLong(run.get("createdAt"));
        long firstStart = tasks.stream().mapToLong(t -> asLong(t.get("startedAt"))).min().orElse(0);
        long lastFinish = tasks.stream().mapToLong(t -> asLong(t.get("finishedAt"))).max().orElse(0);
        long windowStart = createdAt != null ? createdAt : firstStart;
        double windowSeconds = tasks.isEmpty() ? 0 : Math.max(0.001, (lastFinish - windowStart) / 1000.0);
        Map<String, Object> window = new LinkedHashMap<>();
        window.put("start", windowStart);
        window.put("end", lastFinish);
        window.put("seconds", round3(windowSeconds));
        window.put("definition", createdAt != null ? "last finishedAt - run createdAt" : "last finishedAt - first startedAt");
        report.put("window", window);

        report.put("overall", group(tasks, windowSeconds));
        Map<String, Object> byKind = new TreeMap<>();
        for (String kind : List.of("scan", "hash")) {
            List<Map<String, Object>> ofKind = tasks.stream().filter(t -> kind.equals(t.get("kind"))).toList();
            if (!ofKind.isEmpty()) byKind.put(kind, group(ofKind, windowSeconds));
        }
        report.put("byKind", byKind);
        Map<String, List<Map<String, Object>>> byPlatform = new TreeMap<>();
        for (Map<String, Object> t : tasks) {
            String platform = t.getOrDefault("architecture", "unknown") + "/" + t.getOrDefault("memoryMb", "?") + "MB";
            byPlatform.computeIfAbsent(platform, k -> new ArrayList<>()).add(t);
        }
        Map<String, Object> platforms = new TreeMap<>();
        byPlatform.forEach((platform, ofPlatform) -> platforms.put(platform, group(ofPlatform, windowSeconds)));
        report.put("byPlatform", platforms);
        report.put("timeline", Timeline.of(tasks, windowStart, lastFinish));
        report.put("distribution", distribution(tasks));
        report.put("countBy", mergedCountBy(tasks));
        Map<String, Object> accuracy = countByAccuracy(tasks);
        if (!accuracy.isEmpty()) report.put("countByAccuracy", accuracy);
        List<Map<String, Object>> problems = new ArrayList<>();
        for (Map<String, Object> t : tasks) {
            if (!"done".equals(t.get("status")) && problems.size() < 50) {
                // in this order: Map.of iterates in an order that changes from one JVM to the next
                Map<String, Object> problem = new LinkedHashMap<>();
                problem.put("taskId", t.get("taskId"));
                problem.put("status", t.get("status"));
                problem.put("reason", String.valueOf(t.get("reason")));
                problems.add(problem);
            }
        }
        report.put("problems", problems);
        Integer tolerated = toleratedFailurePercent(run);
        if (tolerated != null) report.put("failureTolerance", failureTolerance(tasks, planned, tolerated));
        return report;
    }

    /** The spec's toleratedFailurePercent, when it set one. */
    private static Integer toleratedFailurePercent(Map<String, Object> run) {
        if (run == null || !(run.get("spec") instanceof String spec)) return null;
        try {
            return batchpipe.common.json.Json.parseObject(spec).get("toleratedFailurePercent") instanceof Number n ? n.intValue() : null;
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    /**
     * Failed and rejected tasks (both did not produce their result) as a share of the planned tasks,
     * against the spec's tolerance; a run within it has at most that share failed.
     */
    static Map<String, Object> failureTolerance(List<Map<String, Object>> tasks, long planned, int toleratedPercent) {
        long failed = tasks.stream().filter(t -> "failed".equals(t.get("status")) || "rejected".equals(t.get("status"))).count();
        double failedPercent = planned == 0 ? 0 : 100.0 * failed / planned;
        Map<String, Object> tolerance = new LinkedHashMap<>();
        tolerance.put("toleratedPercent", toleratedPercent);
        tolerance.put("failedTasks", failed);
        tolerance.put("plannedTasks", planned);
        tolerance.put("failedPercent", round3(failedPercent));
        tolerance.put("withinTolerance", failed * 100 <= (long) toleratedPercent * planned);
        tolerance.put("definition", "failed + rejected tasks / planned tasks, against the run spec's toleratedFailurePercent");
        return tolerance;
    }

    private static Map<String, Object> group(List<Map<String, Object>> tasks, double windowSeconds) {
        Map<String, Object> g = new LinkedHashMap<>();
        Map<String, Long> byStatus = new TreeMap<>();
        long events = 0, malformed = 0, bytes = 0, compressed = 0, hashes = 0, cold = 0, writeCalls = 0;
        double writeMsTotal = 0, writeMsMax = 0;
        List<Long> durations = new ArrayList<>(), waits = new ArrayList<>(), endToEnd = new ArrayList<>(), inits = new ArrayList<>();
        SortedSet<Long> threads = new TreeSet<>();
        SortedSet<Double> vcpuShares = new TreeSet<>();
        for (Map<String, Object> t : tasks) {
            if (t.get("threads") instanceof Number n) threads.add(n.longValue());
            if (t.get("vcpuShare") instanceof Number n) vcpuShares.add(n.doubleValue());
            byStatus.merge(String.valueOf(t.get("status")), 1L, Long::sum);
            events += asLong(t.get("events"));
            malformed += asLong(t.get("malformed"));
            bytes += asLong(t.get("bytes"));
            compressed += asLong(t.get("compressedBytes"));
            hashes += asLong(t.get("hashes"));
            durations.add(asLong(t.get("durationMs")));
            Long enqueuedAt = t.get("enqueuedAt") == null ? null : asLong(t.get("enqueuedAt"));
            if (enqueuedAt != null) {
                waits.add(asLong(t.get("startedAt")) - enqueuedAt);
                endToEnd.add(asLong(t.get("finishedAt")) - enqueuedAt);
            }
            if (Boolean.TRUE.equals(t.get("coldStart"))) {
                cold++;
                if (t.get("initMs") != null) inits.add(asLong(t.get("initMs")));
            }
            writeCalls += asLong(t.get("ddbWriteCalls"));
            writeMsTotal += asDouble(t.get("ddbWriteMsTotal"));
            writeMsMax = Math.max(writeMsMax, asDouble(t.get("ddbWriteMsMax")));
        }
        g.put("tasks", tasks.size());
        g.put("byStatus", byStatus);
        Map<String, Object> totals = new LinkedHashMap<>();
        totals.put("events", events);
        totals.put("malformed", malformed);
        totals.put("bytes", bytes);
        totals.put("compressedBytes", compressed);
        totals.put("hashes", hashes);
        g.put("totals", totals);
        Map<String, Object> throughput = new LinkedHashMap<>();
        throughput.put("tasksPerSecond", perSecond(tasks.size(), windowSeconds));
        throughput.put("eventsPerSecond", perSecond(events, windowSeconds));
        throughput.put("uncompressedMBPerSecond", perSecond(bytes / 1e6, windowSeconds));
        throughput.put("hashesPerSecond", perSecond(hashes, windowSeconds));
        g.put("throughput", throughput);
        Map<String, Object> latency = new LinkedHashMap<>();
        latency.put("taskDurationMs", Percentiles.summarize(toArray(durations)));
        latency.put("queueWaitMs", Percentiles.summarize(toArray(waits)));
        latency.put("endToEndMs", Percentiles.summarize(toArray(endToEnd)));
        g.put("latency", latency);
        Map<String, Object> coldStarts = new LinkedHashMap<>();
        coldStarts.put("tasks", cold);
        coldStarts.put("share", tasks.isEmpty() ? 0 : round3((double) cold / tasks.size()));
        coldStarts.put("initMs", Percentiles.summarize(toArray(inits)));
        g.put("coldStarts", coldStarts);
        Map<String, Object> dynamo = new LinkedHashMap<>();
        dynamo.put("writeCalls", writeCalls);
        dynamo.put("writeCallsPerTask", tasks.isEmpty() ? 0 : round3((double) writeCalls / tasks.size()));
        dynamo.put("meanWriteMs", writeCalls == 0 ? 0 : round3(writeMsTotal / writeCalls));
        dynamo.put("slowestWriteMs", round3(writeMsMax));
        g.put("dynamoDb", dynamo);
        Map<String, Object> workers = new LinkedHashMap<>();
        workers.put("threadsSeen", new ArrayList<>(threads));
        workers.put("vcpuSharesSeen", new ArrayList<>(vcpuShares));
        g.put("workers", workers);
        return g;
    }

    /** Nearest-rank values at 1..100 % (and 99.9) of the three latencies: the CDF the HTML report draws. */
    private static Map<String, Object> distribution(List<Map<String, Object>> tasks) {
        List<Long> durations = new ArrayList<>(), waits = new ArrayList<>(), endToEnd = new ArrayList<>();
        for (Map<String, Object> t : tasks) {
            durations.add(asLong(t.get("durationMs")));
            if (t.get("enqueuedAt") != null) {
                waits.add(asLong(t.get("startedAt")) - asLong(t.get("enqueuedAt")));
                endToEnd.add(asLong(t.get("finishedAt")) - asLong(t.get("enqueuedAt")));
            }
        }
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("percentiles", Percentiles.distributionPoints());
        d.put("taskDurationMs", Percentiles.distribution(toArray(durations)));
        d.put("queueWaitMs", Percentiles.distribution(toArray(waits)));
        d.put("endToEndMs", Percentiles.distribution(toArray(endToEnd)));
        return d;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Long>> mergedCountBy(List<Map<String, Object>> tasks) {
        Map<String, Map<String, Long>> merged = new TreeMap<>();
        for (Map<String, Object> t : tasks) {
            if (t.get("countBy") instanceof Map<?, ?> countBy) {
                ((Map<String, Object>) countBy).forEach((path, values) -> {
                    Map<String, Long> target = merged.computeIfAbsent(path, k -> new TreeMap<>());
                    ((Map<String, Object>) values).forEach((value, n) -> target.merge(value, asLong(n), Long::sum));
                });
            }
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
    @SuppressWarnings("unchecked")
    private static Map<String, Object> countByAccuracy(List<Map<String, Object>> tasks) {
        SortedSet<String> paths = new TreeSet<>();
        Map<String, Long> overCounts = new TreeMap<>();
        SortedSet<String> estimated = new TreeSet<>();
        for (Map<String, Object> t : tasks) {
            if (t.get("countBy") instanceof Map<?, ?> countBy) paths.addAll(((Map<String, Object>) countBy).keySet());
            if (t.get("countByAccuracy") instanceof Map<?, ?> accuracy) {
                ((Map<String, Object>) accuracy).forEach((path, value) -> {
                    Map<String, Object> fields = (Map<String, Object>) value;
                    if ("approximate".equals(fields.get("counts"))) overCounts.merge(path, asLong(fields.get("maxOverCount")), Long::sum);
                    if ("estimated".equals(fields.get("distinct"))) estimated.add(path);
                });
            }
        }
        Map<String, Object> accuracy = new TreeMap<>();
        if (overCounts.isEmpty() && estimated.isEmpty()) return accuracy;
        for (String path : paths) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("counts", overCounts.containsKey(path) ? "approximate" : "exact");
            if (overCounts.containsKey(path)) fields.put("maxOverCount", overCounts.get(path));
            fields.put("distinct", estimated.contains(path) ? "estimated" : "exact");
            accuracy.put(path, fields);
        }
        return accuracy;
    }

    @SuppressWarnings("unchecked")
    private static long plannedTotal(Map<String, Object> run) {
        return run.get("planned") instanceof Map<?, ?> planned ? asLong(((Map<String, Object>) planned).get("total")) : 0;
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

    static long asLong(Object o) {
        return o instanceof Number n ? n.longValue() : 0;
    }

    static double asDouble(Object o) {
        return o instanceof Number n ? n.doubleValue() : 0;
    }
}
