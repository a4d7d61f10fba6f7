package batchpipe.local.report;

import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.report.ComparisonReport;
import batchpipe.aggregator.report.HtmlReport;
import batchpipe.aggregator.report.MarkdownReport;
import batchpipe.aggregator.report.TasksCsv;
import batchpipe.common.json.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Writes a run's report files into its output folder, and the two files of a comparison. */
public final class ReportFiles {
    public static final List<String> RUN_FILES = List.of("report.json", "report.md", "tasks.csv", "report.html");

    private ReportFiles() {
    }

    /** report.json (every figure and its inputs), report.md, tasks.csv and report.html; returns their paths. */
    public static List<Path> write(Path dir, RunReport report) throws IOException {
        Files.createDirectories(dir);
        Path json = write(dir.resolve("report.json"), Json.writePretty(report.report()) + "\n");
        Path md = write(dir.resolve("report.md"), MarkdownReport.render(report.report()));
        Path csv = write(dir.resolve("tasks.csv"), TasksCsv.render(report.tasks()));
        Path html = write(dir.resolve("report.html"), HtmlReport.render(report.report()));
        return List.of(json, md, csv, html);
    }

    /** compare.md and compare.html. */
    public static List<Path> writeComparison(Path dir, Map<String, Object> a, Map<String, Object> b) throws IOException {
        Files.createDirectories(dir);
        return List.of(write(dir.resolve("compare.md"), ComparisonReport.markdown(a, b)),
                write(dir.resolve("compare.html"), ComparisonReport.html(a, b)));
    }

    private static Path write(Path file, String content) throws IOException {
        Files.writeString(file, content, StandardCharsets.UTF_8);
        return file;
    }
}
