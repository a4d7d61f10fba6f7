package batchpipe.local.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.delivery.ReportDocuments;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Every stored run report in one place, for the history of runs: the {@code <runId>/report.json} files of a
 * local folder (out/, where the demo and {@code run --wait} leave them), or of a stack's report prefix in S3
 * (ListObjectsV2 and GetObject only). A report.json that is not one Batchpipe wrote is skipped and named, so
 * one stray file does not hide every other run.
 *
 * @param reports the reports read, in no particular order
 * @param skipped one line per file that could not be read as a report: the file and why
 * @param where   the folder or S3 prefix whose {@code <runId>/report.json} files were looked for, for the page and
 *                for the error when there are none
 */
public record StoredRunReports(List<Report> reports, List<String> skipped, String where) {
    public StoredRunReports {
        reports = List.copyOf(reports);
        skipped = List.copyOf(skipped);
    }

    /** The {@code report.json} of each folder directly under {@code root}; none when {@code root} is not a folder. */
    public static StoredRunReports inFolder(Path root) throws IOException {
        List<Report> reports = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        String where = root.toString().endsWith("/") ? root.toString() : root + "/";
        if (!Files.isDirectory(root)) return new StoredRunReports(reports, skipped, where);
        List<Path> files;
        try (Stream<Path> folders = Files.list(root)) {
            // Only one level down: out/<runId>/recomputed/report.json is a rebuilt copy of a run already counted.
            files = folders.filter(Files::isDirectory).map(d -> d.resolve(ReportDocuments.REPORT_JSON)).filter(Files::isRegularFile).sorted().toList();
        }
        for (Path file : files) {
            read(Files.readString(file, StandardCharsets.UTF_8), file.toString(), reports, skipped);
        }
        return new StoredRunReports(reports, skipped, where);
    }

    /** The {@code <prefix><runId>/report.json} objects of {@code bucket}, as the aggregator stores them. */
    public static StoredRunReports inBucket(S3Client s3, String bucket, String prefix) {
        List<Report> reports = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (S3Object object : s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents()) {
            String rest = object.key().substring(prefix.length());
            int slash = rest.indexOf('/');
            // Only <runId>/report.json: a compare or a hand-made folder deeper down is not a run's report.
            if (slash <= 0 || !rest.substring(slash + 1).equals(ReportDocuments.REPORT_JSON)) continue;
            String uri = "s3://" + bucket + "/" + object.key();
            String text = s3.getObjectAsBytes(b -> b.bucket(bucket).key(object.key())).asUtf8String();
            read(text, uri, reports, skipped);
        }
        return new StoredRunReports(reports, skipped, "s3://" + bucket + "/" + prefix);
    }

    private static void read(String text, String name, List<Report> reports, List<String> skipped) {
        try {
            reports.add(Report.fromJson(text, name));
        } catch (IllegalArgumentException e) {
            skipped.add(e.getMessage());
        }
    }
}
