package batchpipe.aggregator;

import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.common.run.RunRecord;

import java.time.Instant;

/**
 * Builds a run's report from its stored records, and writes nothing anywhere: the aggregator stores
 * what it builds ({@link ReportService}), while `batchpipe report --recompute` only shows it, so that
 * looking at a run again never changes the run's summary or status.
 */
public final class ReportBuilder {
    private final RunReader reader;
    private final PriceTable prices;
    private final CostAssumptions assumptions;
    private final ReportLineSource reportLines;

    /** @param reportLines where {@link #build(String, Instant)} looks for the REPORT lines of the run's invocations */
    public ReportBuilder(RunReader reader, PriceTable prices, CostAssumptions assumptions, ReportLineSource reportLines) {
        this.reader = reader;
        this.prices = prices;
        this.assumptions = assumptions;
        this.reportLines = reportLines;
    }

    /** With the REPORT lines the source finds by {@code deadline}, and the configured assumptions. */
    public RunReport build(String runId, Instant deadline) {
        RunFold fold = new RunFold(prices);
        try {
            RunRecord run = read(runId, fold);
            ReportLineSource.Found found = reportLines.find(run, fold.invocations(), deadline);
            return fold.report(runId, run, new ReportInputs(found.lines(), found.source(), assumptions));
        } finally {
            fold.close();
        }
    }

    /** With the given REPORT lines and assumptions instead. */
    public RunReport build(String runId, ReportInputs inputs) {
        RunFold fold = new RunFold(prices);
        try {
            return fold.report(runId, read(runId, fold), inputs);
        } finally {
            fold.close();
        }
    }

    /** The run record (null when there is none), its records folded into {@code fold}. */
    private RunRecord read(String runId, RunFold fold) {
        RunRecord run = reader.fold(runId, fold);
        if (run == null && fold.tasks() == 0) {
            throw new IllegalArgumentException("run '" + runId + "' not found in table " + reader.table());
        }
        return run;
    }
}
