package batchpipe.aggregator.delivery;

import batchpipe.common.json.JsonFields;

/**
 * The "Run Completed" event: what a rule on the default bus sees in {@code detail}.
 *
 * @param label    the run spec's label, or null
 * @param headline the figures the summary item keeps
 */
public record RunCompleted(String runId, String label, String status, Headline headline, ReportLocation report) {
    public static final String SOURCE = "batchpipe";
    public static final String DETAIL_TYPE = "Run Completed";

    public JsonFields detail() {
        JsonFields where = new JsonFields().put("bucket", report.bucket()).put("prefix", report.prefix()).put("uri", report.uri())
                .put("keys", report.keys());
        return new JsonFields().put("runId", runId).put("label", label).put("status", status).put("headline", headline)
                .put("report", where);
    }
}
