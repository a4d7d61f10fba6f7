package batchpipe.aggregator.stats;

import batchpipe.aggregator.report.ReportJson;
import batchpipe.common.json.JsonFields;
import batchpipe.common.json.JsonWritable;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The run's figures ({@link FiguresFold}): the report's part that comes from the task records
 * alone. Each record writes its JSON in the order report.json has always had, and reads it back
 * ({@code fromJson}) from a stored report.json.
 *
 * @param label             the run spec's label, or null
 * @param latencyDefinitions what each latency measures; null in reports written before it was said
 * @param countByAccuracy   per countBy path, once some task counted a path approximately; empty otherwise
 * @param failureTolerance  null unless the spec set a toleratedFailurePercent
 * @param dynamoDbCalls     every DynamoDB call the workers made, by what it was for; null when the run has no
 *                          invocation records (runs of workers that did not write them)
 * @param host              the machine a local run's functions ran on; null for a run on Lambda and in reports
 *                          written before it was kept
 */
public record RunFigures(String runId, String label, PlannedTasks planned, String status, Window window,
                         LatencyDefinitions latencyDefinitions, Group overall,
                         Map<String, Group> byKind, Map<String, Group> byPlatform, TimelineFigures timeline,
                         LatencyDistribution distribution, Map<String, Map<String, Long>> countBy,
                         Map<String, PathAccuracy> countByAccuracy, List<Problem> problems, FailureTolerance failureTolerance,
                         DynamoDbCalls dynamoDbCalls, Host host) {

    /** Figures of a run on Lambda (no host). */
    public RunFigures(String runId, String label, PlannedTasks planned, String status, Window window,
                      LatencyDefinitions latencyDefinitions, Group overall,
                      Map<String, Group> byKind, Map<String, Group> byPlatform, TimelineFigures timeline,
                      LatencyDistribution distribution, Map<String, Map<String, Long>> countBy,
                      Map<String, PathAccuracy> countByAccuracy, List<Problem> problems, FailureTolerance failureTolerance,
                      DynamoDbCalls dynamoDbCalls) {
        this(runId, label, planned, status, window, latencyDefinitions, overall, byKind, byPlatform, timeline, distribution, countBy,
                countByAccuracy, problems, failureTolerance, dynamoDbCalls, null);
    }

    /** Figures without the per-call DynamoDB view (runs whose workers wrote no invocation records). */
    public RunFigures(String runId, String label, PlannedTasks planned, String status, Window window,
                      LatencyDefinitions latencyDefinitions, Group overall,
                      Map<String, Group> byKind, Map<String, Group> byPlatform, TimelineFigures timeline,
                      LatencyDistribution distribution, Map<String, Map<String, Long>> countBy,
                      Map<String, PathAccuracy> countByAccuracy, List<Problem> problems, FailureTolerance failureTolerance) {
        this(runId, label, planned, status, window, latencyDefinitions, overall, byKind, byPlatform, timeline, distribution, countBy,
                countByAccuracy, problems, failureTolerance, null, null);
    }

    /** The fields of report.json before cost and inputs, in their order. */
    public JsonFields toJson() {
        JsonFields json = new JsonFields().put("runId", runId).putPresent("label", label).putPresent("host", host)
                .put("planned", planned).put("status", status)
                .put("window", window).putPresent("latencyDefinitions", latencyDefinitions).put("overall", overall).put("byKind", byKind).put("byPlatform", byPlatform)
                .put("timeline", timeline).put("distribution", distribution).put("countBy", countBy);
        if (!countByAccuracy.isEmpty()) json.put("countByAccuracy", countByAccuracy);
        return json.put("problems", problems).putPresent("failureTolerance", failureTolerance).putPresent("dynamoDbCalls", dynamoDbCalls);
    }

    /** Field by field in the document's order, so the first field a foreign file lacks is the one named. */
    public static RunFigures fromJson(ReportJson report) {
        return new RunFigures(report.string("runId"), report.optString("label"), PlannedTasks.fromJson(report.field("planned")),
                report.string("status"), Window.fromJson(report.field("window")),
                LatencyDefinitions.fromJson(report.optField("latencyDefinitions")), Group.fromJson(report.field("overall")),
                groups(report.field("byKind")), groups(report.field("byPlatform")), TimelineFigures.fromJson(report.field("timeline")),
                LatencyDistribution.fromJson(report.field("distribution")), countBy(report.field("countBy")),
                accuracy(report.optField("countByAccuracy")), report.list("problems").stream().map(Problem::fromJson).toList(),
                FailureTolerance.fromJson(report.optField("failureTolerance")), DynamoDbCalls.fromJson(report.optField("dynamoDbCalls")),
                Host.fromJson(report.optField("host")));
    }

    /**
     * The machine a local run's functions ran on, as the producer read it when it planned the run
     * ({@code RunHost}); its durations, rates and cold starts are this machine's, not Lambda's.
     *
     * @param loadAverage 1, 5 and 15 minute load averages when the run was planned (fewer where the OS gives fewer)
     * @param note        what that means for the figures, said in report.json as in the pages
     */
    public record Host(String cpuModel, int cores, String jdk, String os, List<Double> loadAverage, long capturedAt, String note)
            implements JsonWritable {
        public static final String NOTE = "a local run: durations, rates and cold starts are this machine's, not Lambda's";

        @Override
        public Object toJsonValue() {
            return new JsonFields().put("cpuModel", cpuModel).put("cores", cores).put("jdk", jdk).put("os", os)
                    .put("loadAverage", loadAverage).put("capturedAt", capturedAt).put("note", note);
        }

        static Host fromJson(ReportJson json) {
            if (json == null) return null;
            return new Host(json.string("cpuModel"), json.intValue("cores"), json.string("jdk"), json.string("os"),
                    json.doubles("loadAverage"), json.longValue("capturedAt"), json.string("note"));
        }
    }

    private static Map<String, Map<String, Long>> countBy(ReportJson countBy) {
        Map<String, Map<String, Long>> byPath = new TreeMap<>();
        for (String path : countBy.entries().keySet()) byPath.put(path, countBy.longMap(path));
        return byPath;
    }

    private static Map<String, PathAccuracy> accuracy(ReportJson accuracy) {
        Map<String, PathAccuracy> byPath = new TreeMap<>();
        if (accuracy == null) return byPath;
        for (String path : accuracy.entries().keySet()) byPath.put(path, PathAccuracy.fromJson(accuracy.field(path)));
        return byPath;
    }

    private static Map<String, Group> groups(ReportJson groups) {
        Map<String, Group> byName = new TreeMap<>();
        for (String name : groups.entries().keySet()) byName.put(name, Group.fromJson(groups.field(name)));
        return byName;
    }

    /**
     * The tasks the run planned: {@code scan} and {@code hash} from the run record, or only the
     * {@code total} (the tasks found) when there is no run record.
     */
    public record PlannedTasks(Long scan, Long hash, long total) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            // hash, scan, total: the order of the stored map the report has always copied
            return new JsonFields().putPresent("hash", hash).putPresent("scan", scan).put("total", total);
        }

        static PlannedTasks fromJson(ReportJson json) {
            return new PlannedTasks(json.optLong("scan"), json.optLong("hash"), json.longValue("total"));
        }
    }

    /**
     * The run window: from the run's creation (or the first start) to the last finish. The same four fields
     * as a {@link Phase}, and report.json's shape for both, plus the planning phase inside it.
     *
     * @param planning the run's planning phase inside the window (run created to last task sent), when the run
     *                 record says when sending finished; null on runs recorded before that was kept
     */
    public record Window(long start, long end, double seconds, String definition, Phase planning) implements JsonWritable {
        public Window(long start, long end, double seconds, String definition) {
            this(start, end, seconds, definition, null);
        }

        @Override
        public Object toJsonValue() {
            return new JsonFields().put("start", start).put("end", end).put("seconds", seconds).put("definition", definition)
                    .putPresent("planning", planning);
        }

        static Window fromJson(ReportJson json) {
            ReportJson planning = json.optField("planning");
            return new Window(json.longValue("start"), json.longValue("end"), json.doubleValue("seconds"), json.string("definition"),
                    planning == null ? null : Phase.fromJson(planning));
        }
    }

    /** A phase of the run, from when to when (epoch ms), with what marks its ends. */
    public record Phase(long start, long end, double seconds, String definition) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("start", start).put("end", end).put("seconds", seconds).put("definition", definition);
        }

        static Phase fromJson(ReportJson json) {
            return new Phase(json.longValue("start"), json.longValue("end"), json.doubleValue("seconds"), json.string("definition"));
        }
    }

    /**
     * The latency of every DynamoDB call the run's workers made for its tasks, by what the call was for,
     * from the invocation records (reads too, and the record puts and progress updates a task record
     * cannot hold). Nearest rank over the calls, in milliseconds as the worker timed them.
     *
     * @param invocations          the worker invocations whose records were read
     * @param invocationsWithTasks the worker invocations the task records name (their request ids): more than
     *                             {@code invocations} when some invocation could not write its record, so that
     *                             the figures leave its calls out
     */
    public record DynamoDbCalls(int invocations, int invocationsWithTasks, Map<String, CallLatency> byCall, String definition)
            implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("invocations", invocations).put("invocationsWithTasks", invocationsWithTasks)
                    .put("byCall", byCall).put("definition", definition);
        }

        static DynamoDbCalls fromJson(ReportJson json) {
            if (json == null) return null;
            Map<String, CallLatency> byCall = new LinkedHashMap<>();
            ReportJson calls = json.field("byCall");
            for (String call : calls.entries().keySet()) byCall.put(call, CallLatency.fromJson(calls.field(call)));
            return new DynamoDbCalls(json.intValue("invocations"), json.intValue("invocationsWithTasks"), byCall, json.string("definition"));
        }
    }

    /** One kind of call: how many, and their p50, p99 and slowest latency in milliseconds. */
    public record CallLatency(long count, double p50Ms, double p99Ms, double maxMs) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("count", count).put("p50Ms", p50Ms).put("p99Ms", p99Ms).put("maxMs", maxMs);
        }

        static CallLatency fromJson(ReportJson json) {
            return new CallLatency(json.longValue("count"), json.doubleValue("p50Ms"), json.doubleValue("p99Ms"), json.doubleValue("maxMs"));
        }
    }

    /**
     * What each latency measures, from when to when: a report says it beside the figures, since the
     * start of a queue wait has changed (the message's SentTimestamp, where earlier records only had the
     * run's planning time).
     */
    public record LatencyDefinitions(String taskDurationMs, String queueWaitMs, String endToEndMs) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("taskDurationMs", taskDurationMs).put("queueWaitMs", queueWaitMs).put("endToEndMs", endToEndMs);
        }

        static LatencyDefinitions fromJson(ReportJson json) {
            return json == null ? null
                    : new LatencyDefinitions(json.string("taskDurationMs"), json.string("queueWaitMs"), json.string("endToEndMs"));
        }
    }

    /** The figures of a group of tasks: all of them, one kind, or one platform. */
    public record Group(int tasks, Map<String, Long> byStatus, Totals totals, Throughput throughput, Latency latency,
                        ColdStarts coldStarts, DynamoDbWrites dynamoDb, Workers workers) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("tasks", tasks).put("byStatus", byStatus).put("totals", totals).put("throughput", throughput)
                    .put("latency", latency).put("coldStarts", coldStarts).put("dynamoDb", dynamoDb).put("workers", workers);
        }

        static Group fromJson(ReportJson json) {
            return new Group(json.intValue("tasks"), new TreeMap<>(json.longMap("byStatus")), Totals.fromJson(json.field("totals")),
                    Throughput.fromJson(json.field("throughput")), Latency.fromJson(json.field("latency")),
                    ColdStarts.fromJson(json.field("coldStarts")), DynamoDbWrites.fromJson(json.field("dynamoDb")),
                    Workers.fromJson(json.field("workers")));
        }
    }

    public record Totals(long events, long malformed, long bytes, long compressedBytes, long hashes) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("events", events).put("malformed", malformed).put("bytes", bytes)
                    .put("compressedBytes", compressedBytes).put("hashes", hashes);
        }

        static Totals fromJson(ReportJson json) {
            return new Totals(json.longValue("events"), json.longValue("malformed"), json.longValue("bytes"),
                    json.longValue("compressedBytes"), json.longValue("hashes"));
        }
    }

    /** Per second of the run window (MB = 10^6 bytes, uncompressed). */
    public record Throughput(double tasksPerSecond, double eventsPerSecond, double uncompressedMBPerSecond, double hashesPerSecond)
            implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("tasksPerSecond", tasksPerSecond).put("eventsPerSecond", eventsPerSecond)
                    .put("uncompressedMBPerSecond", uncompressedMBPerSecond).put("hashesPerSecond", hashesPerSecond);
        }

        static Throughput fromJson(ReportJson json) {
            return new Throughput(json.doubleValue("tasksPerSecond"), json.doubleValue("eventsPerSecond"),
                    json.doubleValue("uncompressedMBPerSecond"), json.doubleValue("hashesPerSecond"));
        }
    }

    /** The three latencies, in milliseconds. */
    public record Latency(Percentiles.Summary taskDurationMs, Percentiles.Summary queueWaitMs, Percentiles.Summary endToEndMs)
            implements JsonWritable {
        public static final List<String> MEASURES = List.of("taskDurationMs", "queueWaitMs", "endToEndMs");

        /** By measure name, in {@link #MEASURES} order. */
        public Map<String, Percentiles.Summary> byMeasure() {
            Map<String, Percentiles.Summary> measures = new LinkedHashMap<>();
            measures.put("taskDurationMs", taskDurationMs);
            measures.put("queueWaitMs", queueWaitMs);
            measures.put("endToEndMs", endToEndMs);
            return measures;
        }

        @Override
        public Object toJsonValue() {
            return new JsonFields().put("taskDurationMs", taskDurationMs).put("queueWaitMs", queueWaitMs).put("endToEndMs", endToEndMs);
        }

        static Latency fromJson(ReportJson json) {
            return new Latency(Percentiles.Summary.fromJson(json.field("taskDurationMs")),
                    Percentiles.Summary.fromJson(json.field("queueWaitMs")), Percentiles.Summary.fromJson(json.field("endToEndMs")));
        }
    }

    /**
     * Cold starts counted per worker invocation (one init per instance, however many tasks it ran).
     *
     * @param invocations     distinct worker invocations (request ids) that ran the group's tasks; null in
     *                        reports written before cold starts were counted per invocation, whose
     *                        {@code share} and {@code initMs} are per task
     * @param coldInvocations those that initialised their instance
     * @param tasks           tasks run by cold invocations
     * @param share           cold invocations ÷ invocations
     * @param initMs          init durations, one per cold invocation
     */
    public record ColdStarts(Long invocations, Long coldInvocations, long tasks, double share, Percentiles.Summary initMs)
            implements JsonWritable {
        /** Whether the figures are per invocation (reports written since), not per task. */
        public boolean perInvocation() {
            return invocations != null;
        }

        @Override
        public Object toJsonValue() {
            return new JsonFields().putPresent("invocations", invocations).putPresent("coldInvocations", coldInvocations)
                    .put("tasks", tasks).put("share", share).put("initMs", initMs);
        }

        static ColdStarts fromJson(ReportJson json) {
            return new ColdStarts(json.optLong("invocations"), json.optLong("coldInvocations"), json.longValue("tasks"),
                    json.doubleValue("share"), Percentiles.Summary.fromJson(json.field("initMs")));
        }
    }

    /**
     * The write calls the task records state: {@code writeCalls} counts each record's own put, which the
     * record cannot time, so {@code meanWriteMs} divides the timed milliseconds by the timed calls only
     * (writeCalls less one per record). The per-call view by kind is {@link DynamoDbCalls}.
     */
    public record DynamoDbWrites(long writeCalls, double writeCallsPerTask, double meanWriteMs, double slowestWriteMs)
            implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("writeCalls", writeCalls).put("writeCallsPerTask", writeCallsPerTask)
                    .put("meanWriteMs", meanWriteMs).put("slowestWriteMs", slowestWriteMs);
        }

        static DynamoDbWrites fromJson(ReportJson json) {
            return new DynamoDbWrites(json.longValue("writeCalls"), json.doubleValue("writeCallsPerTask"), json.doubleValue("meanWriteMs"),
                    json.doubleValue("slowestWriteMs"));
        }
    }

    /** The distinct worker thread counts and vCPU shares the group's records state, ascending. */
    public record Workers(List<Long> threadsSeen, List<Double> vcpuSharesSeen) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("threadsSeen", threadsSeen).put("vcpuSharesSeen", vcpuSharesSeen);
        }

        static Workers fromJson(ReportJson json) {
            return new Workers(json.longs("threadsSeen"), json.doubles("vcpuSharesSeen"));
        }
    }

    /** Throughput over time ({@link Timeline}). */
    public record TimelineFigures(long start, long bucketSeconds, String rule, List<Bucket> buckets) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("start", start).put("bucketSeconds", bucketSeconds).put("rule", rule).put("buckets", buckets);
        }

        static TimelineFigures fromJson(ReportJson json) {
            return new TimelineFigures(json.longValue("start"), json.longValue("bucketSeconds"), json.string("rule"),
                    json.list("buckets").stream().map(Bucket::fromJson).toList());
        }
    }

    /** One bucket of the timeline: the tasks that finished in it and their rates over the seconds it covers. */
    public record Bucket(long fromSecond, double seconds, long tasks, long scanTasks, long hashTasks, long events, long bytes,
                         long hashes, double tasksPerSecond, double eventsPerSecond, double uncompressedMBPerSecond,
                         double hashesPerSecond) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("fromSecond", fromSecond).put("seconds", seconds).put("tasks", tasks).put("scanTasks", scanTasks)
                    .put("hashTasks", hashTasks).put("events", events).put("bytes", bytes).put("hashes", hashes)
                    .put("tasksPerSecond", tasksPerSecond).put("eventsPerSecond", eventsPerSecond)
                    .put("uncompressedMBPerSecond", uncompressedMBPerSecond).put("hashesPerSecond", hashesPerSecond);
        }

        static Bucket fromJson(ReportJson json) {
            return new Bucket(json.longValue("fromSecond"), json.doubleValue("seconds"), json.longValue("tasks"),
                    json.longValue("scanTasks"), json.longValue("hashTasks"), json.longValue("events"), json.longValue("bytes"),
                    json.longValue("hashes"), json.doubleValue("tasksPerSecond"), json.doubleValue("eventsPerSecond"),
                    json.doubleValue("uncompressedMBPerSecond"), json.doubleValue("hashesPerSecond"));
        }
    }

    /** Nearest-rank values of the three latencies at each of {@code percentiles}: the CDF the HTML report draws. */
    public record LatencyDistribution(List<Double> percentiles, List<Long> taskDurationMs, List<Long> queueWaitMs,
                                      List<Long> endToEndMs) implements JsonWritable {
        /** By measure name, in {@link Latency#MEASURES} order. */
        public List<List<Long>> byMeasure() {
            return List.of(taskDurationMs, queueWaitMs, endToEndMs);
        }

        @Override
        public Object toJsonValue() {
            return new JsonFields().put("percentiles", percentiles).put("taskDurationMs", taskDurationMs)
                    .put("queueWaitMs", queueWaitMs).put("endToEndMs", endToEndMs);
        }

        static LatencyDistribution fromJson(ReportJson json) {
            return new LatencyDistribution(json.doubles("percentiles"), json.longs("taskDurationMs"), json.longs("queueWaitMs"),
                    json.longs("endToEndMs"));
        }
    }

    /**
     * How one countBy path was counted over the run.
     *
     * @param maxOverCount the sum of the tasks' over-counts, when {@code countsApproximate}
     */
    public record PathAccuracy(boolean countsApproximate, long maxOverCount, boolean distinctEstimated) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            JsonFields json = new JsonFields().put("counts", countsApproximate ? "approximate" : "exact");
            if (countsApproximate) json.put("maxOverCount", maxOverCount);
            return json.put("distinct", distinctEstimated ? "estimated" : "exact");
        }

        static PathAccuracy fromJson(ReportJson json) {
            boolean approximate = "approximate".equals(json.string("counts"));
            return new PathAccuracy(approximate, approximate ? json.longValue("maxOverCount") : 0,
                    "estimated".equals(json.string("distinct")));
        }
    }

    /** A task that did not finish as done; {@code reason} is "null" when its record gives none, as reports have always said. */
    public record Problem(String taskId, String status, String reason) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("taskId", taskId).put("status", status).put("reason", reason);
        }

        static Problem fromJson(ReportJson json) {
            return new Problem(json.string("taskId"), json.string("status"), json.string("reason"));
        }
    }

    /** Failed and rejected tasks as a share of the planned tasks, against the spec's tolerance. */
    public record FailureTolerance(int toleratedPercent, long failedTasks, long plannedTasks, double failedPercent,
                                   boolean withinTolerance, String definition) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("toleratedPercent", toleratedPercent).put("failedTasks", failedTasks)
                    .put("plannedTasks", plannedTasks).put("failedPercent", failedPercent).put("withinTolerance", withinTolerance)
                    .put("definition", definition);
        }

        /** @param json null when the report has no tolerance (the spec set none) */
        static FailureTolerance fromJson(ReportJson json) {
            if (json == null) return null;
            return new FailureTolerance(json.intValue("toleratedPercent"), json.longValue("failedTasks"), json.longValue("plannedTasks"),
                    json.doubleValue("failedPercent"), json.bool("withinTolerance"), json.string("definition"));
        }
    }
}
