package batchpipe.local.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The report and demo commands refuse a run id or an --out that would put files elsewhere, before any work. */
class OutputFolderArgumentsTest {
    @TempDir
    Path tmp;

    private record Result(int exitCode, String err) {
    }

    private static Result run(String... args) {
        StringWriter err = new StringWriter();
        var cli = BatchpipeCli.commandLine();
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Result(code, err.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", ".", "a/b", "../../etc", "a..b", "/tmp/x", "c:x"})
    void report_refusesARunIdThatWouldLeaveTheOutputFolder(String runId) {
        Result result = run("report", runId, "--table", "t");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("RUN_ID '" + runId + "' is not a run id: a run id is 1 to 128 letters, digits, '.', '_'"
                + " or '-', starting with a letter or digit and without '..'");
    }

    @Test
    void report_refusesReportsThatAreNotAnS3Location() {
        Result result = run("report", "r1", "--table", "t", "--reports", "my-bucket/reports/");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("--reports 'my-bucket/reports/' is not s3://bucket/prefix/");
    }

    @Test
    void report_readsReportsAsABucketAndAPrefix() {
        assertThat(ReportsAt.parse("s3://bp-databucket-x/reports/")).isEqualTo(new ReportsAt("bp-databucket-x", "reports/"));
        assertThat(ReportsAt.parse("s3://bp-reports")).isEqualTo(new ReportsAt("bp-reports", ""));
    }

    @Test
    void report_quotesARefusedRunIdWithoutItsControlCharacters() {
        Result result = run("report", "\u001b[2J", "--table", "t");

        assertThat(result.err()).contains("RUN_ID '\\u001b[2J' is not a run id").doesNotContain("\u001b");
    }

    @Test
    void report_refusesAnOutThatIsAFile() throws Exception {
        Path file = Files.writeString(tmp.resolve("report.md"), "mine");

        Result result = run("report", "r1", "--table", "t", "--out", file.toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("--out " + file + " is a file; give a folder");
        assertThat(Files.readString(file)).isEqualTo("mine");
    }

    @Test
    void demo_refusesAnOutThatIsAFileBeforeStartingAStack() throws Exception {
        Path file = Files.writeString(tmp.resolve("out"), "mine");

        Result result = run("demo", "--out", file.toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("--out " + file + " is a file; give a folder");
    }
}
