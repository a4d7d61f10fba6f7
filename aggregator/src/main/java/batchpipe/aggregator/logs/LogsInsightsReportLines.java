package batchpipe.aggregator.logs;

import batchpipe.aggregator.ReportLineSource;
import batchpipe.aggregator.cost.InvocationSpans;
import batchpipe.aggregator.cost.ReportLine;
import batchpipe.common.log.StructuredLog;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.WorkerInvocation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetQueryResultsRequest;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetQueryResultsResponse;
import software.amazon.awssdk.services.cloudwatchlogs.model.LimitExceededException;
import software.amazon.awssdk.services.cloudwatchlogs.model.QueryStatus;
import software.amazon.awssdk.services.cloudwatchlogs.model.ResultField;
import software.amazon.awssdk.services.cloudwatchlogs.model.StartQueryRequest;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The REPORT lines of a run's worker invocations, from the workers' log groups through CloudWatch Logs
 * Insights: exact Billed Duration, Init Duration and Max Memory Used where the task records only give a
 * lower bound. It looks up the request ids the task records carry, within the run's time window, and
 * never fails the report: whatever goes wrong, it returns what it found and says why the rest is missing.
 *
 * <p>Queries are chunked by request id ({@code filter @type = "REPORT" and @requestId in [...]}) rather
 * than by time slice: a query then returns at most one row per id it names, so the 10,000-row limit of a
 * query can never cut a result short, the only limit to respect is the query string's length, and no
 * REPORT line of another run (the log groups are shared by every run of the stack) is read back.
 *
 * <p>A REPORT line is written when its invocation ends, and the aggregator is started by the invocation
 * that finished the run's last task, before that invocation ends. So the last lines of a run are often
 * not yet searchable at the first attempt: ids still missing are looked up again after a pause, while
 * the deadline allows.
 */
public final class LogsInsightsReportLines implements ReportLineSource {
    private static final StructuredLog LOG = StructuredLog.of(LogsInsightsReportLines.class);

    /** StartQuery's queryString is at most 10,000 characters (CloudWatch Logs API reference). */
    static final int QUERY_MAX_CHARS = 10_000;
    /** Up to 10,000 rows; a chunk of ids that fits in a query string asks for a few hundred at most. */
    static final int ROWS_PER_QUERY = 10_000;
    /** Queries running at once: the account's Logs Insights quota is shared with people and dashboards. */
    static final int QUERIES_IN_FLIGHT = 4;
    static final Duration POLL_INTERVAL = Duration.ofSeconds(1);
    /** First wait after LimitExceededException (too many concurrent queries); doubles up to 16 s. */
    static final Duration FIRST_BACKOFF = Duration.ofSeconds(2);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(16);
    /** Pause before looking up ids that were not found yet: their REPORT lines may still be on their way. */
    static final Duration SETTLE_PAUSE = Duration.ofSeconds(10);
    /** Look-ups of the same ids: the first, and two after a pause each. */
    static final int ATTEMPTS = 3;
    /** Clock skew between the workers and CloudWatch Logs. */
    static final Duration WINDOW_BEFORE = Duration.ofMinutes(1);
    /**
     * A REPORT line follows its invocation's last task by at most the rest of the invocation, so by at
     * most Lambda's longest timeout (900 s).
     */
    static final Duration WINDOW_AFTER = Duration.ofMinutes(15);
    static final String QUERY_PREFIX = "filter @type = \"REPORT\" and @requestId in [";
    /**
     * Insights discovers the REPORT line's standard fields; SnapStart's two restore fields it does not, so they are
     * parsed from the message as AWS's own SnapStart sample query does. "Restore Duration" comes before "Billed
     * Restore Duration" on the line, so the first pattern's first match is the right one. A line without them keeps
     * its row, with the two fields empty.
     */
    static final String QUERY_SUFFIX = "]\n| parse @message /Restore Duration: (?<restoreDuration>[0-9.]+) ms/"
            + "\n| parse @message /Billed Restore Duration: (?<billedRestoreDuration>[0-9.]+) ms/"
            + "\n| fields @requestId, @duration, @billedDuration, @initDuration, @maxMemoryUsed, @memorySize, restoreDuration,"
            + " billedRestoreDuration";
    /** Lambda request ids are UUIDs; anything else is not put into a query string. */
    private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9-]{1,64}");

    /** Waits; the tests pass one that moves their clock instead. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    private final CloudWatchLogsClient logs;
    private final List<String> logGroups;
    private final Clock clock;
    private final Sleeper sleeper;

    /** @param logGroups the worker's log group and, under CompareArchitectures, its twin's */
    public LogsInsightsReportLines(CloudWatchLogsClient logs, List<String> logGroups) {
        this(logs, logGroups, Clock.systemUTC(), duration -> Thread.sleep(duration.toMillis()));
    }

    LogsInsightsReportLines(CloudWatchLogsClient logs, List<String> logGroups, Clock clock, Sleeper sleeper) {
        if (logGroups.isEmpty()) throw new IllegalArgumentException("Logs Insights needs at least one worker log group");
        this.logs = logs;
        this.logGroups = List.copyOf(logGroups);
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /** What the task records say about an invocation: the REPORT line does not name its function or architecture. */
    private record Invocation(String function, String architecture, int memoryMb) {
    }

    /** Why the look-up stopped before every id was found. */
    private static final class Stopped extends Exception {
        Stopped(String reason) {
            super(reason, null, false, false);
        }
    }

    @Override
    public Found find(RunRecord run, InvocationSpans spans, Instant deadline) {
        Map<String, Invocation> invocations = new TreeMap<>();
        int unusable = 0;
        long firstStart = Long.MAX_VALUE;
        long lastFinish = Long.MIN_VALUE;
        for (InvocationSpans.Span span : spans.spans()) {
            WorkerInvocation worker = span.invocation();
            String requestId = worker.requestId();
            if (requestId == null || requestId.isBlank()) continue;
            if (!REQUEST_ID.matcher(requestId).matches()) {
                unusable += span.tasks();
                continue;
            }
            invocations.putIfAbsent(requestId, new Invocation(
                    worker.functionName() != null ? worker.functionName() : "unknown",
                    worker.architecture() != null ? worker.architecture() : "unknown",
                    worker.memoryMb() == null ? 0 : worker.memoryMb()));
            // A record without its times would stretch the window (and the bytes scanned, which are billed) back to 1970.
            firstStart = Math.min(firstStart, span.firstTimedStart());
            lastFinish = Math.max(lastFinish, span.lastTimedFinish());
        }
        if (invocations.isEmpty()) {
            return new Found(List.of(), "none: no task record carries a worker request id to look up in CloudWatch Logs,"
                    + " so each worker invocation's duration is measured from its task records");
        }
        if (firstStart == Long.MAX_VALUE || lastFinish == Long.MIN_VALUE) {
            return new Found(List.of(), "none: the task records carry no start and finish times to bound a CloudWatch Logs"
                    + " query by, so each worker invocation's duration is measured from its task records");
        }
        Instant from = Instant.ofEpochMilli(firstStart).minus(WINDOW_BEFORE);
        Instant to = Instant.ofEpochMilli(lastFinish).plus(WINDOW_AFTER);
        Lookup lookup = new Lookup(from, to, deadline);
        String stoppedBecause = null;
        try {
            for (int attempt = 1; ; attempt++) {
                Set<String> missing = new TreeSet<>(invocations.keySet());
                missing.removeAll(lookup.found.keySet());
                lookup.run(chunks(missing));
                if (lookup.found.size() == invocations.size() || attempt == ATTEMPTS) break;
                if (!clock.instant().plus(SETTLE_PAUSE).plus(POLL_INTERVAL.multipliedBy(5)).isBefore(deadline)) {
                    stoppedBecause = "no time was left to look up the missing ones again";
                    break;
                }
                sleeper.sleep(SETTLE_PAUSE);
            }
        } catch (Stopped e) {
            stoppedBecause = e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stoppedBecause = "the look-up was interrupted";
        } catch (SdkException e) {
            stoppedBecause = "CloudWatch Logs answered " + e.getClass().getSimpleName() + ": " + e.getMessage();
        }

        List<ReportLine> lines = new ArrayList<>();
        lookup.found.forEach((requestId, row) -> {
            Invocation invocation = invocations.get(requestId);
            if (invocation != null) lines.add(row.toReportLine(requestId, invocation));
        });
        String source = describe(invocations.size(), lines.size(), unusable, from, to, lookup, stoppedBecause);
        LOG.info("worker REPORT lines looked up", "found", lines.size(), "invocations", invocations.size(),
                "queries", lookup.queries, "bytesScanned", (long) lookup.bytesScanned, "stoppedBecause", stoppedBecause);
        return new Found(lines, source);
    }

    private String describe(int invocations, int found, int unusable, Instant from, Instant to, Lookup lookup, String stoppedBecause) {
        String where = "CloudWatch Logs Insights, log group" + (logGroups.size() == 1 ? " " : "s ") + String.join(", ", logGroups)
                + " from " + from + " to " + to + " (" + lookup.queries + " quer" + (lookup.queries == 1 ? "y" : "ies") + ", "
                + String.format(Locale.ROOT, "%,d", (long) lookup.bytesScanned) + " bytes scanned)";
        String rest = "; the producer's and the aggregator's own invocations are not looked up";
        if (unusable > 0) rest += "; " + unusable + " task record(s) carry a request id that is not a Lambda request id";
        if (found == invocations) {
            return "the worker invocations' REPORT lines, all " + invocations + " found with " + where + rest;
        }
        String why = stoppedBecause != null ? stoppedBecause
                : "CloudWatch Logs had no REPORT line for them yet (a REPORT line is written when its invocation ends)";
        if (found == 0) {
            return "none: no worker REPORT line was found with " + where + ", because " + why
                    + ", so each worker invocation's duration is measured from its task records" + rest;
        }
        return "the worker invocations' REPORT lines, " + found + " of " + invocations + " found with " + where
                + "; the other " + (invocations - found) + " are measured from their task records, because " + why + rest;
    }

    /** Request ids in chunks whose query string stays within {@link #QUERY_MAX_CHARS}. */
    static List<List<String>> chunks(Set<String> requestIds) {
        List<List<String>> chunks = new ArrayList<>();
        List<String> chunk = new ArrayList<>();
        int length = QUERY_PREFIX.length() + QUERY_SUFFIX.length();
        for (String id : requestIds) {
            int added = id.length() + 2 + (chunk.isEmpty() ? 0 : 2); // "id" and ", "
            if (!chunk.isEmpty() && length + added > QUERY_MAX_CHARS) {
                chunks.add(chunk);
                chunk = new ArrayList<>();
                length = QUERY_PREFIX.length() + QUERY_SUFFIX.length();
                added = id.length() + 2;
            }
            chunk.add(id);
            length += added;
        }
        if (!chunk.isEmpty()) chunks.add(chunk);
        return chunks;
    }

    static String query(List<String> requestIds) {
        StringBuilder q = new StringBuilder(QUERY_PREFIX);
        for (int i = 0; i < requestIds.size(); i++) {
            if (i > 0) q.append(", ");
            q.append('"').append(requestIds.get(i)).append('"');
        }
        return q.append(QUERY_SUFFIX).toString();
    }

    /** One REPORT line as Logs Insights returns it: durations in ms, memory in bytes. */
    record Row(double durationMs, double billedMs, Double initMs, Double maxMemoryUsedBytes, Double memorySizeBytes,
               Double restoreMs, Double billedRestoreMs) {

        Row(double durationMs, double billedMs, Double initMs, Double maxMemoryUsedBytes, Double memorySizeBytes) {
            this(durationMs, billedMs, initMs, maxMemoryUsedBytes, memorySizeBytes, null, null);
        }

        ReportLine toReportLine(String requestId, Invocation invocation) {
            return new ReportLine(requestId, invocation.function(), invocation.architecture(), invocation.memoryMb(),
                    durationMs, (long) Math.ceil(billedMs), initMs, maxMemoryUsedMb(invocation.memoryMb()), restoreMs,
                    billedRestoreMs == null ? null : (long) Math.ceil(billedRestoreMs));
        }

        /**
         * Insights turns the line's "Max Memory Used: N MB" into bytes. AWS's own sample queries divide by
         * 1000 x 1000, many others by 1024 x 1024; rather than trust either, the factor is taken from
         * {@code @memorySize} against the memory the function is configured with (the task record's).
         */
        Integer maxMemoryUsedMb(int configuredMb) {
            if (maxMemoryUsedBytes == null) return null;
            double bytesPerMb = memorySizeBytes != null && memorySizeBytes > 0 && configuredMb > 0
                    ? memorySizeBytes / configuredMb : 1_000_000.0;
            return (int) Math.round(maxMemoryUsedBytes / bytesPerMb);
        }
    }

    /** Parses one result row; null when it lacks the fields a REPORT line always has. */
    static Map.Entry<String, Row> parse(List<ResultField> fields) {
        Map<String, String> values = new LinkedHashMap<>();
        for (ResultField f : fields) values.put(f.field(), f.value());
        String requestId = values.get("@requestId");
        Double duration = number(values.get("@duration"));
        Double billed = number(values.get("@billedDuration"));
        if (requestId == null || duration == null || billed == null) return null;
        return Map.entry(requestId, new Row(duration, billed, number(values.get("@initDuration")),
                number(values.get("@maxMemoryUsed")), number(values.get("@memorySize")), number(values.get("restoreDuration")),
                number(values.get("billedRestoreDuration"))));
    }

    private static Double number(String value) {
        if (value == null || value.isBlank()) return null;
        try {
            return Double.valueOf(value.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The queries of one look-up: started a few at a time, polled until done, their rows collected. */
    private final class Lookup {
        private final Instant from;
        private final Instant to;
        private final Instant deadline;
        private final Map<String, Row> found = new TreeMap<>();
        private int queries;
        private double bytesScanned;

        Lookup(Instant from, Instant to, Instant deadline) {
            this.from = from;
            this.to = to;
            this.deadline = deadline;
        }

        void run(List<List<String>> chunks) throws Stopped, InterruptedException {
            Deque<List<String>> waiting = new ArrayDeque<>(chunks);
            Map<String, List<String>> running = new LinkedHashMap<>();
            Duration backoff = FIRST_BACKOFF;
            while (!waiting.isEmpty() || !running.isEmpty()) {
                boolean throttled = false;
                while (!waiting.isEmpty() && running.size() < QUERIES_IN_FLIGHT) {
                    checkDeadline(running.size());
                    try {
                        String queryId = logs.startQuery(StartQueryRequest.builder()
                                .logGroupNames(logGroups)
                                .startTime(from.getEpochSecond())
                                .endTime(to.getEpochSecond())
                                .queryString(query(waiting.peek()))
                                .limit(ROWS_PER_QUERY)
                                .build()).queryId();
                        running.put(queryId, waiting.poll());
                        queries++;
                        backoff = FIRST_BACKOFF;
                    } catch (LimitExceededException tooManyQueries) {
                        // The account's concurrent-query quota: wait for ours or others' to finish.
                        throttled = true;
                        break;
                    }
                }
                for (var it = running.entrySet().iterator(); it.hasNext(); ) {
                    var query = it.next();
                    if (poll(query.getKey())) it.remove();
                }
                if (waiting.isEmpty() && running.isEmpty()) break;
                Duration pause = POLL_INTERVAL;
                if (throttled && running.isEmpty()) {
                    // None of ours is running, so the quota is held by others: back off further each time.
                    pause = backoff;
                    backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
                }
                // Stop rather than sleep past the deadline: the report still has to be written after this.
                if (!clock.instant().plus(pause).isBefore(deadline)) throw ranOut(running.size() + waiting.size());
                sleeper.sleep(pause);
            }
        }

        /** True when the query is done and its rows are collected; throws when it ended without results. */
        private boolean poll(String queryId) throws Stopped {
            GetQueryResultsResponse response = logs.getQueryResults(GetQueryResultsRequest.builder().queryId(queryId).build());
            QueryStatus status = response.status();
            if (status == QueryStatus.SCHEDULED || status == QueryStatus.RUNNING) return false;
            if (status != QueryStatus.COMPLETE) {
                throw new Stopped("a Logs Insights query ended with status " + response.statusAsString()
                        + (status == QueryStatus.TIMEOUT ? " (it ran past Logs Insights' own time limit)" : ""));
            }
            if (response.statistics() != null && response.statistics().bytesScanned() != null) {
                bytesScanned += response.statistics().bytesScanned();
            }
            collect(response);
            for (String next = response.nextToken(); next != null && !next.isBlank(); ) {
                String token = next;
                GetQueryResultsResponse page = logs.getQueryResults(GetQueryResultsRequest.builder().queryId(queryId).nextToken(token).build());
                collect(page);
                next = page.nextToken();
            }
            return true;
        }

        private void collect(GetQueryResultsResponse response) {
            for (List<ResultField> fields : response.results()) {
                Map.Entry<String, Row> row = parse(fields);
                if (row != null) found.putIfAbsent(row.getKey(), row.getValue());
            }
        }

        private void checkDeadline(int unfinished) throws Stopped {
            if (!clock.instant().isBefore(deadline)) throw ranOut(unfinished);
        }

        private Stopped ranOut(int unfinished) {
            return new Stopped("the aggregator's time for the look-up ran out with " + unfinished + " quer"
                    + (unfinished == 1 ? "y" : "ies") + " unfinished");
        }
    }
}
