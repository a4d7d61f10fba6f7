package batchpipe.local.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.SummaryItem;
import batchpipe.aggregator.delivery.ReportDocuments;
import batchpipe.aggregator.delivery.ReportLocation;
import batchpipe.common.table.TableKeys;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;

import java.util.Map;

/**
 * A run's summary item as the aggregator writes it: its status and where its report files are. The
 * full report is report.json in S3, read from there.
 */
public record RunSummaryItem(String runId, String status, ReportLocation report, String completionEvent) {

    /** The run's summary item, or null when the run has none (yet). */
    public static RunSummaryItem read(DynamoDbClient dynamoDb, String table, String runId) {
        Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(table).consistentRead(true)
                .key(TableKeys.key(runId, TableKeys.SUMMARY_SK)))
                .item();
        if (item == null || item.isEmpty() || !item.containsKey(SummaryItem.REPORT_BUCKET)) return null;
        ReportLocation location = new ReportLocation(item.get(SummaryItem.REPORT_BUCKET).s(), item.get(SummaryItem.REPORT_PREFIX).s(),
                item.get(SummaryItem.REPORT_KEYS).l().stream().map(AttributeValue::s).toList());
        return new RunSummaryItem(runId, item.get("status").s(), location,
                item.containsKey("completionEvent") ? item.get("completionEvent").s() : null);
    }

    public boolean complete() {
        return "complete".equals(status);
    }

    /**
     * report.json, every figure of the run, from the bucket the summary names.
     *
     * @throws IllegalArgumentException naming the object and the field when it is not a report.json Batchpipe wrote
     */
    public Report fullReport(S3Client s3) {
        String key = report.key(ReportDocuments.REPORT_JSON);
        return Report.fromJson(s3.getObjectAsBytes(b -> b.bucket(report.bucket()).key(key)).asUtf8String(),
                "s3://" + report.bucket() + "/" + key);
    }
}
