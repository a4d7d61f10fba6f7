package batchpipe.aggregator;

/**
 * Attribute names of a run's summary item that readers outside the aggregator use (the CLI finds
 * report.json through them).
 */
public final class SummaryItem {
    public static final String REPORT_BUCKET = "reportBucket";
    /** Ends in {@code <runId>/}; the files are {@code <prefix>report.json} and so on. */
    public static final String REPORT_PREFIX = "reportPrefix";
    public static final String REPORT_KEYS = "reportKeys";

    private SummaryItem() {
    }
}
