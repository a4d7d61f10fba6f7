package batchpipe.aggregator.delivery;

import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.report.HtmlReport;
import batchpipe.aggregator.report.MarkdownReport;
import batchpipe.common.json.Json;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's report files, rendered once, by name: what the aggregator puts in S3 and the CLI writes
 * into out/&lt;runId&gt;/, so that both places hold the same bytes.
 */
public final class ReportDocuments {
    public static final String REPORT_JSON = "report.json";
    public static final String TASKS_CSV = "tasks.csv";
    public static final String COUNT_BY_CSV = "countby.csv";
    public static final List<String> FILE_NAMES = List.of(REPORT_JSON, "report.md", TASKS_CSV, COUNT_BY_CSV, "report.html");
    /** The files that grow with the run's tasks: streamed from their spill, never held whole on the aggregator. */
    public static final List<String> ROW_FILES = List.of(TASKS_CSV, COUNT_BY_CSV);
    /** Files that reports stored before them lack: a copy of such a report goes on without them. */
    public static final List<String> ADDED_LATER = List.of(COUNT_BY_CSV);

    private ReportDocuments() {
    }

    /**
     * report.json (every figure and its inputs), report.md, tasks.csv, countby.csv (countBy in long format:
     * task, path, value, events) and report.html, in that order, as text: for a run small enough to hold its
     * rows ({@link #renderFigures} and the rows' own streams otherwise).
     */
    public static Map<String, String> render(RunReport report) {
        Map<String, String> files = new LinkedHashMap<>();
        Map<String, String> figures = renderFigures(report);
        for (String name : FILE_NAMES) {
            files.put(name, name.equals(TASKS_CSV) ? report.tasksCsv().render()
                    : name.equals(COUNT_BY_CSV) ? report.tasksCsv().renderCountBy() : figures.get(name));
        }
        return files;
    }

    /** report.json, report.md and report.html: the files of figures, whose size does not grow with the tasks. */
    public static Map<String, String> renderFigures(RunReport report) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put(REPORT_JSON, Json.writePretty(report.report()) + "\n");
        files.put("report.md", MarkdownReport.render(report.report()));
        files.put("report.html", HtmlReport.render(report.report()));
        return files;
    }

    /** The Content-Type a browser or an S3 console needs to show the file rather than download it. */
    public static String contentType(String fileName) {
        if (fileName.endsWith(".json")) return "application/json; charset=utf-8";
        if (fileName.endsWith(".md")) return "text/markdown; charset=utf-8";
        if (fileName.endsWith(".csv")) return "text/csv; charset=utf-8";
        if (fileName.endsWith(".html")) return "text/html; charset=utf-8";
        return "application/octet-stream";
    }
}
