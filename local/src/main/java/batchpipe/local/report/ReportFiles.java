package batchpipe.local.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.delivery.ReportDocuments;
import batchpipe.aggregator.delivery.ReportLocation;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes a run's report files into its output folder, and the two files of a comparison. Each file is
 * written whole to a new file beside it and then renamed over it, which never follows a link: see
 * {@link #write(Path, String)}.
 */
public final class ReportFiles {
    public static final List<String> RUN_FILES = ReportDocuments.FILE_NAMES;

    private ReportFiles() {
    }

    /**
     * report.json (every figure and its inputs), report.md, tasks.csv, countby.csv and report.html, rendered
     * as the aggregator renders them for S3; returns their paths.
     */
    public static List<Path> write(Path dir, RunReport report) throws IOException {
        createFolder(dir);
        List<Path> written = new ArrayList<>();
        Map<String, String> figures = ReportDocuments.renderFigures(report);
        for (String name : ReportDocuments.FILE_NAMES) {
            // tasks.csv and countby.csv have rows per task: streamed from their spills, never held whole
            Path file = dir.resolve(name);
            written.add(name.equals(ReportDocuments.TASKS_CSV) ? write(file, report.tasksCsv()::writeTo)
                    : name.equals(ReportDocuments.COUNT_BY_CSV) ? write(file, report.tasksCsv()::writeCountByTo)
                    : write(file, figures.get(name)));
        }
        return written;
    }

    /**
     * The run's files as the aggregator put them in S3, copied into {@code dir}; returns their paths. A file
     * reports only have since a later version (countby.csv) is skipped when the stored report has none.
     */
    public static List<Path> copy(S3Client s3, ReportLocation location, Path dir) throws IOException {
        createFolder(dir);
        List<Path> written = new ArrayList<>();
        for (String name : RUN_FILES) {
            String content;
            try {
                content = s3.getObjectAsBytes(b -> b.bucket(location.bucket()).key(location.key(name))).asUtf8String();
            } catch (NoSuchKeyException e) {
                // a report stored before this file was written has none, and is still a whole report
                if (ReportDocuments.ADDED_LATER.contains(name)) continue;
                throw e;
            }
            written.add(write(dir.resolve(name), content));
        }
        return written;
    }

    /** compare.md and compare.html. */
    public static List<Path> writeComparison(Path dir, Report a, Report b) throws IOException {
        createFolder(dir);
        return List.of(write(dir.resolve("compare.md"), ComparisonReport.markdown(a, b)),
                write(dir.resolve("compare.html"), ComparisonReport.html(a, b)));
    }

    /** history.md and history.html. */
    public static List<Path> writeHistory(Path dir, RunHistory history) throws IOException {
        createFolder(dir);
        return List.of(write(dir.resolve("history.md"), HistoryReport.markdown(history)),
                write(dir.resolve("history.html"), HistoryReport.html(history)));
    }

    /**
     * Why {@code dir} cannot hold report files ({@code "is a file; give a folder"}), or null when it can: it
     * is a folder (or a link to one), or nothing yet. For a command to refuse its --out before any work.
     */
    public static String whyNotAFolder(Path dir) {
        if (Files.isDirectory(dir) || !Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) return null;
        return Files.isRegularFile(dir) ? "is a file; give a folder" : "is not a folder; give a folder";
    }

    private static void createFolder(Path dir) throws IOException {
        String problem = whyNotAFolder(dir);
        if (problem != null) throw new IOException(dir + " " + problem);
        Files.createDirectories(dir);
    }

    /**
     * Writes {@code content} to a new file in {@code file}'s folder (created exclusively, so never through
     * a link), then renames it over {@code file}. A rename replaces the name itself: when {@code file} is a
     * symbolic link (planted in the folder, or pointing at a file elsewhere), the link is replaced by a
     * regular file and whatever it pointed at is left untouched. Replacing rather than refusing, because
     * these names belong to Batchpipe in its output folder and a link there should not stop a run's report;
     * a reader of the folder also never sees half a file.
     */
    private static Path write(Path file, String content) throws IOException {
        return write(file, out -> out.write(content.getBytes(StandardCharsets.UTF_8)));
    }

    /** What writes a file's bytes. */
    private interface Content {
        void writeTo(java.io.OutputStream out) throws IOException;
    }

    private static Path write(Path file, Content content) throws IOException {
        Path partial = file.resolveSibling("." + file.getFileName() + "." + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong())
                + ".partial");
        try {
            try (java.io.OutputStream out = Files.newOutputStream(partial, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS)) {
                content.writeTo(out);
            }
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(partial);
            throw e;
        }
        return file;
    }
}
