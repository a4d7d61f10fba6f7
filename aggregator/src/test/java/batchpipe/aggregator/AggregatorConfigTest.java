package batchpipe.aggregator;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AggregatorConfigTest {

    @Test
    void from_withoutReportLines_queriesNoLogs() {
        AggregatorConfig config = AggregatorConfig.from(Map.of("TABLE_NAME", "runs", "REPORT_BUCKET", "bkt"));

        assertThat(config.reportLines()).isEqualTo(AggregatorConfig.ReportLines.NONE);
        assertThat(config.workerLogGroups()).isEmpty();
        assertThat(config.runsPerMonth()).isEqualTo(30);
    }

    @Test
    void from_logsInsights_readsTheWorkerLogGroups() {
        AggregatorConfig config = AggregatorConfig.from(Map.of("TABLE_NAME", "runs", "REPORT_BUCKET", "bkt", "REPORT_LINES", "logs-insights",
                "WORKER_LOG_GROUPS", "/aws/lambda/worker, batchpipe-WorkerTwinLogGroup-Ab12,"));

        assertThat(config.reportLines()).isEqualTo(AggregatorConfig.ReportLines.LOGS_INSIGHTS);
        assertThat(config.workerLogGroups()).containsExactly("/aws/lambda/worker", "batchpipe-WorkerTwinLogGroup-Ab12");
    }

    @Test
    void from_logsInsightsWithoutLogGroups_namesTheMissingVariable() {
        assertThatThrownBy(() -> AggregatorConfig.from(Map.of("TABLE_NAME", "runs", "REPORT_BUCKET", "bkt", "REPORT_LINES", "logs-insights")))
                .hasMessageContaining("WORKER_LOG_GROUPS is not set");
    }

    @Test
    void from_unknownMode_namesTheVariableAndTheValuesItTakes() {
        assertThatThrownBy(() -> AggregatorConfig.from(Map.of("TABLE_NAME", "runs", "REPORT_BUCKET", "bkt", "REPORT_LINES", "insights")))
                .hasMessage("environment variable REPORT_LINES is 'insights'; it must be one of [logs-insights, none]");
    }

    @Test
    void from_reportsGoUnderReportsSlashAndToEventBridgeUnlessSaidOtherwise() {
        AggregatorConfig config = AggregatorConfig.from(Map.of("TABLE_NAME", "runs", "REPORT_BUCKET", "bkt"));

        assertThat(config.reportBucket()).isEqualTo("bkt");
        assertThat(config.reportPrefix()).isEqualTo("reports/");
        assertThat(config.runEventsFile()).isNull();
    }

    @Test
    void from_withoutReportBucket_namesTheMissingVariable() {
        assertThatThrownBy(() -> AggregatorConfig.from(Map.of("TABLE_NAME", "runs")))
                .hasMessageContaining("REPORT_BUCKET is not set");
    }

    @Test
    void logGroups_rejectsWhatIsNotALogGroupName() {
        assertThatThrownBy(() -> AggregatorConfig.logGroups("good,bad name"))
                .hasMessage("'bad name' is not a log group name: 1 to 512 letters, digits and _ . / # -");
        assertThatThrownBy(() -> AggregatorConfig.logGroups(" , "))
                .hasMessageContaining("no worker log group given");
        assertThatThrownBy(() -> AggregatorConfig.logGroups(String.join(",", java.util.stream.IntStream.range(0, 51).mapToObj(i -> "g" + i).toList())))
                .hasMessage("51 log groups given; one Logs Insights query takes at most 50");
        assertThat(AggregatorConfig.logGroups("a,a,b")).isEqualTo(List.of("a", "b"));
    }
}
