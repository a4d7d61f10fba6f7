package batchpipe.aggregator.report;

import batchpipe.aggregator.cost.ItemSize;
import batchpipe.common.run.DeadLetter;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class TasksCsvTest {

    @Test
    void columns_putTheKnownFieldsFirstThenOthersSortedThenItemBytesAndLeaveTheKeysOut() {
        TaskRecord t = ReportFixtures.tasks().get(0);
        TaskRecord deadLettered = TaskRecord.builder().runId(t.runId()).taskId("dead").kind("unknown").status(TaskStatus.FAILED)
                .reason("dead-lettered").startedAt(5).finishedAt(5).recordedBy("dead-letter recorder")
                .deadLetter(new DeadLetter(5, 3)).build();

        List<String> columns = TasksCsv.columns(List.of(t, deadLettered));

        assertThat(columns).startsWith("runId", "taskId", "kind", "status", "reason", "enqueuedAt", "enqueuedAtUtc", "startedAt",
                        "startedAtUtc", "finishedAt", "finishedAtUtc", "durationMs")
                .endsWith("hashes", "bcryptCost", "deadLetterReceives", "deadLetteredAt", "deadLetteredAtUtc", "recordedBy", "itemBytes")
                .doesNotContain("pk", "sk", "cost", "countBy");
        assertThat(TasksCsv.columns(List.of(t))).endsWith("hashes", "bcryptCost", "itemBytes");
    }

    @Test
    void render_writesEachEpochMillisecondTimeAgainAsIsoUtcBesideIt() {
        // started at 1,100 ms and finished at 1,600 ms after the epoch
        TaskRecord t = ReportFixtures.tasks().get(0);

        List<String> lines = List.of(TasksCsv.render(List.of(t)).split("\r\n"));

        List<String> columns = List.of(lines.get(0).split(","));
        String[] row = lines.get(1).split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1);
        assertThat(row[columns.indexOf("startedAt")]).isEqualTo("1100");
        assertThat(row[columns.indexOf("startedAtUtc")]).isEqualTo("1970-01-01T00:00:01.100Z");
        assertThat(row[columns.indexOf("finishedAtUtc")]).isEqualTo("1970-01-01T00:00:01.600Z");
        // `date -u -d @1796137524.206` says 2026-12-01T15:05:24.206Z
        assertThat(TasksCsv.utc(1_796_137_524_206L)).isEqualTo("2026-12-01T15:05:24.206Z");
        assertThat(TasksCsv.utc(null)).isEmpty();
    }

    @Test
    void render_leavesCountByToCountbyCsvAndHeadsTheBcryptCostSo() {
        List<TaskRecord> tasks = ReportFixtures.tasks();

        String csv = TasksCsv.render(tasks);

        assertThat(csv).doesNotContain("countBy,", "INFO").contains(",bcryptCost,");
    }

    @Test
    void renderCountBy_writesOneRowPerTaskPathAndValueEscapedAsEveryTextCell() {
        TaskRecord scan = ReportFixtures.task("scan-a", "scan", "req-1", 1_100, 1_600).scanned(10, 0, 100, 0)
                .countBy("level", Map.of("INFO", 7L, "=cmd|' /C calc'!A0", 2L)).countBy("http.status", Map.of("200", 1L)).build();
        TaskRecord hash = ReportFixtures.tasks().get(2);

        String csv = TasksCsv.renderCountBy(List.of(scan, hash));

        assertThat(csv).isEqualTo("taskId,path,value,events\r\n"
                + "scan-a,http.status,200,1\r\n"
                + "scan-a,level,'=cmd|' /C calc'!A0,2\r\n"
                + "scan-a,level,INFO,7\r\n");
    }

    @Test
    void render_writesOneRowPerTaskWithEveryRecordedValue() {
        List<TaskRecord> tasks = ReportFixtures.tasks();

        String[] lines = TasksCsv.render(tasks).split("\r\n");

        assertThat(lines).hasSize(1 + tasks.size());
        List<String> columns = List.of(lines[0].split(","));
        assertThat(columns).isEqualTo(TasksCsv.columns(tasks));
        // the hash task has no comma-holding value, so its row splits cleanly on commas
        String[] hash = lines[3].split(",", -1);
        assertThat(hash).hasSize(columns.size());
        assertThat(hash[columns.indexOf("taskId")]).isEqualTo("hash-000001");
        assertThat(hash[columns.indexOf("durationMs")]).isEqualTo("2000");
        assertThat(hash[columns.indexOf("vcpuShare")]).isEqualTo("0.58");
        assertThat(hash[columns.indexOf("coldStart")]).isEqualTo("false");
        assertThat(hash[columns.indexOf("initMs")]).isEmpty();
        assertThat(hash[columns.indexOf("hashes")]).isEqualTo("10");
        assertThat(hash[columns.indexOf("itemBytes")]).isEqualTo(Long.toString(ItemSize.of(tasks.get(2).toItem())));
    }

    @Test
    void field_quotesTextWithCommasQuotesOrLineBreaksAndWritesNestedValuesAsJson() {
        assertThat(TasksCsv.field("plain")).isEqualTo("plain");
        assertThat(TasksCsv.field("a,b")).isEqualTo("\"a,b\"");
        assertThat(TasksCsv.field("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(TasksCsv.field("two\nlines")).isEqualTo("\"two\nlines\"");
        assertThat(TasksCsv.field(Map.of("level", Map.of("INFO", 3L)))).isEqualTo("\"{\"\"level\"\":{\"\"INFO\"\":3}}\"");
        assertThat(TasksCsv.field(List.of(1L, 2L))).isEqualTo("\"[1,2]\"");
        assertThat(TasksCsv.field(new BigDecimal("1E+3"))).isEqualTo("1000");
        assertThat(TasksCsv.field(null)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1", "-cmd|' /C calc'!A0"})
    void field_prefixesTextThatASpreadsheetWouldRunAsAFormula(String text) {
        String field = TasksCsv.field(text);

        String unquoted = field.startsWith("\"") ? field.substring(1, field.length() - 1).replace("\"\"", "\"") : field;
        assertThat(unquoted).isEqualTo("'" + text);
    }

    @Test
    void field_quotesAPrefixedFormulaThatHoldsQuotesAndCommas() {
        assertThat(TasksCsv.field("=HYPERLINK(\"http://x\",\"y\")")).isEqualTo("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
    }

    @Test
    void field_writesNumbersAsTheyAreEvenNegativeOnes() {
        assertThat(TasksCsv.field(-5L)).isEqualTo("-5");
        assertThat(TasksCsv.field(-0.25)).isEqualTo("-0.25");
        assertThat(TasksCsv.field(new BigDecimal("-1E+3"))).isEqualTo("-1000");
        assertThat(TasksCsv.field("a-b=c")).isEqualTo("a-b=c");
    }

    @Test
    void render_prefixesAFormulaInAnyTextColumnButNotInNumberColumns() {
        // a task whose clock ran backwards: finished 5 ms before it started
        TaskRecord t = ReportFixtures.task("hash-000001", "hash", "req-2", 2_000, 1_995)
                .status(TaskStatus.FAILED, "=HYPERLINK(\"http://x\",\"y\")").build();

        String[] lines = TasksCsv.render(List.of(t)).split("\r\n");

        assertThat(lines[1]).contains(",\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",").contains(",-5,").doesNotContain(",=");
    }
}
