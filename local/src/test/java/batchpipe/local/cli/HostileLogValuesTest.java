package batchpipe.local.cli;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.stats.RunFigures;
import batchpipe.common.run.PlanResult;
import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.ScanOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.run.WorkerInvocation;
import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.common.json.Json;
import batchpipe.common.text.ControlCharacters;
import batchpipe.local.demo.Demo;
import batchpipe.local.report.ComparisonReport;
import batchpipe.local.report.CsvRows;
import batchpipe.local.report.ReportFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run whose log values, label and reasons are hostile, through the real renderers: report.md, tasks.csv
 * and report.html as ReportFiles writes them, and what `run --wait`, `report` and the demo print. Each
 * output is read back as its reader would read it: Markdown tables split on unescaped pipes, tasks.csv by
 * a strict RFC 4180 parser, the terminal text character by character.
 */
class HostileLogValuesTest {
    private static final String RUN_ID = "hostile-run";
    /** What a scanned log line, an object key or a failure reason can hold. */
    static final List<String> HOSTILE = List.of(
            "<script>alert(1)</script>",
            "|",
            "a\n| FORGED | 999 |",
            "=HYPERLINK(\"http://x\",\"y\")",
            "[x](javascript:alert(1))",
            "<img src=x onerror=alert(1)>",
            "\u001b[31mred",
            "-2+3",
            "@SUM(A1:A2)",
            "+1",
            "\tx",
            "\r=1",
            "\u009b2J\u007f and a, comma",
            "back\\slash `tick` *star* _u_ ~s~ &amp; ![i](x)");
    private static final String LABEL = "<img src=x onerror=alert(1)> [x](javascript:alert(1)) \u001b[31m\n| FORGED | 999 |";
    /** Every third task fails, with the hostile value of its index as the reason. */
    private static final int FAILED_EVERY = 3;

    @TempDir
    static Path out;

    private static RunReport report;
    private static String reportMd;
    private static List<Map<String, String>> csvRows;
    private static List<Map<String, String>> countByRows;
    private static String reportHtml;

    @BeforeAll
    static void renderTheRun() throws Exception {
        report = RunReport.of(RUN_ID, run(), tasks(), PriceTable.defaults(), ReportInputs.withoutReportLines(CostAssumptions.defaults()));
        ReportFiles.write(out, report);
        reportMd = Files.readString(out.resolve("report.md"));
        csvRows = CsvRows.parse(Files.readString(out.resolve("tasks.csv")));
        countByRows = CsvRows.parse(Files.readString(out.resolve("countby.csv")));
        reportHtml = Files.readString(out.resolve("report.html"));
    }

    private static RunRecord run() {
        return new RunRecord(RUN_ID, LABEL, null, new Planned(HOSTILE.size(), 0, HOSTILE.size()), 0, 1_000, "running", 1, null, null,
                List.of(), null, null);
    }

    private static List<TaskRecord> tasks() {
        List<TaskRecord> tasks = new ArrayList<>();
        for (int i = 0; i < HOSTILE.size(); i++) {
            String value = HOSTILE.get(i);
            boolean failed = i % FAILED_EVERY == 0;
            long started = 1_100L + 10L * i;
            // A number the worker recorded, negative (a clock that ran backwards): it must stay a number.
            long finished = i == 1 ? started - 5 : 1_600L + 10L * i;
            tasks.add(TaskRecord.builder().runId(RUN_ID).taskId(taskId(i)).kind("scan").status(failed ? TaskStatus.FAILED : TaskStatus.DONE)
                    .reason(failed ? value : null).enqueuedAt(1_000L).startedAt(started).finishedAt(finished)
                    .invocation(new WorkerInvocation("req-" + (i % 2), "worker", null, 1024, "arm64", 1, 0.58, false, null))
                    .scan(new ScanOutcome("logs", value, 10, 0, null, 0, 1_000, 0, Map.of("message", Map.of(value, (long) i + 1)), null, null,
                            null, null)).build());
        }
        return tasks;
    }

    private static String taskId(int i) {
        return String.format("scan-%02d", i);
    }

    // ---------------------------------------------------------------- report.md

    @Test
    void reportMd_keepsEveryTableRowToItsHeadersCells() {
        assertTablesKeepTheirShape(reportMd);
    }

    @Test
    void reportMd_showsEachCountByValueLiterallyInOneCellOfItsOwnRow() {
        Map<String, String> rows = table(reportMd, "message");

        Map<String, String> expected = new LinkedHashMap<>();
        for (int i = 0; i < HOSTILE.size(); i++) expected.put(ControlCharacters.escape(HOSTILE.get(i)), Long.toString(i + 1));
        assertThat(rows).isEqualTo(expected);
    }

    @Test
    void reportMd_showsEachReasonInTheProblemsTableAndTheLabelOnItsOwnLine() {
        Map<String, String> reasons = new LinkedHashMap<>();
        for (List<String> row : rowsUnder(reportMd, "| task | status | reason |")) reasons.put(shown(row.get(0)), shown(row.get(2)));

        Map<String, String> expected = new LinkedHashMap<>();
        for (int i = 0; i < HOSTILE.size(); i += FAILED_EVERY) expected.put(taskId(i), ControlCharacters.escape(HOSTILE.get(i)));
        assertThat(reasons).isEqualTo(expected);
        List<String> labelLines = reportMd.lines().filter(l -> l.startsWith("Label: ")).toList();
        assertThat(labelLines).singleElement().satisfies(l -> assertThat(shown(l.substring("Label: ".length()))).isEqualTo(ControlCharacters.escape(LABEL)));
    }

    @Test
    void reportMd_holdsNoRawTagNoLinkNoForgedRowAndNoControlCharacter() {
        assertNoMarkup(reportMd);
        assertThat(reportMd.lines()).noneMatch(l -> l.startsWith("| FORGED"));
        assertNoControlCharacterButLineFeeds(reportMd);
    }

    // ---------------------------------------------------------------- tasks.csv

    @Test
    void tasksCsv_keepsEachHostileValueInOneFieldOfItsTasksRow() {
        assertThat(csvRows).hasSize(HOSTILE.size());
        for (int i = 0; i < HOSTILE.size(); i++) {
            Map<String, String> row = csvRows.get(i);
            assertThat(row.get("taskId")).isEqualTo(taskId(i));
            assertThat(row.get("key")).as("key of %s", taskId(i)).isEqualTo(asSpreadsheetText(HOSTILE.get(i)));
            assertThat(row.get("reason")).isEqualTo(i % FAILED_EVERY == 0 ? asSpreadsheetText(HOSTILE.get(i)) : "");
        }
    }

    @Test
    void tasksCsv_startsNoTextCellLikeAFormulaAndKeepsNumbersNumbers() {
        Pattern number = Pattern.compile("-?\\d+(\\.\\d+)?");
        for (Map<String, String> row : csvRows) {
            row.forEach((column, cell) -> {
                if (!cell.isEmpty() && "=+-@\t\r".indexOf(cell.charAt(0)) >= 0) {
                    assertThat(cell).as("%s of %s", column, row.get("taskId")).matches(number);
                }
            });
        }
        assertThat(csvRows.get(1).get("durationMs")).isEqualTo("-5");
        assertThat(csvRows.get(2).get("durationMs")).isEqualTo("500");
    }

    @Test
    void countbyCsv_keepsEachHostileValueInOneFieldOfItsOwnRow() {
        assertThat(countByRows).hasSize(HOSTILE.size());
        for (int i = 0; i < HOSTILE.size(); i++) {
            Map<String, String> row = countByRows.get(i);
            assertThat(row).containsEntry("taskId", taskId(i)).containsEntry("path", "message")
                    .containsEntry("events", Long.toString(i + 1L));
            assertThat(row.get("value")).as("value of %s", taskId(i)).isEqualTo(asSpreadsheetText(HOSTILE.get(i)));
        }
    }

    // ---------------------------------------------------------------- report.html

    @Test
    void reportHtml_holdsEveryValueAsTextAndNoTagOrLinkOfItsOwn() {
        assertThat(reportHtml).doesNotContainIgnoringCase("<script").doesNotContainIgnoringCase("<img")
                .doesNotContainIgnoringCase("href=").doesNotContainIgnoringCase("onerror=alert(1)>")
                .contains("&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;img src=x onerror=alert(1)&gt;");
    }

    // ---------------------------------------------------------------- the terminal

    @Test
    void runWait_printsTheReportWithoutControlCharactersAndWithTheSameTables() {
        Report stored = storedSummary();

        String markdown = RunCommand.reportForTerminal(stored, false);

        assertNoControlCharacterButLineFeeds(markdown);
        assertTablesKeepTheirShape(markdown);
        assertNoMarkup(markdown);
        assertThat(table(markdown, "message")).containsKeys(ControlCharacters.escape("\u001b[31mred"), ControlCharacters.escape("a\n| FORGED | 999 |"));
    }

    @Test
    void runWaitJson_printsNoControlCharacterAndStillParsesToTheSameReport() {
        Report stored = storedSummary();

        String json = RunCommand.reportForTerminal(stored, true);

        assertNoControlCharacterButLineFeeds(json);
        assertThat(Json.parseObject(json)).isEqualTo(Json.parseObject(Json.write(stored)));
        assertThat(Report.fromJson(json, "the terminal")).isEqualTo(stored);
    }

    @Test
    void recomputedNoticeAndDemoSummary_printNoControlCharacter() {
        // a status is written by the worker, but the records are only as trustworthy as the table's writers
        Report summary = withFigures(storedSummary(), "\u001b]0;owned\u0007complete", null);
        Demo.Outcome outcome = new Demo.Outcome(RUN_ID, new PlanResult(RUN_ID, 14, 0, 14, 0.5), summary, out, 1.5, 0,
                new Demo.Phases(0, 0, 0, 0, 0), new batchpipe.aggregator.delivery.ReportLocation("bkt", "reports/" + RUN_ID + "/", List.of()),
                "out/local/batchpipe-run-completed.jsonl");

        String demo = DemoCommand.headline(outcome);
        // a table name is the user's, but it is quoted back as it came
        String recomputed = ReportRecomputeCommand.recomputedNotice(RUN_ID, "runs\u001b[2J", report);

        assertThat(demo).startsWith("Run hostile-run: \\u001b]0;owned\\u0007complete, 14 tasks (14 scan, 0 hash)");
        assertNoControlCharacter(demo);
        assertNoControlCharacter(recomputed);
        assertThat(recomputed).startsWith("batchpipe report: recomputed run hostile-run from table runs\\u001b[2J (REPORT lines: none: ");
    }

    @Test
    void compare_keepsHostileLabelsInTheirCellsAndPrintsNoControlCharacter() {
        Report a = storedSummary();
        Report b = withFigures(storedSummary(), null, HOSTILE.get(2) + HOSTILE.get(6));

        String markdown = ComparisonReport.markdown(a, b);

        assertTablesKeepTheirShape(markdown);
        assertNoMarkup(markdown);
        assertNoControlCharacterButLineFeeds(markdown);
        List<String> label = rowsUnder(markdown, "| section | figure | A | B | B − A | B ÷ A |").stream()
                .filter(r -> shown(r.get(1)).equals("label")).findFirst().orElseThrow();
        assertThat(shown(label.get(2))).isEqualTo(ControlCharacters.escape(LABEL));
        assertThat(shown(label.get(3))).isEqualTo(ControlCharacters.escape(HOSTILE.get(2) + HOSTILE.get(6)));
    }

    // ---------------------------------------------------------------- reading the outputs back

    /** The summary as `run --wait` gets it: the aggregator's summary item, through JSON. */
    /** The summary as a report.json holds it, read back. */
    private static Report storedSummary() {
        return Report.fromJson(Json.write(report.summary()), "report.json");
    }

    /** {@code report} with another status or label (null: the same), as a table's or a file's writer could have made it. */
    private static Report withFigures(Report report, String status, String label) {
        RunFigures f = report.figures();
        return new Report(new RunFigures(f.runId(), label == null ? f.label() : label, f.planned(), status == null ? f.status() : status,
                f.window(), f.latencyDefinitions(), f.overall(), f.byKind(), f.byPlatform(), f.timeline(), f.distribution(), f.countBy(), f.countByAccuracy(),
                f.problems(), f.failureTolerance()), report.cost(), report.inputs());
    }

    /** tasks.csv's text for a value: as it was, with a ' before a leading = + - @ tab or CR. */
    private static String asSpreadsheetText(String value) {
        return "=+-@\t\r".indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
    }

    /** Every Markdown table: each row has as many cells as its header. */
    private static void assertTablesKeepTheirShape(String markdown) {
        List<List<List<String>>> tables = tables(markdown);
        assertThat(tables).isNotEmpty();
        for (List<List<String>> table : tables) {
            int width = table.get(0).size();
            for (List<String> row : table) assertThat(row).as("a row of the table headed %s", table.get(0)).hasSize(width);
        }
    }

    /** No HTML tag or comment, no link or image: every '<' is an entity and every '[' is escaped. */
    private static void assertNoMarkup(String markdown) {
        assertThat(markdown).doesNotContainPattern("<[A-Za-z/!?]").doesNotContainPattern("(?<!\\\\)\\[[^\\]]*\\]\\(")
                .doesNotContain("<script", "<img");
    }

    private static void assertNoControlCharacterButLineFeeds(String text) {
        assertThat(text.chars().filter(c -> c != '\n' && ControlCharacters.is((char) c)).mapToObj(c -> String.format("U+%04X", c)))
                .as("control characters").isEmpty();
    }

    private static void assertNoControlCharacter(String text) {
        assertThat(text.chars().filter(c -> ControlCharacters.is((char) c)).mapToObj(c -> String.format("U+%04X", c)))
                .as("control characters in %s", text).isEmpty();
    }

    /** The tables of a Markdown document (runs of lines starting with '|'), each row split into its cells. */
    private static List<List<List<String>>> tables(String markdown) {
        List<List<List<String>>> tables = new ArrayList<>();
        List<List<String>> current = null;
        for (String line : markdown.split("\n", -1)) {
            if (line.startsWith("|")) {
                if (current == null) tables.add(current = new ArrayList<>());
                current.add(cells(line));
            } else {
                current = null;
            }
        }
        return tables;
    }

    /** The body rows (after the header and its |---| line) of the table whose header line is {@code header}. */
    private static List<List<String>> rowsUnder(String markdown, String header) {
        List<String> wanted = cells(header);
        for (List<List<String>> table : tables(markdown)) {
            if (table.get(0).equals(wanted)) return table.subList(2, table.size());
        }
        throw new AssertionError("no table headed " + header);
    }

    /** A countBy table, value shown -> count, found by its path. */
    private static Map<String, String> table(String markdown, String path) {
        Map<String, String> rows = new LinkedHashMap<>();
        for (List<String> row : rowsUnder(markdown, "| " + path + " | events |")) rows.put(shown(row.get(0)), shown(row.get(1)));
        return rows;
    }

    /** A row's cells as GitHub-flavoured Markdown splits them: on each pipe without a backslash before it. */
    private static List<String> cells(String row) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        for (int i = 0; i < row.length(); i++) {
            char c = row.charAt(i);
            if (c == '|' && (i == 0 || row.charAt(i - 1) != '\\')) {
                cells.add(cell.toString().strip());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        cells.add(cell.toString().strip());
        assertThat(cells.get(0)).as("text before the first pipe of %s", row).isEmpty();
        assertThat(cells.get(cells.size() - 1)).as("text after the last pipe of %s", row).isEmpty();
        return cells.subList(1, cells.size() - 1);
    }

    /** What a reader sees of a cell: backslash escapes of ASCII punctuation undone, &lt; &gt; &amp; decoded. */
    private static String shown(String cell) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < cell.length(); i++) {
            char c = cell.charAt(i);
            if (c == '\\' && i + 1 < cell.length() && isAsciiPunctuation(cell.charAt(i + 1))) {
                out.append(cell.charAt(++i));
            } else if (c == '&') {
                if (cell.startsWith("&lt;", i)) {
                    out.append('<');
                    i += 3;
                } else if (cell.startsWith("&gt;", i)) {
                    out.append('>');
                    i += 3;
                } else if (cell.startsWith("&amp;", i)) {
                    out.append('&');
                    i += 4;
                } else {
                    throw new AssertionError("a bare & in " + cell);
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isAsciiPunctuation(char c) {
        return c < 0x80 && "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".indexOf(c) >= 0;
    }
}
