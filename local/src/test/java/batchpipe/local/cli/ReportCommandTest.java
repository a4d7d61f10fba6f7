package batchpipe.local.cli;

import batchpipe.common.run.HashOutcome;
import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.run.WorkerInvocation;
import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.delivery.ReportDocuments;
import batchpipe.common.json.Json;
import batchpipe.local.report.ReportFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.withSettings;

/**
 * `report RUN_ID` through the real command line, with Mockito clients in place of the stack's: the
 * stored report is read (from the run's folder, else from S3 where the summary item says), or recomputed
 * from the records, and neither path writes the table.
 */
class ReportCommandTest {
    private static final TaskRecord TASK = TaskRecord.builder().runId("r1").taskId("hash-000001").kind("hash").status(TaskStatus.DONE)
            .enqueuedAt(1_000L).startedAt(1_500).finishedAt(3_000)
            .invocation(new WorkerInvocation("req-1", "worker", null, 1024, "arm64", null, null, null, null)).hash(new HashOutcome(4, 4)).build();
    private static final RunRecord RUN = new RunRecord("r1", null, null, new Planned(0, 1, 1), 0, 1_000, "running", 1, null, null,
            List.of(), null, null);

    @TempDir
    Path tmp;

    private final DynamoDbClient dynamoDb = mock(DynamoDbClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
    private final S3Client s3 = mock(S3Client.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));


    /** The files the aggregator rendered for run r1, by name, as it would have put them in S3. */
    private static Map<String, String> storedFiles() {
        RunReport report = RunReport.of("r1", RUN, List.of(TASK), PriceTable.defaults(), ReportInputs.withoutReportLines(CostAssumptions.defaults()));
        return ReportDocuments.render(report);
    }

    private InProcessCli.Result run(Supplier<DynamoDbClient> dynamoDbClients, Supplier<S3Client> s3Clients, String... args) {
        return InProcessCli.run(InProcessCli.reportClients(dynamoDbClients, s3Clients), args);
    }

    private InProcessCli.Result run(String... args) {
        return run(() -> dynamoDb, () -> s3, args);
    }

    private static <T> Supplier<T> none(String what) {
        return () -> {
            throw new AssertionError("no " + what + " client may be made");
        };
    }

    @AfterEach
    void neverWritesTheTable() {
        verify(dynamoDb, never()).putItem(any(PutItemRequest.class));
        verify(dynamoDb, never()).updateItem(any(UpdateItemRequest.class));
        verify(dynamoDb, never()).deleteItem(any(DeleteItemRequest.class));
        verify(dynamoDb, never()).batchWriteItem(any(BatchWriteItemRequest.class));
        verify(dynamoDb, never()).transactWriteItems(any(TransactWriteItemsRequest.class));
        verify(s3, never()).putObject(any(PutObjectRequest.class), any(RequestBody.class));
    }

    @Test
    void report_printsTheStoredReportMdFromTheRunsFolderWithoutMakingAnyClient() throws Exception {
        Path folder = tmp.resolve("r1");
        ReportFiles.write(folder, RunReport.of("r1", RUN, List.of(TASK), PriceTable.defaults(),
                ReportInputs.withoutReportLines(CostAssumptions.defaults())));

        InProcessCli.Result result = run(none("DynamoDB"), none("S3"), "report", "r1", "--out", folder.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).isEqualTo(Files.readString(folder.resolve("report.md")));
        assertThat(result.err()).contains("the stored report of run r1, from " + folder);
    }

    @Test
    void report_withJson_printsTheStoredReportJson() throws Exception {
        Path folder = tmp.resolve("r1");
        ReportFiles.write(folder, RunReport.of("r1", RUN, List.of(TASK), PriceTable.defaults(),
                ReportInputs.withoutReportLines(CostAssumptions.defaults())));

        InProcessCli.Result result = run(none("DynamoDB"), none("S3"), "report", "r1", "--out", folder.toString(), "--json");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(Json.parseObject(result.out())).isEqualTo(Json.parseObject(Files.readString(folder.resolve("report.json"))));
    }

    @Test
    void report_copiesTheFilesTheSummaryItemNamesAndPrintsThem() throws Exception {
        Map<String, String> stored = storedFiles();
        Map<String, AttributeValue> summary = new LinkedHashMap<>();
        summary.put("pk", AttributeValue.fromS("run#r1"));
        summary.put("sk", AttributeValue.fromS("summary"));
        summary.put("status", AttributeValue.fromS("complete"));
        summary.put("reportBucket", AttributeValue.fromS("bkt"));
        summary.put("reportPrefix", AttributeValue.fromS("reports/r1/"));
        summary.put("reportKeys", AttributeValue.fromL(stored.keySet().stream().map(f -> AttributeValue.fromS("reports/r1/" + f)).toList()));
        doReturn(GetItemResponse.builder().item(summary).build()).when(dynamoDb).getItem(any(GetItemRequest.class));
        doAnswer(invocation -> {
            GetObjectRequest request = invocation.getArgument(0);
            assertThat(request.bucket()).isEqualTo("bkt");
            String name = request.key().substring("reports/r1/".length());
            return ResponseBytes.fromByteArray(GetObjectResponse.builder().build(), stored.get(name).getBytes(StandardCharsets.UTF_8));
        }).when(s3).getObjectAsBytes(any(GetObjectRequest.class));
        Path folder = tmp.resolve("fetched");

        InProcessCli.Result result = run("report", "r1", "--table", "tbl", "--out", folder.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        for (Map.Entry<String, String> file : stored.entrySet()) {
            assertThat(Files.readString(folder.resolve(file.getKey()))).as(file.getKey()).isEqualTo(file.getValue());
        }
        assertThat(result.out()).isEqualTo(stored.get("report.md"));
        assertThat(result.err()).contains("from s3://bkt/reports/r1/, copied to " + folder);
    }

    @Test
    void recompute_buildsTheReportFromTheRecordsSaysSoFirstAndWritesNeitherTheTableNorS3() throws Exception {
        doAnswer(invocation -> {
            QueryRequest request = invocation.getArgument(0);
            String prefix = request.expressionAttributeValues().get(":sk").s();
            if (prefix.equals("invocation#")) return QueryResponse.builder().build(); // a run of workers that wrote none
            return QueryResponse.builder().items(prefix.equals("run") ? RUN.toItem() : TASK.toItem()).build();
        }).when(dynamoDb).query(any(QueryRequest.class));
        Path folder = tmp.resolve("recomputed");

        InProcessCli.Result result = run(() -> dynamoDb, none("S3"), "report", "r1", "--table", "tbl", "--recompute", "--out", folder.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.err().lines().findFirst().orElseThrow())
                .startsWith("batchpipe report: recomputed run r1 from table tbl (REPORT lines: none: ")
                .endsWith("the table and the stored report are unchanged");
        assertThat(Json.parseObject(Files.readString(folder.resolve("report.json")))).isEqualTo(Json.parseObject(storedFiles().get("report.json")));
        assertThat(result.out()).isEqualTo(Files.readString(folder.resolve("report.md")));
        verify(dynamoDb, never()).getItem(any(GetItemRequest.class));
    }

    @Test
    void compare_readsTwoStoredReportsFromTheirFoldersWithoutAnyClient() throws Exception {
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        ReportFiles.write(a, RunReport.of("r1", RUN, List.of(TASK), PriceTable.defaults(), ReportInputs.withoutReportLines(CostAssumptions.defaults())));
        ReportFiles.write(b, RunReport.of("r2", RUN, List.of(TASK), PriceTable.defaults(), ReportInputs.withoutReportLines(CostAssumptions.defaults())));
        Path out = tmp.resolve("compared");

        InProcessCli.Result result = run(none("DynamoDB"), none("S3"), "report", "--compare", a.toString(), b.toString(), "--out", out.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).startsWith("# Batchpipe runs compared\n\nA: r1  \nB: r2\n")
                .contains("| latency | taskDurationMs p50 | 1.5 s | 1.5 s | 0 ms | 1 |\n");
        assertThat(out.resolve("compare.md")).exists();
        assertThat(out.resolve("compare.html")).exists();
    }

    @Test
    void compare_refusesAReportJsonBatchpipeDidNotWriteNamingTheFileAndTheField() throws Exception {
        Path a = tmp.resolve("a");
        ReportFiles.write(a, RunReport.of("r1", RUN, List.of(TASK), PriceTable.defaults(), ReportInputs.withoutReportLines(CostAssumptions.defaults())));
        Path foreign = Files.createDirectories(tmp.resolve("foreign")).resolve("report.json");
        Files.writeString(foreign, "{\"runId\": \"x\", \"planned\": {\"total\": \"many\"}}");

        InProcessCli.Result result = run(none("DynamoDB"), none("S3"), "report", "--compare", a.toString(), foreign.toString(),
                "--out", tmp.resolve("compared").toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).isEqualTo("batchpipe: " + foreign + " is not a report.json Batchpipe wrote: 'planned.total' should be"
                + " a whole number, found a string" + System.lineSeparator());
    }

    @Test
    void report_withNothingStored_isOneLineNamingWhereItLookedAndSuggestingRecompute() {
        doReturn(GetItemResponse.builder().build()).when(dynamoDb).getItem(any(GetItemRequest.class));
        doThrow(NoSuchKeyException.builder().statusCode(404).message("Not Found").build()).when(s3).headObject(any(HeadObjectRequest.class));
        Path folder = tmp.resolve("r1");

        InProcessCli.Result result = run("report", "r1", "--table", "tbl", "--reports", "s3://bkt/reports/", "--out", folder.toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).hasLineCount(1).startsWith("batchpipe: no stored report for run 'r1': no " + folder.resolve("report.json"))
                .contains("no summary item naming its files in table tbl", "no s3://bkt/reports/r1/report.json",
                        "`batchpipe report r1 --recompute` rebuilds it");
        assertThat(folder).doesNotExist();
    }

    @Test
    void report_withNothingStoredAndNoStack_namesTheFolderAndTheWaysToAStack() {
        assumeTrue(System.getenv("AWS_ENDPOINT_URL_DYNAMODB") == null && System.getProperty("aws.endpointUrlDynamoDb") == null,
                "a local stack's endpoint is set for this process");
        Path folder = tmp.resolve("r1");

        InProcessCli.Result result = run(none("DynamoDB"), none("S3"), "report", "r1", "--out", folder.toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).hasLineCount(1).contains("no stored report for run 'r1': no " + folder.resolve("report.json"),
                "no stack to fetch it from", "--recompute");
    }

    @Test
    void report_refusesAnOptionThatOnlyShapesARecomputedReport() {
        InProcessCli.Result result = run(none("DynamoDB"), none("S3"), "report", "r1", "--table", "tbl", "--report-lines", "none");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).hasLineCount(1).contains("--report-lines shapes a recomputed report only: add --recompute");
    }
}
