package batchpipe.aggregator;

import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.cost.ReportLine;
import batchpipe.aggregator.delivery.ReportDocuments;
import batchpipe.aggregator.report.HtmlReport;
import batchpipe.aggregator.report.MarkdownReport;
import batchpipe.common.json.Json;
import batchpipe.common.table.DynamoDbJson;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/**
 * Every figure of a run's four report files stays the same for the same stored run, whatever the code
 * that reads the records and renders them becomes. The runs under {@code src/test/resources/golden/} are
 * real runs of the local stack, exported with {@code aws dynamodb query} (DynamoDB JSON, the run record
 * and the task records as the worker and the producer wrote them). Their {@code written-by-b2163fc/} files
 * were rendered by the code before the typed run model, which reproduced them byte for byte; their
 * {@code expected/} files are today's, changed only on purpose (issue 15: cold starts per invocation, figures shown to 4 significant figures, countby.csv,
 * what each latency measures). golden-1 has no REPORT lines (as
 * on a stack without CloudWatch Logs); golden-2 has a rejected task, truncated countBy values and REPORT
 * lines for every invocation, two of them cold.
 *
 * <p>A change that moves a figure on purpose regenerates the expected files with
 * {@code -Dgolden.update=true} and says why in its commit.
 */
class GoldenReportTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden");
    private static final String GOLDEN_SOURCE = "golden fixture: report-lines.json beside the run's items";

    @ParameterizedTest
    @ValueSource(strings = {"golden-1", "golden-2"})
    void theFourFilesOfAStoredRunAreRenderedExactlyAsBeforeTheTypedModel(String runId) throws IOException {
        Path dir = GOLDEN.resolve(runId);
        List<Map<String, AttributeValue>> items = new ArrayList<>(DynamoDbJson.items(Files.readString(dir.resolve("items.json"))));
        // in sort-key order, as a Query returns them
        items.sort(Comparator.comparing(i -> i.get("sk").s()));
        DynamoDbClient dynamoDb = mock(DynamoDbClient.class);
        when(dynamoDb.query(any(QueryRequest.class))).thenAnswer(call -> {
            QueryRequest request = call.getArgument(0);
            String prefix = request.expressionAttributeValues().get(":sk").s();
            return QueryResponse.builder().items(items.stream().filter(i -> i.get("sk").s().startsWith(prefix)).toList()).build();
        });
        ReportInputs inputs = Files.exists(dir.resolve("report-lines.json"))
                ? new ReportInputs(reportLines(Files.readString(dir.resolve("report-lines.json"))), GOLDEN_SOURCE, CostAssumptions.defaults())
                : ReportInputs.withoutReportLines(CostAssumptions.defaults());

        RunReport report = new ReportBuilder(new RunReader(dynamoDb, "golden-table"), PriceTable.defaults(),
                CostAssumptions.defaults(), ReportLineSource.NONE).build(runId, inputs);
        Map<String, String> files = ReportDocuments.render(report);

        Path expected = dir.resolve("expected");
        // what this code rendered, beside the build's other output, to diff against expected/ by hand
        Path actual = Path.of("target/golden", runId);
        Files.createDirectories(actual);
        for (Map.Entry<String, String> file : files.entrySet()) {
            Files.writeString(actual.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
        }
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(expected);
            for (Map.Entry<String, String> file : files.entrySet()) {
                Files.writeString(expected.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
            }
        }
        assertThat(files.keySet()).containsExactlyElementsOf(ReportDocuments.FILE_NAMES);
        for (Map.Entry<String, String> file : files.entrySet()) {
            assertThat(file.getValue()).as(runId + "/" + file.getKey())
                    .isEqualTo(Files.readString(expected.resolve(file.getKey()), StandardCharsets.UTF_8));
        }
    }

    /**
     * A report.json the earlier code wrote reads back into the typed report, and that report renders
     * report.md and report.html exactly as the earlier code did: stored reports stay readable and comparable.
     */
    @ParameterizedTest
    @ValueSource(strings = {"golden-1", "golden-2"})
    void aReportJsonOfTheEarlierCodeReadsBackAndRendersItsOwnMarkdownAndHtml(String runId) throws IOException {
        Path expected = GOLDEN.resolve(runId).resolve("expected");

        Report report = Report.fromJson(Files.readString(expected.resolve("report.json"), StandardCharsets.UTF_8), runId + "/report.json");

        assertThat(Json.writePretty(report) + "\n").isEqualTo(Files.readString(expected.resolve("report.json"), StandardCharsets.UTF_8));
        assertThat(MarkdownReport.render(report)).isEqualTo(Files.readString(expected.resolve("report.md"), StandardCharsets.UTF_8));
        assertThat(HtmlReport.render(report)).isEqualTo(Files.readString(expected.resolve("report.html"), StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked") // JSON read by hand for the fixture
    private static List<ReportLine> reportLines(String json) {
        List<ReportLine> lines = new ArrayList<>();
        for (Object o : (List<Object>) Json.parse(json)) {
            Map<String, Object> l = (Map<String, Object>) o;
            lines.add(new ReportLine((String) l.get("requestId"), (String) l.get("function"), (String) l.get("architecture"),
                    ((Number) l.get("memoryMb")).intValue(), ((Number) l.get("durationMs")).doubleValue(),
                    ((Number) l.get("billedMs")).longValue(),
                    l.get("initMs") == null ? null : ((Number) l.get("initMs")).doubleValue(),
                    l.get("maxMemoryUsedMb") == null ? null : ((Number) l.get("maxMemoryUsedMb")).intValue()));
        }
        return lines;
    }
}
