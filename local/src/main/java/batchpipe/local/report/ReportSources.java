package batchpipe.local.report;

import batchpipe.aggregator.Report;
import batchpipe.common.task.TaskIds;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Finds the report of a run named on the command line, for comparisons: a report.json file, a folder
 * holding one, the run's folder under out/ (where the demo leaves it after its stack is gone), or
 * else the report.json that the run's summary item in a table names.
 */
public final class ReportSources {
    private ReportSources() {
    }

    /** @param table the table to look in when no file is found, or null when there is none to look in */
    public static Report load(String run, Path outRoot, Supplier<TableRef> table) throws IOException {
        Path given = Path.of(run);
        // A path the user gave is theirs to give; out/<run> is only looked at for a real run id, so that a
        // name such as ../x is not read as a run's folder.
        boolean runId = TaskIds.isValidRunId(run);
        List<Path> candidates = new ArrayList<>(List.of(given, given.resolve("report.json")));
        if (runId) candidates.add(outRoot.resolve(run).resolve("report.json"));
        for (Path candidate : candidates) {
            if (Files.isRegularFile(candidate)) {
                return Report.fromJson(Files.readString(candidate, StandardCharsets.UTF_8), candidate.toString());
            }
        }
        if (!runId) {
            throw new IllegalArgumentException("no report for '" + run + "': not a report.json, not a folder with one, and not a run id ("
                    + TaskIds.RUN_ID_RULE + ")");
        }
        TableRef ref = table.get();
        if (ref == null) {
            throw new IllegalArgumentException("no report for '" + run + "': not a report.json, not a folder with one, no "
                    + outRoot.resolve(run).resolve("report.json") + ", and no table to read it from (start `batchpipe local up` and"
                    + " paste its exports, or pass --table)");
        }
        RunSummaryItem summary = RunSummaryItem.read(ref.dynamoDb(), ref.table(), run);
        if (summary == null) {
            throw new IllegalArgumentException("no report for '" + run + "': no file, and table " + ref.table()
                    + " has no summary for it (the aggregator writes one when the run completes)");
        }
        return summary.fullReport(ref.s3());
    }

    /** A runs table, and the S3 client to read the report files its summary items name. */
    public record TableRef(DynamoDbClient dynamoDb, S3Client s3, String table) {
    }
}
