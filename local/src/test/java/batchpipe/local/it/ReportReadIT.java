package batchpipe.local.it;

import batchpipe.local.cli.InProcessCli;
import batchpipe.common.json.Json;
import batchpipe.common.table.TableKeys;
import batchpipe.local.cli.BatchpipeCli;
import batchpipe.local.report.ReportFiles;
import batchpipe.local.run.RunWatcher;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.SharedEmulators;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reading is not recomputing, on a running local stack (what `batchpipe local up` runs, here in the
 * test's JVM): `batchpipe run --wait` in a process of its own, attached through the AWS_ENDPOINT_URL_*
 * variables as a user's shell would be, leaves the aggregator's report in out/&lt;runId&gt;/; `report` shows
 * that stored report, or fetches it from S3, and `report --recompute` rebuilds an equal one from the
 * table without writing the table.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReportReadIT {
    private static final String STACK = "readit";

    @TempDir
    static Path work;

    private LocalStack stack;
    private LocalPipeline pipeline;
    private String runId;
    private Path runFolder;
    private Map<String, String> bucketFiles;

    @BeforeAll
    void runAndWaitInAProcessOfItsOwn() throws Exception {
        Path home = ProjectHome.find();
        stack = SharedEmulators.stack(StackTemplate.load(home.resolve("template.yaml"), Map.of()), STACK);
        stack.useForThisProcess();
        pipeline = LocalPipeline.start(stack, new PrintStream(OutputStream.nullOutputStream()), true);

        Path spec = Files.writeString(work.resolve("spec.json"), "{\"label\": \"readit\", \"hash\": {\"batches\": 2, \"batchSize\": 4, \"cost\": 4}}");
        Path stdout = work.resolve("run.out");
        Path stderr = work.resolve("run.err");
        ProcessBuilder command = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-cp",
                System.getProperty("java.class.path"), BatchpipeCli.class.getName(), "run", "--spec", spec.toString(), "--wait", "--json",
                "--local-stack-name", STACK, "--timeout", "240")
                .directory(work.toFile()).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        command.environment().putAll(stack.endpointSettings());
        command.environment().put("BATCHPIPE_HOME", home.toString());
        Process run = command.start();
        if (!run.waitFor(300, TimeUnit.SECONDS)) {
            run.destroyForcibly();
            throw new AssertionError("run --wait did not end within 300 s: " + Files.readString(stderr));
        }
        assertThat(run.exitValue()).as(Files.readString(stderr)).isZero();
        runId = (String) Json.parseObject(Files.readString(stdout)).get("runId");
        runFolder = work.resolve("out").resolve(runId);
        // The aggregator's message is deleted after its report is written; wait, so no redelivery rewrites the summary mid-test.
        String completions = stack.ref("CompletionsQueue");
        for (int i = 0; i < 200 && !RunWatcher.queueEmpty(stack.sqs(), completions); i++) Thread.sleep(50);
        bucketFiles = new LinkedHashMap<>();
        for (String file : ReportFiles.RUN_FILES) {
            bucketFiles.put(file, stack.s3().getObjectAsBytes(b -> b.bucket(stack.ref("DataBucket")).key("reports/" + runId + "/" + file))
                    .asUtf8String());
        }
    }

    @AfterAll
    void stopTheStack() {
        if (pipeline != null) pipeline.close();
        if (stack != null) stack.close();
    }

    private static InProcessCli.Result cli(String... args) {
        return InProcessCli.run(args);
    }

    private Map<String, AttributeValue> item(String sk) {
        return stack.dynamoDb().getItem(b -> b.tableName(stack.ref("RunsTable")).consistentRead(true)
                .key(Map.of(TableKeys.PK, AttributeValue.fromS(TableKeys.runPk(runId)), TableKeys.SK, AttributeValue.fromS(sk)))).item();
    }

    @Test
    void runWait_leavesTheStoredFilesInOut() throws Exception {
        for (String file : ReportFiles.RUN_FILES) {
            assertThat(Files.readString(runFolder.resolve(file))).as(file).isEqualTo(bucketFiles.get(file));
        }
    }

    @Test
    void report_printsTheStoredReportMdFromTheRunsFolder() throws Exception {
        InProcessCli.Result shown = cli("report", runId, "--local-stack-name", STACK, "--out", runFolder.toString());

        assertThat(shown.exitCode()).as(shown.err()).isZero();
        assertThat(shown.out()).isEqualTo(Files.readString(runFolder.resolve("report.md")));
    }

    @Test
    void report_fetchesTheStoredFilesTheSummaryNamesIntoAnEmptyFolderAndWritesNothingToTheTable() throws Exception {
        Map<String, AttributeValue> summaryBefore = item(TableKeys.SUMMARY_SK);
        Path fetched = work.resolve("fetched");

        InProcessCli.Result shown = cli("report", runId, "--local-stack-name", STACK, "--out", fetched.toString());

        assertThat(shown.exitCode()).as(shown.err()).isZero();
        for (String file : ReportFiles.RUN_FILES) {
            assertThat(Files.readString(fetched.resolve(file))).as(file).isEqualTo(bucketFiles.get(file));
        }
        assertThat(shown.out()).isEqualTo(bucketFiles.get("report.md"));
        assertThat(item(TableKeys.SUMMARY_SK)).isEqualTo(summaryBefore);
    }

    @Test
    @SuppressWarnings("unchecked")
    void recompute_withTheSameReportLineSource_equalsTheStoredReportAndLeavesTheTableAndTheBucketAsTheyWere() throws Exception {
        Map<String, AttributeValue> summaryBefore = item(TableKeys.SUMMARY_SK);
        Map<String, AttributeValue> runBefore = item(TableKeys.RUN_SK);
        Path recomputed = work.resolve("recomputed");

        InProcessCli.Result again = cli("report", runId, "--recompute", "--report-lines", "none", "--local-stack-name", STACK, "--out", recomputed.toString());

        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.err().lines().findFirst().orElseThrow()).startsWith("batchpipe report: recomputed run " + runId + " from table "
                + stack.ref("RunsTable") + " (REPORT lines: none: ");
        Map<String, Object> stored = Json.parseObject(bucketFiles.get("report.json"));
        Map<String, Object> rebuilt = Json.parseObject(Files.readString(recomputed.resolve("report.json")));
        // inputs.reportLines is the sentence saying why there are no REPORT lines: the stack's aggregator has
        // REPORT_LINES=logs-insights and says it found no log group on a local endpoint, the command was told
        // none. Both mean none, so every figure must be the same; only that sentence is left out.
        Map<String, Object> storedInputs = (Map<String, Object>) stored.get("inputs");
        Map<String, Object> rebuiltInputs = (Map<String, Object>) rebuilt.get("inputs");
        assertThat((String) storedInputs.remove("reportLines")).startsWith("none: ");
        assertThat((String) rebuiltInputs.remove("reportLines")).startsWith("none: ");
        assertThat(rebuilt).isEqualTo(stored);
        assertThat(Files.readString(recomputed.resolve("tasks.csv"))).isEqualTo(bucketFiles.get("tasks.csv"));

        assertThat(item(TableKeys.SUMMARY_SK)).isEqualTo(summaryBefore);
        assertThat(item(TableKeys.RUN_SK)).isEqualTo(runBefore);
        for (String file : ReportFiles.RUN_FILES) {
            assertThat(stack.s3().getObjectAsBytes(b -> b.bucket(stack.ref("DataBucket")).key("reports/" + runId + "/" + file)).asUtf8String())
                    .as("the stored " + file).isEqualTo(bucketFiles.get(file));
        }
    }

    @Test
    void report_ofARunWithNothingStored_saysWhereItLookedAndSuggestsRecompute() {
        Path none = work.resolve("never-ran");

        InProcessCli.Result shown = cli("report", "never-ran", "--local-stack-name", STACK, "--out", none.toString());

        assertThat(shown.exitCode()).isEqualTo(1);
        assertThat(shown.err()).hasLineCount(1).contains("no stored report for run 'never-ran': no " + none.resolve("report.json"),
                "no summary item naming its files in table " + stack.ref("RunsTable"),
                "no s3://" + stack.ref("DataBucket") + "/reports/never-ran/report.json", "`batchpipe report never-ran --recompute`");
        assertThat(shown.out()).isEmpty();
    }
}
