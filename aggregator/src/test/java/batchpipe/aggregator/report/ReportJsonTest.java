package batchpipe.aggregator.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.TaskRecords;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.common.json.Json;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** report.json read back into the typed report: the same records, or an error naming the file and the field. */
class ReportJsonTest {

    /** Every optional part present: approximate counts, a tolerance, a problem, a run on both architectures. */
    private static Report fullReport() {
        List<TaskRecord> tasks = List.of(
                TaskRecords.task("scan-a", "scan").times(1_000L, 1_100, 1_600).invocation("req-1", "worker").platform("arm64", 1769)
                        .workers(2, 1.0).cold(true, 250L).writes(1, 3.5, 3.5).scanned(1_000, 3, 4_000_000, 500_000)
                        .countBy("level", java.util.Map.of("INFO", 900L, "WARN", 100L))
                        .countByAccuracy("level", new batchpipe.common.run.CountAccuracy(false, 7, false)).build(),
                TaskRecords.task("scan-b", "scan").times(1_000L, 1_200, 2_400).invocation("req-2", "worker").platform("x86_64", 1769)
                        .workers(2, 1.0).scanned(500, 0, 2_000_000, 250_000).status(TaskStatus.REJECTED, "corrupt").build(),
                TaskRecords.task("hash-000001", "hash").times(1_000L, 2_000, 4_000).invocation("req-2", "worker").platform("x86_64", 1769)
                        .hashed(10, 10).build());
        return RunReport.of("r1", TaskRecords.run("both", 1_000, 2, 1, "{\"toleratedFailurePercent\":50,\"scan\":[{\"bucket\":\"b\"}]}"),
                tasks, PriceTable.defaults(), ReportInputs.withoutReportLines(CostAssumptions.defaults())).report();
    }

    @Test
    void fromJson_readsBackTheRecordsReportJsonWasWrittenFrom() {
        Report report = fullReport();
        assertThat(report.figures().countByAccuracy()).isNotEmpty();
        assertThat(report.figures().failureTolerance()).isNotNull();
        assertThat(report.cost().byArchitecture().measuredSpeedRatio()).isNotNull();

        Report read = Report.fromJson(Json.writePretty(report), "out/r1/report.json");

        assertThat(read).isEqualTo(report);
        assertThat(Json.writePretty(read)).isEqualTo(Json.writePretty(report));
    }

    @Test
    void fromJson_ofTheSummaryHasNoInputs() {
        Report summary = fullReport().withoutInputs();

        assertThat(Report.fromJson(Json.write(summary), "summary").inputs()).isNull();
    }

    @Test
    void fromJson_namesTheFileAndTheFieldThatIsMissing() {
        String json = Json.write(fullReport()).replace("\"p99.9\":", "\"p99_9\":");

        assertThatThrownBy(() -> Report.fromJson(json, "a/report.json")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a/report.json is not a report.json Batchpipe wrote: 'overall.latency.taskDurationMs.p99.9' should be a whole number,"
                        + " found null");
    }

    @Test
    void fromJson_namesTheFileAndTheFieldOfTheWrongType() {
        String json = Json.write(fullReport()).replaceFirst("\"tasks\":3,", "\"tasks\":\"three\",");

        assertThatThrownBy(() -> Report.fromJson(json, "b/report.json")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("b/report.json is not a report.json Batchpipe wrote: 'overall.tasks' should be a whole number, found a string");
    }

    @Test
    void fromJson_refusesJsonThatIsNotAReportNamingTheFile() {
        assertThatThrownBy(() -> Report.fromJson("[1, 2]", "list.json")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("list.json is not a report.json Batchpipe wrote: the top level should be an object, found an array");
        assertThatThrownBy(() -> Report.fromJson("{\"runId\": 1}", "odd.json")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("odd.json is not a report.json Batchpipe wrote: 'runId' should be a string, found a number");
        assertThatThrownBy(() -> Report.fromJson("not json", "text.json")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("text.json is not a report.json Batchpipe wrote: invalid JSON at offset 0");
    }
}
