package batchpipe.aggregator.logs;

import batchpipe.aggregator.TaskRecords;
import batchpipe.common.run.TaskRecord;
import batchpipe.aggregator.ReportLineSource;
import batchpipe.aggregator.cost.ReportLine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetQueryResultsRequest;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetQueryResultsResponse;
import software.amazon.awssdk.services.cloudwatchlogs.model.LimitExceededException;
import software.amazon.awssdk.services.cloudwatchlogs.model.QueryStatistics;
import software.amazon.awssdk.services.cloudwatchlogs.model.QueryStatus;
import software.amazon.awssdk.services.cloudwatchlogs.model.ResultField;
import software.amazon.awssdk.services.cloudwatchlogs.model.StartQueryRequest;
import software.amazon.awssdk.services.cloudwatchlogs.model.StartQueryResponse;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.atLeast;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.withSettings;

/**
 * Logs Insights answers are built here in the shape the API reference documents for GetQueryResults:
 * a status, statistics, and rows of {field, value} pairs, where a REPORT line's durations are in
 * milliseconds and its memory in bytes (Insights turns "Memory Size: 1769 MB" into 1769000000).
 */
class LogsInsightsReportLinesTest {
    private static final long T0 = Instant.parse("2026-03-01T10:00:00Z").toEpochMilli();
    private static final String A = "8f5c3e0a-1b2c-4d5e-8f90-a1b2c3d4e5f6";
    private static final String B = "0c9d8e7f-6a5b-4c3d-9e2f-102938475601";
    private static final List<String> GROUPS = List.of("/aws/lambda/batchpipe-WorkerFunction", "/aws/lambda/batchpipe-WorkerTwinFunction");

    private CloudWatchLogsClient logs;
    private MovingClock clock;
    private List<Duration> sleeps;
    private LogsInsightsReportLines reportLines;

    /** A clock that only moves when the code under test sleeps: polling takes no real time. */
    private static final class MovingClock extends Clock {
        Instant now = Instant.ofEpochMilli(T0 + 60_000);

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @BeforeEach
    void setUp() {
        logs = mock(CloudWatchLogsClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        clock = new MovingClock();
        sleeps = new ArrayList<>();
        reportLines = new LogsInsightsReportLines(logs, GROUPS, clock, d -> {
            sleeps.add(d);
            clock.now = clock.now.plus(d);
        });
    }

    private Instant deadline() {
        return clock.now.plus(Duration.ofMinutes(2));
    }

    private static TaskRecord task(String taskId, String requestId, String architecture, long startedAt, long finishedAt) {
        return TaskRecords.task(taskId, "scan").times(null, startedAt, finishedAt)
                .invocation(requestId, architecture.equals("arm64") ? "batchpipe-WorkerFunction" : "batchpipe-WorkerTwinFunction")
                .platform(architecture, 1769).build();
    }

    private static List<ResultField> reportRow(String requestId, String duration, String billed, String init, String maxMemoryBytes) {
        List<ResultField> row = new ArrayList<>();
        row.add(ResultField.builder().field("@requestId").value(requestId).build());
        row.add(ResultField.builder().field("@duration").value(duration).build());
        row.add(ResultField.builder().field("@billedDuration").value(billed).build());
        if (init != null) row.add(ResultField.builder().field("@initDuration").value(init).build());
        row.add(ResultField.builder().field("@maxMemoryUsed").value(maxMemoryBytes).build());
        row.add(ResultField.builder().field("@memorySize").value("1769000000").build());
        row.add(ResultField.builder().field("@ptr").value("CmAKJgoiMTIzNDU2Nzg5MDEyOi9hd3MvbGFtYmRhL3dvcmtlchAB").build());
        return row;
    }

    private static GetQueryResultsResponse status(QueryStatus status) {
        return GetQueryResultsResponse.builder().status(status).build();
    }

    private static GetQueryResultsResponse complete(List<List<ResultField>> rows) {
        return GetQueryResultsResponse.builder().status(QueryStatus.COMPLETE).results(rows)
                .statistics(QueryStatistics.builder().recordsMatched((double) rows.size()).recordsScanned(5_000.0).bytesScanned(1_048_576.0).build())
                .build();
    }

    private void startReturns(String... queryIds) {
        var stub = doReturn(StartQueryResponse.builder().queryId(queryIds[0]).build());
        for (int i = 1; i < queryIds.length; i++) stub = stub.doReturn(StartQueryResponse.builder().queryId(queryIds[i]).build());
        stub.when(logs).startQuery(any(StartQueryRequest.class));
    }

    /** REPORT lines Insights can find, by request id. */
    private final Map<String, List<ResultField>> indexed = new LinkedHashMap<>();
    /** Query ids that end with status Failed. */
    private final java.util.Set<String> failing = new java.util.HashSet<>();
    /** Queries started and not yet answered, and the most there ever were at once. */
    private final java.util.Set<String> running = new java.util.HashSet<>();
    private int mostRunning;
    /** Runs once, after the first results are handed out. */
    private Runnable afterFirstResults = () -> { };

    /** Answers each query with the indexed REPORT lines of the ids it names, as Insights would. */
    private void answerFromIndexedLines() {
        Map<String, String> queries = new LinkedHashMap<>();
        doAnswer(inv -> {
            StartQueryRequest request = inv.getArgument(0);
            String id = "q" + queries.size();
            queries.put(id, request.queryString());
            running.add(id);
            mostRunning = Math.max(mostRunning, running.size());
            return StartQueryResponse.builder().queryId(id).build();
        }).when(logs).startQuery(any(StartQueryRequest.class));
        doAnswer(inv -> {
            GetQueryResultsRequest request = inv.getArgument(0);
            running.remove(request.queryId());
            if (failing.contains(request.queryId())) return status(QueryStatus.FAILED);
            List<List<ResultField>> rows = new ArrayList<>();
            Matcher ids = Pattern.compile("\"([0-9a-f-]{36})\"").matcher(queries.get(request.queryId()));
            while (ids.find()) if (indexed.containsKey(ids.group(1))) rows.add(indexed.get(ids.group(1)));
            afterFirstResults.run();
            afterFirstResults = () -> { };
            return complete(rows);
        }).when(logs).getQueryResults(any(GetQueryResultsRequest.class));
    }

    @Test
    void find_parsesReportLinesWithColdStartInitAndMemoryInBytes() {
        startReturns("q1");
        doReturn(status(QueryStatus.SCHEDULED), status(QueryStatus.RUNNING),
                complete(List.of(reportRow(A, "2001.37", "2002", "412.85", "412000000"), reportRow(B, "998.1", "999", null, "301000000"))))
                .when(logs).getQueryResults(any(GetQueryResultsRequest.class));

        ReportLineSource.Found found = reportLines.find(null,
                List.of(task("t1", A, "arm64", T0, T0 + 1_500), task("t2", A, "arm64", T0 + 1_500, T0 + 1_900),
                        task("t3", B, "x86_64", T0 + 100, T0 + 900)), deadline());

        assertThat(found.lines()).containsExactlyInAnyOrder(
                new ReportLine(A, "batchpipe-WorkerFunction", "arm64", 1769, 2001.37, 2002, 412.85, 412),
                new ReportLine(B, "batchpipe-WorkerTwinFunction", "x86_64", 1769, 998.1, 999, null, 301));
        assertThat(found.source()).startsWith("the worker invocations' REPORT lines, all 2 found with CloudWatch Logs Insights")
                .contains("/aws/lambda/batchpipe-WorkerFunction, /aws/lambda/batchpipe-WorkerTwinFunction")
                .contains("1 query, 1,048,576 bytes scanned");
        verify(logs, times(3)).getQueryResults(any(GetQueryResultsRequest.class));
        assertThat(sleeps).containsExactly(LogsInsightsReportLines.POLL_INTERVAL, LogsInsightsReportLines.POLL_INTERVAL);
    }

    @Test
    void find_queriesOnlyTheRunsRequestIdsInTheRunsWindowOfBothLogGroups() {
        startReturns("q1");
        doReturn(complete(List.of())).when(logs).getQueryResults(any(GetQueryResultsRequest.class));

        reportLines.find(null, List.of(task("t1", A, "arm64", T0, T0 + 1_000), task("t2", B, "x86_64", T0 + 200, T0 + 4_000)), deadline());

        ArgumentCaptor<StartQueryRequest> sent = ArgumentCaptor.forClass(StartQueryRequest.class);
        verify(logs, atLeast(1)).startQuery(sent.capture());
        StartQueryRequest request = sent.getAllValues().get(0);
        assertThat(request.logGroupNames()).isEqualTo(GROUPS);
        assertThat(request.startTime()).isEqualTo((T0 - 60_000) / 1000);
        assertThat(request.endTime()).isEqualTo((T0 + 4_000 + 15 * 60_000) / 1000);
        assertThat(request.queryString()).isEqualTo("filter @type = \"REPORT\" and @requestId in [\"" + B + "\", \"" + A + "\"]\n"
                + "| parse @message /Restore Duration: (?<restoreDuration>[0-9.]+) ms/\n"
                + "| parse @message /Billed Restore Duration: (?<billedRestoreDuration>[0-9.]+) ms/\n"
                + "| fields @requestId, @duration, @billedDuration, @initDuration, @maxMemoryUsed, @memorySize, restoreDuration,"
                + " billedRestoreDuration");
    }

    @Test
    void parse_readsSnapStartsRestoreFieldsWhichTheQueryParsesFromTheMessage() {
        // "Duration: 306.34 ms Billed Duration: 610 ms ... Restore Duration: 511.25 ms Billed Restore Duration: 303 ms"
        List<ResultField> row = new ArrayList<>(reportRow(A, "306.34", "610", null, "155000000"));
        row.add(ResultField.builder().field("restoreDuration").value("511.25").build());
        row.add(ResultField.builder().field("billedRestoreDuration").value("303").build());

        var parsed = LogsInsightsReportLines.parse(row);

        assertThat(parsed.getKey()).isEqualTo(A);
        assertThat(parsed.getValue()).isEqualTo(new LogsInsightsReportLines.Row(306.34, 610, null, 155_000_000.0, 1_769_000_000.0,
                511.25, 303.0));
    }

    @Test
    void maxMemoryUsed_takesTheBytesPerMegabyteFromMemorySize() {
        // Whichever megabyte Insights multiplies by, @memorySize against the configured memory says which.
        var decimal = new LogsInsightsReportLines.Row(1, 1, null, 412_000_000.0, 1_769_000_000.0);
        var binary = new LogsInsightsReportLines.Row(1, 1, null, 412.0 * 1_048_576, 1769.0 * 1_048_576);
        var noSize = new LogsInsightsReportLines.Row(1, 1, null, 412_000_000.0, null);
        var noMax = new LogsInsightsReportLines.Row(1, 1, null, null, 1_769_000_000.0);

        assertThat(decimal.maxMemoryUsedMb(1769)).isEqualTo(412);
        assertThat(binary.maxMemoryUsedMb(1769)).isEqualTo(412);
        assertThat(noSize.maxMemoryUsedMb(1769)).isEqualTo(412);
        assertThat(noMax.maxMemoryUsedMb(1769)).isNull();
    }

    @Test
    void chunks_keepEveryQueryStringWithinTheLimitAndEveryIdInExactlyOneChunk() {
        TreeSet<String> ids = new TreeSet<>();
        for (int i = 0; i < 1_000; i++) ids.add(new UUID(i, i).toString());

        List<List<String>> chunks = LogsInsightsReportLines.chunks(ids);

        assertThat(chunks).hasSizeGreaterThan(1);
        assertThat(chunks).allSatisfy(c -> assertThat(LogsInsightsReportLines.query(c).length())
                .isLessThanOrEqualTo(LogsInsightsReportLines.QUERY_MAX_CHARS));
        assertThat(chunks.stream().flatMap(List::stream).toList()).containsExactlyElementsOf(ids);
        // Full chunks leave no room for one more id.
        List<String> first = chunks.get(0);
        List<String> oneMore = new ArrayList<>(first);
        oneMore.add(chunks.get(1).get(0));
        assertThat(LogsInsightsReportLines.query(oneMore).length()).isGreaterThan(LogsInsightsReportLines.QUERY_MAX_CHARS);
    }

    @Test
    void find_looksUpManyRequestIdsInSeveralQueriesAFewAtATimeAndFindsThemAll() {
        List<TaskRecord> tasks = new ArrayList<>();
        for (int i = 0; i < 1_500; i++) {
            String id = new UUID(7, i).toString();
            indexed.put(id, reportRow(id, "100.5", "101", null, "200000000"));
            tasks.add(task("t" + i, id, "arm64", T0 + i, T0 + i + 50));
        }
        answerFromIndexedLines();

        ReportLineSource.Found found = reportLines.find(null, tasks, deadline());

        assertThat(found.lines()).hasSize(1_500);
        int queries = LogsInsightsReportLines.chunks(new TreeSet<>(indexed.keySet())).size();
        assertThat(queries).isGreaterThan(LogsInsightsReportLines.QUERIES_IN_FLIGHT);
        verify(logs, times(queries)).startQuery(any(StartQueryRequest.class));
        assertThat(mostRunning).isEqualTo(LogsInsightsReportLines.QUERIES_IN_FLIGHT);
        assertThat(found.source()).contains("all 1500 found").contains(queries + " queries");
    }

    @Test
    void find_whenSomeAreMissing_looksThemUpAgainThenSaysHowManyWereFound() {
        indexed.put(A, reportRow(A, "10", "10", null, "100000000"));
        answerFromIndexedLines();

        ReportLineSource.Found found = reportLines.find(null,
                List.of(task("t1", A, "arm64", T0, T0 + 10), task("t2", B, "arm64", T0, T0 + 10)), deadline());

        assertThat(found.lines()).extracting(ReportLine::requestId).containsExactly(A);
        assertThat(found.source()).startsWith("the worker invocations' REPORT lines, 1 of 2 found")
                .contains("the other 1 are measured from their task records, because CloudWatch Logs had no REPORT line for them yet");
        ArgumentCaptor<StartQueryRequest> sent = ArgumentCaptor.forClass(StartQueryRequest.class);
        verify(logs, times(LogsInsightsReportLines.ATTEMPTS)).startQuery(sent.capture());
        // The later look-ups name only the id still missing.
        assertThat(sent.getAllValues().get(1).queryString()).contains(B).doesNotContain(A);
        assertThat(sleeps).contains(LogsInsightsReportLines.SETTLE_PAUSE);
    }

    @Test
    void find_whenALateReportLineArrives_findsItOnTheNextLookUp() {
        indexed.put(A, reportRow(A, "10", "10", null, "100000000"));
        // B's invocation ends, and its REPORT line becomes searchable, while the first look-up runs.
        afterFirstResults = () -> indexed.put(B, reportRow(B, "20", "20", "300", "100000000"));
        answerFromIndexedLines();

        ReportLineSource.Found found = reportLines.find(null,
                List.of(task("t1", A, "arm64", T0, T0 + 10), task("t2", B, "arm64", T0, T0 + 10)), deadline());

        assertThat(found.lines()).extracting(ReportLine::requestId).containsExactlyInAnyOrder(A, B);
        assertThat(found.source()).contains("all 2 found");
    }

    @Test
    void find_whenAQueryFails_fallsBackAndSaysWhy() {
        startReturns("q1");
        doReturn(status(QueryStatus.RUNNING), status(QueryStatus.FAILED)).when(logs).getQueryResults(any(GetQueryResultsRequest.class));

        ReportLineSource.Found found = reportLines.find(null, List.of(task("t1", A, "arm64", T0, T0 + 10)), deadline());

        assertThat(found.lines()).isEmpty();
        assertThat(found.source()).startsWith("none: no worker REPORT line was found with CloudWatch Logs Insights")
                .contains("because a Logs Insights query ended with status Failed")
                .contains("each worker invocation's duration is measured from its task records");
    }

    @Test
    void find_whenAQueryTimesOutOrIsCancelled_fallsBackAndSaysWhich() {
        for (QueryStatus status : List.of(QueryStatus.TIMEOUT, QueryStatus.CANCELLED, QueryStatus.UNKNOWN)) {
            setUp();
            startReturns("q1");
            doReturn(status(status)).when(logs).getQueryResults(any(GetQueryResultsRequest.class));

            ReportLineSource.Found found = reportLines.find(null, List.of(task("t1", A, "arm64", T0, T0 + 10)), deadline());

            assertThat(found.lines()).as(status.toString()).isEmpty();
            assertThat(found.source()).as(status.toString()).contains("ended with status " + status);
        }
    }

    @Test
    void find_keepsWhatEarlierQueriesFoundWhenALaterOneFails() {
        List<TaskRecord> tasks = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            String id = new UUID(9, i).toString();
            indexed.put(id, reportRow(id, "50", "50", null, "100000000"));
            tasks.add(task("t" + i, id, "arm64", T0, T0 + 10));
        }
        failing.add("q2");
        answerFromIndexedLines();

        ReportLineSource.Found found = reportLines.find(null, tasks, deadline());

        assertThat(found.lines()).isNotEmpty().hasSizeLessThan(600);
        assertThat(found.source()).contains(found.lines().size() + " of 600 found").contains("ended with status Failed");
    }

    @Test
    void find_retriesAStartQueryRefusedForTooManyConcurrentQueries() {
        doThrow(LimitExceededException.builder().message("Account maximum query concurrency limit of [30] reached").build())
                .doThrow(LimitExceededException.builder().message("Account maximum query concurrency limit of [30] reached").build())
                .doReturn(StartQueryResponse.builder().queryId("q1").build())
                .when(logs).startQuery(any(StartQueryRequest.class));
        doReturn(complete(List.of(reportRow(A, "10", "10", null, "100000000")))).when(logs).getQueryResults(any(GetQueryResultsRequest.class));

        ReportLineSource.Found found = reportLines.find(null, List.of(task("t1", A, "arm64", T0, T0 + 10)), deadline());

        assertThat(found.lines()).hasSize(1);
        verify(logs, times(3)).startQuery(any(StartQueryRequest.class));
        // Backing off, each wait twice the one before.
        assertThat(sleeps).containsExactly(LogsInsightsReportLines.FIRST_BACKOFF, LogsInsightsReportLines.FIRST_BACKOFF.multipliedBy(2));
    }

    @Test
    void find_stopsAtTheDeadlineAndSaysSo() {
        startReturns("q1");
        doReturn(status(QueryStatus.RUNNING)).when(logs).getQueryResults(any(GetQueryResultsRequest.class));
        Instant deadline = clock.now.plusSeconds(20);

        ReportLineSource.Found found = reportLines.find(null, List.of(task("t1", A, "arm64", T0, T0 + 10)), deadline);

        assertThat(found.lines()).isEmpty();
        assertThat(found.source()).contains("because the aggregator's time for the look-up ran out with 1 query unfinished");
        assertThat(clock.now).isBefore(deadline);
    }

    @Test
    void find_whenCloudWatchLogsCannotBeReached_fallsBackAndSaysWhy() {
        doThrow(SdkClientException.create("Unable to execute HTTP request: logs.us-east-1.amazonaws.com"))
                .when(logs).startQuery(any(StartQueryRequest.class));

        ReportLineSource.Found found = reportLines.find(null, List.of(task("t1", A, "arm64", T0, T0 + 10)), deadline());

        assertThat(found.lines()).isEmpty();
        assertThat(found.source()).contains("because CloudWatch Logs answered SdkClientException: Unable to execute HTTP request");
    }

    @Test
    void find_withoutRequestIds_queriesNothingAndSaysWhy() {
        TaskRecord noRequestId = task("t1", null, "arm64", T0, T0 + 10);

        ReportLineSource.Found found = reportLines.find(null, List.of(noRequestId), deadline());

        assertThat(found.lines()).isEmpty();
        assertThat(found.source()).startsWith("none: no task record carries a worker request id");
        verify(logs, never()).startQuery(any(StartQueryRequest.class));
    }

    @Test
    void find_neverPutsSomethingOtherThanARequestIdIntoAQuery() {
        indexed.put(A, reportRow(A, "10", "10", null, "100000000"));
        answerFromIndexedLines();

        ReportLineSource.Found found = reportLines.find(null,
                List.of(task("t1", A, "arm64", T0, T0 + 10), task("t2", "x\"] | display @message", "arm64", T0, T0 + 10)), deadline());

        ArgumentCaptor<StartQueryRequest> sent = ArgumentCaptor.forClass(StartQueryRequest.class);
        verify(logs).startQuery(sent.capture());
        assertThat(sent.getValue().queryString()).doesNotContain("display @message");
        assertThat(found.source()).contains("all 1 found").contains("1 task record(s) carry a request id that is not a Lambda request id");
    }
}
