package batchpipe.deploy.sweep;

import batchpipe.common.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A whole local sweep (the local stack, the worker as processes under the runtime interface client, the
 * aggregator) where cgroups cannot be made: detection reads a fake mount table with no cpu controller.
 * The sweep still runs every configuration, says "CPU not capped" on its first line and in every report,
 * and recommends nothing.
 */
class UncappedSweepIT {
    @TempDir
    Path dir;

    @Test
    void withoutACpuController_theSweepRunsSaysCpuNotCappedEverywhereAndRecommendsNothing() throws Exception {
        Path mounts = SweepCli.mountsWithoutCpuController(dir);
        Path spec = Files.writeString(dir.resolve("spec.json"), "{\"label\": \"uncapped\", \"hash\": {\"batches\": 2, \"batchSize\": 2, \"cost\": 4}}");
        Path sweepDir = dir.resolve("sweep");

        SweepCli.Result result = SweepCli.run("--spec", spec.toString(), "--memory", "885,1769", "--yes",
                "--proc-mounts", mounts.toString(), "--out", sweepDir.toString(), "--local-stack-name", "uncapped-sweep");
        String errText = result.stderr();
        assertThat(result.code()).as(errText).isZero();
        assertThat(errText.lines().findFirst().orElseThrow()).contains(": CPU not capped: ").contains("offers no cpu controller");

        Map<String, Object> sweep = Json.parseObject(Files.readString(sweepDir.resolve("sweep.json")));
        assertThat(sweep).containsEntry("capped", false);
        assertThat((Map<String, Object>) sweep.get("recommendation")).doesNotContainKey("key");
        assertThat(Files.readString(sweepDir.resolve("sweep.md")).lines().findFirst().orElseThrow()).startsWith("# CPU not capped: ");
        assertThat(Files.readString(sweepDir.resolve("sweep.html"))).contains("<h1>CPU not capped: ");
        assertThat(result.stdout()).startsWith("# CPU not capped: ").contains("No recommendation: CPU was not capped");

        @SuppressWarnings("unchecked")
        List<Map<String, Object>> configurations = (List<Map<String, Object>>) sweep.get("configurations");
        assertThat(configurations).extracting(c -> c.get("status")).containsExactly("measured", "measured");
        for (Map<String, Object> c : configurations) {
            String runId = (String) c.get("runId");
            assertThat(runId).startsWith((String) sweep.get("sweepId"));
            // Each configuration's own run report says so too, where it names its REPORT lines' source.
            String report = Files.readString(Path.of("out", runId, "report.json"));
            assertThat(report).contains("CPU not capped: ");
            assertThat(report).contains("\"status\": \"complete\"");
            // Each worker invocation is billed once, from its REPORT line: the line names the request id the worker saw and wrote
            // on its task records (a line under another id would leave its invocation to be counted again from the records).
            @SuppressWarnings("unchecked")
            Map<String, Object> durations = (Map<String, Object>) ((Map<String, Object>) Json.parseObject(report).get("cost")).get("durations");
            assertThat(((Number) durations.get("task records")).intValue()).as(runId).isZero();
            assertThat(((Number) durations.get("REPORT line")).intValue()).as(runId).isPositive();
        }
    }
}
