package batchpipe.aggregator;

import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;

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
        RunReader.StoredRun stored = read(runId);
        ReportLineSource.Found found = reportLines.find(stored.run(), stored.tasks(), deadline);
        return RunReport.of(runId, stored.run(), stored.tasks(), stored.invocations(), prices, new ReportInputs(found.lines(), found.source(), assumptions));
    }

    /** With the given REPORT lines and assumptions instead. */
    public RunReport build(String runId, ReportInputs inputs) {
        RunReader.StoredRun stored = read(runId);
        return RunReport.of(runId, stored.run(), stored.tasks(), stored.invocations(), prices, inputs);
    }

    private RunReader.StoredRun read(String runId) {
        RunReader.StoredRun stored = reader.read(runId);
        if (stored.run() == null && stored.tasks().isEmpty()) {
            throw new IllegalArgumentException("run '" + runId + "' not found in table " + reader.table());
        }
        return stored;
    }
}
