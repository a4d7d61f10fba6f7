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
 * A whole local sweep whose configurations cannot complete in time: with {@code --timeout 1} no worker
 * process is even started before the deadline. Each configuration is marked failed with the reason, its
 * processes stopped and its messages purged, and the sweep goes on to the next, writes its files and
 * recommends nothing, rather than aborting at the first.
 */
class TimedOutSweepIT {
    @TempDir
    Path dir;

    @Test
    void aRunThatDoesNotCompleteInTime_failsItsConfigurationWithTheReason_andTheSweepGoesOn() throws Exception {
        // No cpu controller: the test does not depend on this machine's cgroups (UncappedSweepIT covers that label).
        Path mounts = SweepCli.mountsWithoutCpuController(dir);
        Path spec = Files.writeString(dir.resolve("spec.json"), "{\"label\": \"too-slow\", \"hash\": {\"batches\": 2, \"batchSize\": 2, \"cost\": 12}}");
        Path sweepDir = dir.resolve("sweep");

        SweepCli.Result result = SweepCli.run("--spec", spec.toString(), "--memory", "885,1769", "--timeout", "1", "--yes",
                "--proc-mounts", mounts.toString(), "--out", sweepDir.toString(), "--local-stack-name", "timed-out-sweep");
        String errText = result.stderr();
        assertThat(result.code()).as(errText).isZero();

        Map<String, Object> sweep = Json.parseObject(Files.readString(sweepDir.resolve("sweep.json")));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> configurations = (List<Map<String, Object>>) sweep.get("configurations");
        assertThat(configurations).extracting(c -> c.get("key")).containsExactly("x86_64-885", "x86_64-1769");
        for (Map<String, Object> c : configurations) {
            assertThat(c.get("status")).isEqualTo("failed");
            assertThat((String) c.get("note")).matches("did not complete within 1 s: [01] of 2 tasks counted");
            assertThat((String) c.get("runId")).startsWith((String) sweep.get("sweepId"));
            assertThat((Map<?, ?>) c.get("byKind")).isEmpty();
            assertThat(errText).contains(c.get("key") + ": run " + c.get("runId") + " did not complete within 1 s");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> recommendation = (Map<String, Object>) sweep.get("recommendation");
        assertThat(recommendation).doesNotContainKey("key");
        assertThat(Files.readString(sweepDir.resolve("sweep.md"))).contains("| x86_64-1769 | 1.000 | failed: did not complete within 1 s:");
        assertThat(Files.readString(sweepDir.resolve("sweep.html"))).contains("<td>x86_64-885</td><td>failed</td>");
        assertThat(errText).contains("marked failed, its remaining messages purged, going on");
    }
}
