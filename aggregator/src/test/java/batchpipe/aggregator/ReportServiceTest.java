package batchpipe.aggregator;

import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;
import batchpipe.aggregator.cost.BilledInvocation;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.cost.ReportLine;
import batchpipe.aggregator.delivery.ReportStore;
import batchpipe.aggregator.delivery.RunCompleted;
import batchpipe.aggregator.delivery.RunEvents;
import batchpipe.aggregator.report.SpillFiles;
import batchpipe.common.json.Json;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.mockito.Mockito.withSettings;

class ReportServiceTest {
    /** No REPORT-line source is configured here, so nothing waits for this deadline. */
    private static final Instant DEADLINE = Instant.parse("2030-01-01T00:00:00Z");
    private RunReader reader;
    private DynamoDbClient dynamoDb;
    private S3Client s3;
    private ReportService service;
    private final List<String> metrics = new ArrayList<>();
    private final List<RunCompleted> announced = new ArrayList<>();
    private final RunEvents events = new RunEvents() {
        @Override
        public String destination() {
            return "the test's list";
        }

        @Override
        public void publish(RunCompleted event) {
            announced.add(event);
        }
    };

    private static TaskRecords.Builder task() {
        return TaskRecords.task("hash-000001", "hash").times(1_000L, 1_500, 3_000).hashed(4, 4).invocation("req-1", "worker")
                .platform("arm64", 1024);
    }

    private static final TaskRecord TASK = task().build();

    @BeforeEach
    void setUp() {
        reader = mock(RunReader.class);
        when(reader.table()).thenReturn("tbl");
        dynamoDb = mock(DynamoDbClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        doReturn(PutItemResponse.builder().build()).when(dynamoDb).putItem(any(PutItemRequest.class));
        doReturn(UpdateItemResponse.builder().build()).when(dynamoDb).updateItem(any(UpdateItemRequest.class));
        s3 = mock(S3Client.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        doReturn(PutObjectResponse.builder().build()).when(s3).putObject(any(PutObjectRequest.class), any(RequestBody.class));
        service = new ReportService(reader, dynamoDb, "tbl", PriceTable.defaults(), CostAssumptions.defaults(), metrics::add,
                Clock.fixed(Instant.ofEpochMilli(9_000), ZoneOffset.UTC), ReportLineSource.NONE, new ReportStore(s3, "bkt", "reports"), events);
    }

    private static RunRecord run(long total) {
        return TaskRecords.run(null, 1_000, 0, total, null);
    }

    @Test
    void report_putsTheFiveFilesUnderTheRunsFolder() {
        stored("r1", run(1), List.of(TASK));

        service.report("r1", DEADLINE);

        ArgumentCaptor<PutObjectRequest> put = ArgumentCaptor.forClass(PutObjectRequest.class);
        verify(s3, times(5)).putObject(put.capture(), any(RequestBody.class));
        assertThat(put.getAllValues()).extracting(PutObjectRequest::key)
                .containsExactly("reports/r1/report.json", "reports/r1/report.md", "reports/r1/tasks.csv", "reports/r1/countby.csv", "reports/r1/report.html");
        assertThat(put.getAllValues()).allSatisfy(p -> assertThat(p.bucket()).isEqualTo("bkt"));
        assertThat(put.getAllValues().get(3).contentType()).isEqualTo("text/csv; charset=utf-8");
        assertThat(put.getAllValues().get(4).contentType()).isEqualTo("text/html; charset=utf-8");
    }

    @Test
    @SuppressWarnings("unchecked")
    void report_keepsOnlyTheHeadlineAndTheFilesInTheSummaryItem() {
        stored("r1", run(1), List.of(TASK));

        service.report("r1", DEADLINE);

        ArgumentCaptor<PutItemRequest> put = ArgumentCaptor.forClass(PutItemRequest.class);
        verify(dynamoDb).putItem(put.capture());
        Map<String, AttributeValue> item = put.getValue().item();
        assertThat(item).doesNotContainKey("report")
                .containsEntry("reportBucket", AttributeValue.fromS("bkt")).containsEntry("reportPrefix", AttributeValue.fromS("reports/r1/"))
                .containsEntry("completionEvent", AttributeValue.fromS("the test's list"));
        assertThat(item.get("reportKeys").l()).extracting(AttributeValue::s).contains("reports/r1/report.json");
        Map<String, Object> headline = Json.parseObject(item.get("headline").s());
        assertThat(headline).containsEntry("tasks", 1L).containsEntry("plannedTasks", 1L).containsEntry("taskDurationP99Ms", 1_500L);
        assertThat((Map<String, Object>) headline.get("byStatus")).containsEntry("done", 1L);
    }

    @Test
    void report_summaryItemStaysSmallWhateverCountByHolds() {
        Map<String, Long> values = new java.util.HashMap<>();
        for (int i = 0; i < 20_000; i++) values.put("value-" + i + "-" + "x".repeat(20), (long) i);
        TaskRecord task = task().countBy("field", values).build();
        stored("r1", run(1), List.of(task));

        service.report("r1", DEADLINE);

        ArgumentCaptor<PutItemRequest> put = ArgumentCaptor.forClass(PutItemRequest.class);
        verify(dynamoDb).putItem(put.capture());
        int bytes = put.getValue().item().entrySet().stream()
                .mapToInt(e -> e.getKey().length() + Json.write(e.getValue().toString()).length()).sum();
        assertThat(bytes).isLessThan(4_096);
    }

    @Test
    void report_announcesACompleteRunWithItsHeadlineAndFiles() {
        stored("r1", TaskRecords.run("nightly", 1_000, 0, 1, null), List.of(TASK));

        service.report("r1", DEADLINE);

        assertThat(announced).hasSize(1);
        RunCompleted event = announced.get(0);
        assertThat(event.runId()).isEqualTo("r1");
        assertThat(event.label()).isEqualTo("nightly");
        assertThat(event.status()).isEqualTo("complete");
        assertThat(event.headline().tasks()).isEqualTo(1);
        assertThat(JsonForm.of(event.detail())).containsEntry("runId", "r1").containsEntry("label", "nightly")
                .containsEntry("headline", JsonForm.plain(event.headline()));
        assertThat(event.report().uri()).isEqualTo("s3://bkt/reports/r1/");
    }

    @Test
    void report_doesNotAnnounceAnIncompleteRun() {
        stored("r1", run(2), List.of(TASK));

        service.report("r1", DEADLINE);

        assertThat(announced).isEmpty();
    }

    @Test
    void reportAgain_replacesFilesAndSummaryWithoutAnnouncingTheRunAgain() {
        stored("r1", run(1), List.of(TASK));

        service.reportAgain("r1", ReportInputs.withoutReportLines(CostAssumptions.defaults()));

        assertThat(announced).isEmpty();
        verify(dynamoDb).putItem(any(PutItemRequest.class));
        verify(s3, times(5)).putObject(any(PutObjectRequest.class), any(RequestBody.class));
    }

    @Test
    void report_whoseFilesCannotBeStoredDeletesItsSpilledRowsBeforeFailing() {
        stored("r1", run(1), List.of(TASK));
        doThrow(S3Exception.builder().message("slow down").statusCode(503).build())
                .when(s3).putObject(any(PutObjectRequest.class), any(RequestBody.class));
        Set<Path> before = SpillFiles.present();

        // the aggregator retries the message; each failed attempt must not leave its rows in the warm instance's /tmp
        assertThatThrownBy(() -> service.report("r1", DEADLINE)).isInstanceOf(S3Exception.class);

        assertThat(SpillFiles.addedSince(before)).isEmpty();
        verify(dynamoDb, never()).putItem(any(PutItemRequest.class));
    }

    @Test
    void report_closedByItsCallerLeavesNoSpilledRows() {
        stored("r1", run(1), List.of(TASK));
        Set<Path> before = SpillFiles.present();

        service.report("r1", DEADLINE).close();

        assertThat(SpillFiles.addedSince(before)).isEmpty();
    }

    @Test
    void report_refusesARunIdThatCannotNameAFolder() {
        stored("../r1", run(1), List.of(TASK));

        assertThatThrownBy(() -> service.report("../r1", DEADLINE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'../r1' is not a run id");
        verify(s3, never()).putObject(any(PutObjectRequest.class), any(RequestBody.class));
    }

    @Test
    void report_writesTheSummaryItemAndMarksACompleteRun() {
        stored("r1", run(1), List.of(TASK));

        Map<String, Object> report = JsonForm.of(service.report("r1", DEADLINE).summary());

        assertThat(report).containsEntry("status", "complete");
        ArgumentCaptor<PutItemRequest> put = ArgumentCaptor.forClass(PutItemRequest.class);
        verify(dynamoDb).putItem(put.capture());
        assertThat(put.getValue().tableName()).isEqualTo("tbl");
        Map<String, AttributeValue> item = put.getValue().item();
        assertThat(item).containsEntry("pk", AttributeValue.fromS("run#r1")).containsEntry("sk", AttributeValue.fromS("summary"))
                .containsEntry("runId", AttributeValue.fromS("r1")).containsEntry("status", AttributeValue.fromS("complete"));
        ArgumentCaptor<UpdateItemRequest> update = ArgumentCaptor.forClass(UpdateItemRequest.class);
        verify(dynamoDb).updateItem(update.capture());
        assertThat(update.getValue().key()).isEqualTo(Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("run")));
        assertThat(update.getValue().updateExpression()).isEqualTo("SET #status = :complete");
        assertThat(update.getValue().expressionAttributeNames()).isEqualTo(Map.of("#status", "status"));
        assertThat(update.getValue().expressionAttributeValues()).isEqualTo(Map.of(":complete", AttributeValue.fromS("complete")));
    }

    @Test
    @SuppressWarnings("unchecked")
    void report_withoutReportLinesMeasuresTheInvocationFromItsTaskRecords() {
        stored("r1", run(1), List.of(TASK));

        Map<String, Object> report = JsonForm.of(service.report("r1", DEADLINE).summary());

        Map<String, Object> cost = (Map<String, Object>) report.get("cost");
        assertThat((Map<String, Object>) cost.get("durations")).containsEntry("REPORT line", 0L).containsEntry("task records", 1L);
        Map<String, Object> lambda = (Map<String, Object>) cost.get("lambda");
        // 3,000 - 1,500 = 1,500 ms at 1,024 MB = 1.5 GB-s
        assertThat((BigDecimal) lambda.get("gbSeconds")).isEqualByComparingTo("1.5");
        assertThat(report).doesNotContainKey("inputs");
    }

    @Test
    @SuppressWarnings("unchecked")
    void report_usesTheReportLinesItIsGivenAndKeepsThemInTheFullReportOnly() {
        stored("r1", run(1), List.of(TASK));
        List<ReportLine> lines = List.of(new ReportLine("req-1", "worker", "arm64", 1024, 1_999.2, 2_000, null),
                // a cold start: Billed Duration 600 = ceil(99.0 + 500.4), its INIT inside
                new ReportLine("req-producer", "producer", "arm64", 1024, 99.0, 600, 500.4));

        RunReport report = service.reportAgain("r1", new ReportInputs(lines, "two test lines", CostAssumptions.defaults()));

        Map<String, Object> lambda = JsonForm.at(report.report(), "cost", "lambda");
        // 2,000 + 600 billed ms, of which 600 - ceil(99.0) = 501 ms of INIT, all at 1,024 MB
        assertThat((BigDecimal) lambda.get("gbSeconds")).isEqualByComparingTo("2.6");
        assertThat((BigDecimal) lambda.get("initGbSeconds")).isEqualByComparingTo("0.501");
        Map<String, Object> inputs = JsonForm.at(report.report(), "inputs");
        assertThat(inputs).containsEntry("reportLines", "two test lines");
        assertThat((List<Map<String, Object>>) inputs.get("invocations")).extracting(i -> i.get("source"))
                .containsOnly(BilledInvocation.FROM_REPORT_LINE);
        assertThat(JsonForm.of(report.summary())).doesNotContainKey("inputs").containsKey("cost");
        assertThat(report.tasksCsv().render()).isEqualTo(batchpipe.aggregator.report.TasksCsv.render(List.of(TASK)));
    }

    @Test
    @SuppressWarnings("unchecked")
    void report_emitsTheHeadlineFiguresAsOneEmfDocument() {
        stored("r1", run(1), List.of(TASK));

        Map<String, Object> report = JsonForm.of(service.report("r1", DEADLINE).summary());

        assertThat(metrics).hasSize(1);
        Map<String, Object> emf = Json.parseObject(metrics.get(0));
        assertThat(emf).containsEntry("runId", "r1").containsEntry("Label", "unlabelled").containsEntry("Tasks", 1L)
                .containsEntry("TaskDurationP50", 1_500L);
        assertThat(emf.get("CostPerRunUsd")).isEqualTo(((Map<String, Object>) report.get("cost")).get("total"));
        Map<String, Object> aws = (Map<String, Object>) emf.get("_aws");
        assertThat(aws).containsEntry("Timestamp", 9_000L);
        Map<String, Object> directive = ((List<Map<String, Object>>) aws.get("CloudWatchMetrics")).get(0);
        assertThat(directive).containsEntry("Namespace", "Batchpipe").containsEntry("Dimensions", List.of(List.of("Label")));
        assertThat((List<Map<String, Object>>) directive.get("Metrics")).extracting(m -> m.get("Name"))
                .contains("Tasks", "TasksPerSecond", "TaskDurationP99", "EndToEndP99", "ColdStartShare", "CostPerRunUsd");
    }

    @Test
    void report_leavesAnIncompleteRunAsItIs() {
        stored("r1", run(2), List.of(TASK));

        Report report = service.report("r1", DEADLINE).summary();

        assertThat(report.figures().status()).isEqualTo("incomplete");
        verify(dynamoDb).putItem(any(PutItemRequest.class));
        verify(dynamoDb, never()).updateItem(any(UpdateItemRequest.class));
    }

    @Test
    void report_isTheSameWhenRunTwice() {
        stored("r1", run(1), List.of(TASK));

        assertThat(Json.write(service.report("r1", DEADLINE).summary())).isEqualTo(Json.write(service.report("r1", DEADLINE).summary()));
    }

    @Test
    void report_refusesARunThatIsNotThere() {
        stored("r9", null, List.of());

        assertThatThrownBy(() -> service.report("r9", DEADLINE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("run 'r9' not found in table tbl");
        verify(dynamoDb, never()).putItem(any(PutItemRequest.class));
    }

    /** The reader folds these records, as it would fold the pages of a Query. */
    private void stored(String runId, batchpipe.common.run.RunRecord run, List<batchpipe.common.run.TaskRecord> tasks) {
        when(reader.fold(org.mockito.ArgumentMatchers.eq(runId), any(RunFold.class))).thenAnswer(call -> {
            RunFold fold = call.getArgument(1);
            tasks.forEach(fold::add);
            return run;
        });
    }
}
