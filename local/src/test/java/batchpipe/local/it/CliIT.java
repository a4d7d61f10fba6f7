package batchpipe.local.it;

import batchpipe.local.cli.InProcessCli;
import batchpipe.common.json.Json;
import batchpipe.local.stack.ProjectHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The CLI as a user runs it: real invocations on a stack the command starts itself, and usage errors. */
class CliIT {
    private static InProcessCli.Result run(String... args) {
        return InProcessCli.run(args);
    }

    @Test
    void invokeWorker_withThePoisonEvent_reportsExactlyThePoisonMessageAsFailed() {
        String event = ProjectHome.find().resolve("events/worker-mixed-with-poison.json").toString();
        InProcessCli.Result run = run("invoke", "WorkerFunction", "--event", event, "--local-stack-name", "cliit");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Json.parse(run.out().trim())).isEqualTo(Map.of("batchItemFailures",
                List.of(Map.of("itemIdentifier", "33333333-0000-4000-8000-000000000003"))));
    }

    @Test
    void invokeWorker_withTheEventOnStandardInput_asSamLocalInvokeTakesIt() throws Exception {
        java.io.InputStream original = System.in;
        InProcessCli.Result run;
        try (java.io.InputStream event = Files.newInputStream(ProjectHome.find().resolve("events/worker-scan.json"))) {
            System.setIn(event);
            run = run("invoke", "WorkerFunction", "-e", "-", "--local-stack-name", "cliitstdin");
        } finally {
            System.setIn(original);
        }

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Json.parse(run.out().trim())).isEqualTo(Map.of("batchItemFailures", List.of()));
    }

    @Test
    @SuppressWarnings("unchecked")
    void runAndWait_copiesTheFourFilesToOut_whereReportShowsThemAfterTheStackIsGone(@TempDir Path dir) throws Exception {
        Path spec = dir.resolve("spec.json");
        Files.writeString(spec, "{\"label\": \"cli\", \"hash\": {\"batches\": 2, \"batchSize\": 4, \"cost\": 4}}");

        InProcessCli.Result run = run("run", "--spec", spec.toString(), "--wait", "--json", "--local-stack-name", "cliitrun", "--timeout", "300");

        assertThat(run.exitCode()).as(run.err()).isZero();
        Map<String, Object> printed = Json.parseObject(run.out());
        String runId = (String) printed.get("runId");
        Path folder = Path.of("out", runId);
        try {
            assertThat(printed).containsEntry("status", "complete").containsKey("inputs"); // report.json, not the summary item
            for (String file : List.of("report.json", "report.md", "tasks.csv", "report.html")) assertThat(folder.resolve(file)).isNotEmptyFile();
            assertThat(Json.parseObject(Files.readString(folder.resolve("report.json")))).isEqualTo(printed);

            // The stack `run` started ended with it, and no AWS_ENDPOINT_URL_* names another: the files are all there is.
            InProcessCli.Result shown = run("report", runId);

            assertThat(shown.exitCode()).as(shown.err()).isZero();
            assertThat(shown.out()).isEqualTo(Files.readString(folder.resolve("report.md")));
            assertThat(shown.err()).contains("the stored report of run " + runId + ", from " + folder);
        } finally {
            try (var files = Files.list(folder)) {
                for (Path f : files.toList()) Files.delete(f);
            }
            Files.delete(folder);
        }
    }

    @Test
    void unknownFlag_isAOneLineErrorWithExitStatus2() {
        InProcessCli.Result run = run("demo", "--objcts", "3");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option").contains("'--objcts'").hasLineCount(1);
    }

    @Test
    void missingEventFile_isAOneLineErrorWithExitStatus2() {
        InProcessCli.Result run = run("invoke", "WorkerFunction", "--event", "events/no-such-file.json");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("event file not found: events/no-such-file.json").hasLineCount(1);
    }

    @Test
    void unknownLogicalId_isAOneLineErrorWithExitStatus2() {
        InProcessCli.Result run = run("invoke", "WorkerFuntion");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("unknown function 'WorkerFuntion'").contains("WorkerFunction").hasLineCount(1);
    }
}
