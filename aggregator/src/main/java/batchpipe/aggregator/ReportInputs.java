package batchpipe.aggregator;

import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.ReportLine;

import java.util.List;

/**
 * What a report is built from besides the run's records.
 *
 * @param reportLines       Lambda REPORT lines of the run's invocations (billed and init durations);
 *                          empty when none are known, and then durations are measured from the task records
 * @param reportLinesSource where the REPORT lines come from, said in the report
 */
public record ReportInputs(List<ReportLine> reportLines, String reportLinesSource, CostAssumptions assumptions) {
    public static final String NO_REPORT_LINES = "none: billed durations are not known here (on AWS they are in the"
            + " functions' CloudWatch Logs REPORT lines, which this aggregator does not query), so each worker invocation's"
            + " duration is measured from its task records";

    public ReportInputs {
        reportLines = List.copyOf(reportLines);
    }

    public static ReportInputs withoutReportLines(CostAssumptions assumptions) {
        return new ReportInputs(List.of(), NO_REPORT_LINES, assumptions);
    }
}
