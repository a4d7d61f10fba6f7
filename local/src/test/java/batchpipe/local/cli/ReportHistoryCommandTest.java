package batchpipe.local.cli;

import batchpipe.local.report.ReportFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `report --history` over run folders, through the real command line and with no client: the slow run of
 * a label is flagged and no other, and every bad input is one line naming the option and its limit.
 */
class ReportHistoryCommandTest {
    @TempDir
    Path tmp;


    private InProcessCli.Result run(String... args) {
        Supplier<DynamoDbClient> noDynamoDb = () -> {
            throw new AssertionError("no DynamoDB client may be made");
        };
        Supplier<S3Client> noS3 = () -> {
            throw new AssertionError("no S3 client may be made");
        };
        return InProcessCli.run(InProcessCli.reportClients(noDynamoDb, noS3), args);
    }

    /** Six runs of "nightly" (the last three times slower) and one of "other", in out-like folders. */
    private Path storedRuns() throws Exception {
        Path root = tmp.resolve("out");
        long[] durations = {1_000, 1_010, 990, 1_000, 1_005, 3_000};
        for (int i = 0; i < durations.length; i++) {
            ReportFiles.write(root.resolve("n" + i), HistoryRuns.report("n" + i, "nightly", 10 * i, durations[i]));
        }
        ReportFiles.write(root.resolve("o0"), HistoryRuns.report("o0", "other", 5, 9_000));
        return root;
    }

    @Test
    void history_flagsTheSlowRunOfTheLabelAndNoOtherAndWritesBothPages() throws Exception {
        Path root = storedRuns();
        Path out = tmp.resolve("history");

        InProcessCli.Result result = run("report", "--history", "--label", "nightly", "--from", root.toString(), "--out", out.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).startsWith("# Batchpipe run history\n\n6 runs of label \"nightly\", oldest first, from the report.json of each run folder in "
                        + root + "/.")
                .contains("- Run n5 (nightly): p99 task duration 3 s is 200% above the baseline median 1 s of runs n0, n1, n2, n3, n4.\n")
                .doesNotContain("o0");
        assertThat(result.out().lines().filter(l -> l.startsWith("- Run ")).toList()).allMatch(l -> l.startsWith("- Run n5 (nightly): "));
        assertThat(result.out().lines().filter(l -> l.contains("flagged:")).toList()).singleElement().asString().startsWith("| 6 | n5 |");
        assertThat(Files.readString(out.resolve("history.md"))).isEqualTo(result.out().substring(0, result.out().indexOf("  " + out)));
        assertThat(Files.readString(out.resolve("history.html"))).contains("<tr class=\"flagged\">");
        assertThat(result.out()).endsWith("  " + out.resolve("history.md") + "\n  " + out.resolve("history.html") + "\n");
    }

    @Test
    void history_withoutALabel_showsEveryRunAndJudgesEachAgainstItsOwnLabel() throws Exception {
        InProcessCli.Result result = run("report", "--history", "--from", storedRuns().toString(), "--out", tmp.resolve("h").toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("7 runs of every label", "| o0 | other |", "| 7 | n5 | nightly |", "not judged (0 of 5 runs before) |");
        assertThat(result.out().lines().filter(l -> l.contains("flagged:")).toList()).singleElement().asString().startsWith("| 7 | n5 |");
    }

    @Test
    void history_withLast_showsTheNewestRunsJudgedAgainstOlderOnes() throws Exception {
        InProcessCli.Result result = run("report", "--history", "--label", "nightly", "--last", "1", "--from", storedRuns().toString(), "--out",
                tmp.resolve("h").toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("the last 1 of 6 runs", "| 1 | n5 |", "A baseline may include runs older than those shown.");
    }

    @Test
    void history_skipsAndNamesAReportJsonBatchpipeDidNotWrite() throws Exception {
        Path root = storedRuns();
        Files.createDirectories(root.resolve("stray"));
        Files.writeString(root.resolve("stray").resolve("report.json"), "{\"runId\": 7}");

        InProcessCli.Result result = run("report", "--history", "--label", "nightly", "--from", root.toString(), "--out", tmp.resolve("h").toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.err()).isEqualTo("batchpipe report: skipped " + root.resolve("stray").resolve("report.json")
                + " is not a report.json Batchpipe wrote: 'runId' should be a string, found a number" + System.lineSeparator());
    }

    @Test
    void history_ofAnUnknownLabel_namesTheLabelsThereAre() throws Exception {
        Path root = storedRuns();

        InProcessCli.Result result = run("report", "--history", "--label", "weekly", "--from", root.toString(), "--out", tmp.resolve("h").toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).isEqualTo("batchpipe: no run with --label 'weekly' in " + root + "/; the labels there are"
                + " 'nightly' (6 runs), 'other' (1 run)" + System.lineSeparator());
        assertThat(tmp.resolve("h")).doesNotExist();
    }

    @Test
    void history_withNoReports_saysWhereItLooked() {
        Path empty = tmp.resolve("empty");

        InProcessCli.Result result = run("report", "--history", "--from", empty.toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).hasLineCount(1).startsWith("batchpipe: no stored report found: no <runId>/report.json in " + empty + "/;")
                .contains("--from DIR, --reports s3://bucket/prefix/ or --stack NAME");
    }

    @Test
    void history_refusesBadNumbersNamingTheOptionAndTheLimit() {
        assertThat(run("report", "--history", "--last", "0")).satisfies(r -> {
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).hasLineCount(1).startsWith("batchpipe: --last must be at least 1 (the newest runs to show), was 0");
        });
        assertThat(run("report", "--history", "--baseline", "0")).satisfies(r -> {
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).hasLineCount(1).startsWith("batchpipe: --baseline must be from 1 to 100");
        });
        assertThat(run("report", "--history", "--regression", "abc")).satisfies(r -> {
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).hasLineCount(1).startsWith("batchpipe: --regression 'abc' is not a percentage from 0% to 10000%");
        });
        assertThat(run("report", "--history", "--regression", "-5%").err()).contains("--regression '-5%' is not a percentage");
    }

    @Test
    void regression_readsAPercentWithOrWithoutItsSign() {
        assertThat(ReportHistoryCommand.parseRegression("20%")).isEqualByComparingTo("20");
        assertThat(ReportHistoryCommand.parseRegression(" 12.5 ")).isEqualByComparingTo("12.5");
        assertThat(ReportHistoryCommand.parseRegression("0%")).isEqualByComparingTo("0");
    }

    @Test
    void historyOptions_withoutHistory_areRefused() {
        InProcessCli.Result result = run("report", "r1", "--label", "nightly");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).hasLineCount(1).contains("--label shapes a history only: add --history");
    }

    @Test
    void history_refusesARunIdAndTheOptionsOfOneRun() {
        assertThat(run("report", "r1", "--history").err()).contains("--history reads every stored run: give no RUN_ID and no --compare");
        assertThat(run("report", "--history", "--json").err()).contains("--json is not used by --history");
        assertThat(run("report", "--history", "--price-table", "x.json").err()).contains("--price-table is not used by --history");
    }
}
