package batchpipe.local.report;

import batchpipe.local.report.RunHistory.Flag;
import batchpipe.local.report.RunHistory.JudgedRun;
import batchpipe.local.report.RunHistory.RunPoint;
import batchpipe.report.Display;
import batchpipe.report.Html;
import batchpipe.report.MarkdownText;
import batchpipe.report.SvgCharts;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * history.md and history.html: the runs of a {@link RunHistory} as a table and trend charts, with the
 * regression flags spelled out (which figure, its value, the baseline median, by how much). Labels and run
 * ids come from report.json files and are escaped for each format.
 */
public final class HistoryReport {
    private static final DateTimeFormatter STARTED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final List<String> COLUMNS = List.of("#", "run", "label", "started (UTC)", "tasks", "cost per 1M tasks",
            "p50 task", "p99 task", "tasks/s", "failures", "cold-start share", "verdict");
    private static final int LABEL_COLUMN = COLUMNS.indexOf("label");
    private static final int STARTED_COLUMN = COLUMNS.indexOf("started (UTC)");
    /** Columns whose cells are figures, right-aligned. */
    private static final Set<String> NUMERIC = Set.of("#", "tasks", "cost per 1M tasks", "p50 task", "p99 task", "tasks/s", "failures",
            "cold-start share");

    private HistoryReport() {
    }

    public static String markdown(RunHistory history) {
        StringBuilder md = new StringBuilder("# Batchpipe run history\n\n");
        md.append(MarkdownText.escape(scope(history))).append("\n\n").append(MarkdownText.escape(rule(history))).append("\n\n");
        md.append("## Flags\n\n");
        List<JudgedRun> flagged = history.flagged();
        if (flagged.isEmpty()) md.append(MarkdownText.escape(noFlags(history))).append("\n");
        for (JudgedRun run : flagged) {
            for (Flag flag : run.flags()) md.append("- ").append(MarkdownText.escape(sentence(run, flag))).append("\n");
        }
        md.append("\n## Runs\n\n|");
        List<Integer> shown = shownColumns(history);
        for (int c : shown) md.append(' ').append(COLUMNS.get(c)).append(" |");
        md.append("\n|");
        for (int c : shown) md.append(NUMERIC.contains(COLUMNS.get(c)) ? "---:|" : "---|");
        md.append('\n');
        for (List<String> row : rows(history)) {
            md.append('|');
            for (int c : shown) md.append(' ').append(MarkdownText.escape(row.get(c))).append(" |");
            md.append('\n');
        }
        md.append("\n## What each figure is\n\n");
        for (String line : definitions()) md.append("- ").append(MarkdownText.escape(line)).append('\n');
        return md.toString();
    }

    public static String html(RunHistory history) {
        // The page's own rules go in the head beside the shared ones.
        StringBuilder html = new StringBuilder(Html.head("Batchpipe run history").replace("</head>", "<style>\n" + STYLE + "</style>\n</head>"));
        html.append("<h1>Batchpipe run history</h1>\n<p class=\"sub\">").append(Html.escape(scope(history))).append("</p>\n<p class=\"sub\">")
                .append(Html.escape(rule(history))).append("</p>\n<h2>Flags</h2>\n");
        List<JudgedRun> flagged = history.flagged();
        if (flagged.isEmpty()) html.append("<p id=\"no-flags\">").append(Html.escape(noFlags(history))).append("</p>\n");
        else {
            html.append("<ul id=\"flags\">");
            for (JudgedRun run : flagged) {
                for (Flag flag : run.flags()) html.append("<li class=\"flag\">").append(Html.escape(sentence(run, flag))).append("</li>");
            }
            html.append("</ul>\n");
        }
        html.append("<div class=\"charts\">\n").append(charts(history)).append("</div>\n<h2>Runs</h2>\n<table id=\"history\"><tr>");
        List<Integer> shown = shownColumns(history);
        for (int c : shown) html.append(NUMERIC.contains(COLUMNS.get(c)) ? "<th class=\"n\">" : "<th>").append(Html.escape(COLUMNS.get(c))).append("</th>");
        html.append("</tr>");
        List<List<String>> rows = rows(history);
        for (int r = 0; r < rows.size(); r++) {
            html.append(history.runs().get(r).flagged() ? "<tr class=\"flagged\">" : "<tr>");
            for (int c : shown) {
                String column = COLUMNS.get(c), cell = rows.get(r).get(c);
                if (c == STARTED_COLUMN) {
                    // The date and the time each stay whole; the line may break only between them.
                    html.append("<td>").append(String.join(" ", java.util.Arrays.stream(cell.split(" "))
                            .map(part -> "<span class=\"whole\">" + Html.escape(part) + "</span>").toList())).append("</td>");
                    continue;
                }
                html.append(NUMERIC.contains(column) ? "<td class=\"n\">" : c == LABEL_COLUMN ? "<td class=\"label\">"
                                : column.equals("run") ? "<td class=\"id\">" : "<td>")
                        .append(Html.escape(cell)).append("</td>");
            }
            html.append("</tr>");
        }
        html.append("</table>\n<h2>What each figure is</h2>\n<ul class=\"note\">");
        for (String line : definitions()) html.append("<li>").append(Html.escape(line)).append("</li>");
        return html.append("</ul>\n</body>\n</html>\n").toString();
    }

    /** The columns of the table: the label only when runs of every label are shown (else the first line says it). */
    private static List<Integer> shownColumns(RunHistory history) {
        return java.util.stream.IntStream.range(0, COLUMNS.size()).filter(c -> c != LABEL_COLUMN || history.label() == null).boxed().toList();
    }

    /**
     * The page's own rules beside the shared style: flagged rows stand out; headings wrap, cells are a little
     * tighter and run ids and labels may break anywhere, so that twelve columns fit an 800 px window unclipped.
     */
    private static final String STYLE = """
            tr.flagged td { background: #fef2f2; } tr.flagged td:last-child { color: #b91c1c; font-weight: 600; }
            li.flag { color: #b91c1c; margin: 4px 0; }
            #history { font-size: 13px; } #history th { vertical-align: bottom; white-space: normal; }
            #history th, #history td { padding: 4px 5px; } td.id { overflow-wrap: anywhere; min-width: 7em; }
            td.label { overflow-wrap: anywhere; min-width: 5em; } span.whole { white-space: nowrap; }
            """;

    private static String scope(RunHistory history) {
        String which = history.label() == null ? "every label" : "label \"" + history.label() + "\"";
        String shown = history.runs().size() == history.consideredRuns() ? count(history.runs().size()) + " runs"
                : "the last " + count(history.runs().size()) + " of " + count(history.consideredRuns()) + " runs";
        return shown + " of " + which + ", oldest first, from the report.json of each run folder in " + history.source() + ".";
    }

    private static String rule(RunHistory history) {
        int n = history.baseline();
        return "A run is flagged when its cost per million tasks or its p99 task duration is more than " + percent(history.regressionPercent())
                + " above the median of the " + runs(n) + " of the same label just before it (--baseline " + n + ", --regression "
                + percent(history.regressionPercent()) + "); exactly at the threshold is not flagged. A run with fewer than " + runs(n)
                + " of its label before it is not judged: a median of fewer runs says more about their noise than about a regression."
                + (history.runs().size() < history.consideredRuns() ? " A baseline may include runs older than those shown." : "");
    }

    private static String noFlags(RunHistory history) {
        long judged = history.runs().stream().filter(JudgedRun::judged).count();
        return judged == 0 ? "No run shown was judged: none has " + runs(history.baseline()) + " of its label before it."
                : "No run is flagged (" + count(judged) + " of " + count(history.runs().size()) + " judged).";
    }

    private static String sentence(JudgedRun run, Flag flag) {
        RunPoint point = run.run();
        Function<BigDecimal, String> value = flag.figure() == RunHistory.Figure.COST_PER_MILLION_TASKS ? HistoryReport::usd
                : HistoryReport::durationMs;
        return "Run " + point.runId() + (point.label() == null ? "" : " (" + point.label() + ")") + ": " + flag.figure().title() + " "
                + value.apply(flag.value()) + " is " + percent(flag.percentWorse()) + " above the baseline median " + value.apply(flag.baselineMedian())
                + " of runs " + String.join(", ", run.baselineRunIds()) + ".";
    }

    private static List<List<String>> rows(RunHistory history) {
        List<List<String>> rows = new ArrayList<>();
        int index = 1;
        for (JudgedRun judged : history.runs()) {
            RunPoint run = judged.run();
            rows.add(List.of(count(index++), run.runId(), run.label() == null ? "–" : run.label(), STARTED.format(Instant.ofEpochMilli(run.startedAt())),
                    count(run.tasks()), run.costPerMillionTasks() == null ? "–" : usd(run.costPerMillionTasks()),
                    run.p50TaskDurationMs() == null ? "–" : durationMs(BigDecimal.valueOf(run.p50TaskDurationMs())),
                    run.p99TaskDurationMs() == null ? "–" : durationMs(BigDecimal.valueOf(run.p99TaskDurationMs())),
                    significant(BigDecimal.valueOf(run.tasksPerSecond())), count(run.failures()),
                    share(run.coldStartShare()) + (run.coldStartsPerInvocation() ? "" : " of tasks"), verdict(judged, history.baseline())));
        }
        return rows;
    }

    private static String verdict(JudgedRun run, int baseline) {
        if (!run.judged()) return "not judged (" + run.baselineRunIds().size() + " of " + baseline + " runs before)";
        if (!run.flagged()) return "ok";
        List<String> figures = run.flags().stream().map(f -> f.figure() == RunHistory.Figure.COST_PER_MILLION_TASKS ? "cost" : "p99").toList();
        return "flagged: " + String.join(", ", figures);
    }

    private static String charts(RunHistory history) {
        List<String> runs = new ArrayList<>();
        Set<Integer> costFlags = new HashSet<>(), p99Flags = new HashSet<>();
        List<Double> cost = new ArrayList<>(), p50 = new ArrayList<>(), p99 = new ArrayList<>(), throughput = new ArrayList<>();
        for (int i = 0; i < history.runs().size(); i++) {
            JudgedRun judged = history.runs().get(i);
            RunPoint run = judged.run();
            runs.add("#" + (i + 1));
            cost.add(run.costPerMillionTasks() == null ? null : run.costPerMillionTasks().doubleValue());
            p50.add(run.p50TaskDurationMs() == null ? null : run.p50TaskDurationMs().doubleValue());
            p99.add(run.p99TaskDurationMs() == null ? null : run.p99TaskDurationMs().doubleValue());
            throughput.add(run.tasksPerSecond());
            for (Flag flag : judged.flags()) (flag.figure() == RunHistory.Figure.COST_PER_MILLION_TASKS ? costFlags : p99Flags).add(i);
        }
        return TrendCharts.trend("history-cost", "Cost per million tasks", "USD per million tasks", runs,
                List.of(new TrendCharts.Line("cost per million tasks", SvgCharts.PALETTE[0], cost)), costFlags,
                v -> usd(BigDecimal.valueOf(v))) + "\n"
                + TrendCharts.trend("history-duration", "Task duration, p99 and p50", "milliseconds", runs,
                List.of(new TrendCharts.Line("p99 task duration (ms)", SvgCharts.PALETTE[1], p99),
                        new TrendCharts.Line("p50 task duration (ms)", SvgCharts.PALETTE[2], p50)), p99Flags,
                v -> significant(BigDecimal.valueOf(v))) + "\n"
                + TrendCharts.trend("history-throughput", "Throughput", "tasks per second", runs,
                List.of(new TrendCharts.Line("tasks per second", SvgCharts.PALETTE[3], throughput)), Set.of(),
                v -> significant(BigDecimal.valueOf(v))) + "\n";
    }

    private static List<String> definitions() {
        return List.of(
                "started: the start of the run window, when the producer created the run (report.json window.start; the first task's"
                        + " start for a report without a run record). Runs are ordered by it.",
                "cost per 1M tasks: the run's whole cost in USD, as its own report priced it with its price table (Lambda, SQS,"
                        + " DynamoDB, S3), divided by its tasks and multiplied by 1,000,000 (report.json cost.perMillionTasks); a"
                        + " local run's Lambda durations are this machine's.",
                "p50 task / p99 task: nearest-rank percentiles of the task durations, each from the worker starting the task to"
                        + " finishing it (report.json overall.latency.taskDurationMs).",
                "tasks/s: the run's tasks divided by the run window in seconds, from the run's creation to the last task's"
                        + " finish (overall.throughput.tasksPerSecond).",
                "failures: tasks that ended failed or rejected (overall.byStatus).",
                "cold-start share: worker invocations that initialised their instance, divided by all worker invocations of"
                        + " the run (overall.coldStarts.share); \"of tasks\" marks reports written before cold starts were counted per"
                        + " invocation, whose share is of tasks.",
                "verdict: ok, flagged (with the figures) or not judged; the baseline median is the middle value of the"
                        + " baseline runs' figures (the mean of the two middle ones for an even count), and the percentage is"
                        + " (value − median) ÷ median × 100.");
    }

    // Number formatting: the report's shared rules (Display), so the history shows a figure as report.md does.

    private static String usd(BigDecimal value) {
        return Display.usd(value);
    }

    private static String durationMs(BigDecimal ms) {
        return Display.duration(ms.doubleValue());
    }

    private static String share(double share) {
        return Display.share(share);
    }

    private static String percent(BigDecimal percent) {
        return Display.percent(percent);
    }

    private static String runs(int n) {
        return count(n) + (n == 1 ? " run" : " runs");
    }

    private static String count(long n) {
        return Display.count(n);
    }

    private static String significant(BigDecimal value) {
        return Display.significant(value, 4);
    }
}
