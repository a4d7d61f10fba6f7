package batchpipe.local.report;

import batchpipe.aggregator.delivery.ReportDocuments;
import batchpipe.aggregator.delivery.ReportLocation;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's stored report, as the aggregator left it in S3, copied into a folder: from where the run's
 * summary item says it is, else from the folder the stack keeps reports in. It only reads (GetItem on
 * the runs table, HeadObject and GetObject in S3): looking at a run never changes it.
 */
public final class StoredReports {
    private final S3Client s3;
    private final DynamoDbClient dynamoDb;
    private final String table;
    private final ReportLocation reportsFolder;

    /**
     * @param dynamoDb      the runs table's client, or null when there is no table to look in
     * @param table         the runs table, or null
     * @param reportsFolder where the stack would keep this run's files ({@code <ReportsLocation><runId>/}), looked
     *                      at when the table has no summary item naming them; or null when not known
     */
    public StoredReports(S3Client s3, DynamoDbClient dynamoDb, String table, ReportLocation reportsFolder) {
        this.s3 = s3;
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.reportsFolder = reportsFolder;
    }

    /** The files of run {@code runId}'s folder in the bucket and prefix a stack's ReportsLocation names. */
    public static ReportLocation runFolder(String bucket, String prefix, String runId) {
        String folder = prefix + runId + "/";
        return new ReportLocation(bucket, folder, ReportDocuments.FILE_NAMES.stream().map(name -> folder + name).toList());
    }

    /**
     * Copies run {@code runId}'s stored files into {@code dir}; returns where they were.
     *
     * @param alsoLooked where the caller looked already, said in the error when nothing is found
     * @throws NotStoredException when neither the summary item nor the reports folder has them
     */
    public ReportLocation copy(String runId, Path dir, String alsoLooked) throws IOException {
        List<String> looked = new ArrayList<>(List.of(alsoLooked));
        ReportLocation location = null;
        if (table != null) {
            RunSummaryItem summary = RunSummaryItem.read(dynamoDb, table, runId);
            if (summary != null) location = summary.report();
            else looked.add("no summary item naming its files in table " + table);
        }
        if (location == null && reportsFolder != null) {
            if (exists(reportsFolder)) location = reportsFolder;
            else looked.add("no " + reportsFolder.uri() + ReportDocuments.REPORT_JSON);
        }
        if (location == null) throw new NotStoredException(runId, looked);
        try {
            ReportFiles.copy(s3, location, dir);
        } catch (NoSuchKeyException e) {
            // The summary names files that are gone (a lifecycle rule, a hand): say which, not S3's "key does not exist".
            throw new NotStoredException(runId, List.of(location.uri() + " misses a file its summary item names (" + e.getMessage() + ")"));
        }
        return location;
    }

    private boolean exists(ReportLocation location) {
        try {
            s3.headObject(b -> b.bucket(location.bucket()).key(location.key(ReportDocuments.REPORT_JSON)));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        } catch (S3Exception e) {
            // HeadObject has no body, so a missing key arrives as a bare 404.
            if (e.statusCode() == 404) return false;
            throw e;
        }
    }

    /** No stored report where it was looked for; the message says where, and how to get a report anyway. */
    public static final class NotStoredException extends RuntimeException {
        public NotStoredException(String runId, List<String> looked) {
            super("no stored report for run '" + runId + "': " + String.join(", ", looked) + "; `batchpipe report " + runId
                    + " --recompute` rebuilds it from the run's records in the table");
        }
    }
}
