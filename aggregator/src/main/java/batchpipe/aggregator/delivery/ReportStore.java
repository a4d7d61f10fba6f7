package batchpipe.aggregator.delivery;

import batchpipe.aggregator.RunReport;
import batchpipe.common.task.TaskIds;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Puts a run's report files under {@code <prefix><runId>/} in a bucket. Each object is written whole
 * (PutObject; tasks.csv, which has a row per task, streams as a multipart upload, {@link MultipartUpload}),
 * so a reader sees the old file or the new one, never half of one; a second report of the same run
 * replaces the files.
 */
public final class ReportStore {
    private final S3Client s3;
    private final String bucket;
    private final String prefix;

    /** @param prefix empty, or ending in {@code /} ({@link #normalisePrefix}) */
    public ReportStore(S3Client s3, String bucket, String prefix) {
        this.s3 = s3;
        this.bucket = bucket;
        this.prefix = normalisePrefix(prefix);
    }

    /** A prefix that ends in one {@code /} unless empty, so that a parameter given as "reports" still means a folder. */
    public static String normalisePrefix(String prefix) {
        String p = prefix == null ? "" : prefix.strip();
        return p.isEmpty() || p.endsWith("/") ? p : p + "/";
    }

    /** tasks.csv or countby.csv, rows per task: never held whole, written part by part as read back from its spill. */
    private void streamRows(RunReport report, String name, String key) {
        MultipartUpload upload = new MultipartUpload(s3, bucket, key, ReportDocuments.contentType(name));
        try {
            if (name.equals(ReportDocuments.TASKS_CSV)) report.tasksCsv().writeTo(upload);
            else report.tasksCsv().writeCountByTo(upload);
            upload.close();
        } catch (IOException | RuntimeException e) {
            upload.abort();
            if (e instanceof IOException io) throw new UncheckedIOException(name + " could not be written to s3://" + bucket + "/" + key, io);
            throw (RuntimeException) e;
        }
    }

    public ReportLocation store(String runId, RunReport report) {
        // The run id names the folder: it is checked where runs are made, and again here, because a key
        // built from text that is not a run id could land anywhere under the prefix.
        if (!TaskIds.isValidRunId(runId)) {
            throw new IllegalArgumentException("'" + runId + "' is not a run id (" + TaskIds.RUN_ID_RULE + "); no report folder is made for it");
        }
        String folder = prefix + runId + "/";
        List<String> keys = new ArrayList<>();
        Map<String, String> figures = ReportDocuments.renderFigures(report);
        for (String name : ReportDocuments.FILE_NAMES) {
            String key = folder + name;
            // No encryption header: S3 encrypts every new object with at least SSE-S3 (since January 2023), the
            // stack's DataBucket says so in its BucketEncryption, a ReportBucket keeps its owner's choice (SSE-KMS
            // included), and S3Proxy, the local stack's S3, answers 501 to the header.
            if (ReportDocuments.ROW_FILES.contains(name)) {
                streamRows(report, name, key);
            } else {
                s3.putObject(b -> b.bucket(bucket).key(key).contentType(ReportDocuments.contentType(name)),
                        RequestBody.fromString(figures.get(name), StandardCharsets.UTF_8));
            }
            keys.add(key);
        }
        return new ReportLocation(bucket, folder, keys);
    }
}
