package batchpipe.aggregator.delivery;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The "Run Completed" event: what a rule on the default bus sees in {@code detail}.
 *
 * @param label    the run spec's label, or null
 * @param headline the figures the summary item keeps ({@link Headline#of})
 */
public record RunCompleted(String runId, String label, String status, Map<String, Object> headline, ReportLocation report) {
    public static final String SOURCE = "batchpipe";
    public static final String DETAIL_TYPE = "Run Completed";

    public Map<String, Object> detail() {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("runId", runId);
        detail.put("label", label);
        detail.put("status", status);
        detail.put("headline", headline);
        Map<String, Object> where = new LinkedHashMap<>();
        where.put("bucket", report.bucket());
        where.put("prefix", report.prefix());
        where.put("uri", report.uri());
        where.put("keys", report.keys());
        detail.put("report", where);
        return detail;
    }
}
