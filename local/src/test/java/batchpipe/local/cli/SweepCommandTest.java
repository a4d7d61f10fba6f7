package batchpipe.local.cli;

import batchpipe.common.json.Json;
import batchpipe.common.text.ControlCharacters;
import batchpipe.local.run.MockedStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The sweep's arguments: every mistake is refused before anything starts, naming the option and its limit. */
class SweepCommandTest {
    @TempDir
    Path dir;


    /** {@code sweep --stack bp} of a small hash spec at 1,769 MB, whose run never completes (the mocked table stays empty). */
    private InProcessCli.Result sweepOnStack(MockedStack stack, String... more) throws Exception {
        Path spec = Files.writeString(dir.resolve("hash.json"), "{\"label\": \"hash-heavy\", \"hash\": {\"batches\": 2, \"batchSize\": 2, \"cost\": 4}}");
        List<String> args = new java.util.ArrayList<>(List.of("sweep", "--spec", spec.toString(), "--memory", "1769", "--stack", MockedStack.NAME,
                "--region", "eu-west-1", "--yes", "--timeout", "1", "--out", dir.resolve("sweep").toString()));
        args.addAll(List.of(more));
        return InProcessCli.run(InProcessCli.stackClients(stack::clients), args.toArray(String[]::new));
    }

    @Test
    void onAStack_withoutArch_sweepsTheDeployedWorkersArchitecture() throws Exception {
        // The template deploys arm64 by default, with no twin on x86_64.
        MockedStack stack = new MockedStack("arm64", Map.of());

        InProcessCli.Result r = sweepOnStack(stack);

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).doesNotContain("no worker on x86_64");
        // The worker (not live's version) ran the run's tasks.
        assertThat(stack.worker.invokedVersions()).isNotEmpty().doesNotContain("1");
        Map<String, Object> sweep = Json.parseObject(Files.readString(dir.resolve("sweep/sweep.json")));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> configurations = (List<Map<String, Object>>) sweep.get("configurations");
        assertThat(configurations).extracting(c -> c.get("key")).containsExactly("arm64-1769");
    }

    @Test
    void onAStack_stdoutCarriesOnlySweepMd_thePlannersLogGoesToStderr() throws Exception {
        MockedStack stack = new MockedStack("arm64", Map.of());

        InProcessCli.Result r = sweepOnStack(stack, "--arch", "arm64");

        assertThat(r.exitCode()).as(r.err()).isZero();
        String sweepMd = Files.readString(dir.resolve("sweep/sweep.md"), StandardCharsets.UTF_8);
        assertThat(r.out()).isEqualTo(ControlCharacters.escapeKeepingLines(sweepMd));
    }
    private static InProcessCli.Result sweep(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "sweep";
        all[1] = "--spec";
        all[2] = "no-such-spec.json";
        System.arraycopy(args, 0, all, 3, args.length);
        return InProcessCli.run(all);
    }

    @Test
    void aMemorySizeOutsideLambdasRange_isRefused() {
        InProcessCli.Result r = sweep("--memory", "885,64");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--memory sizes must be between 128 and 10240 MB (Lambda's range), got 64");
    }

    @Test
    void anUnknownArchitectureStrategyOrWeight_isRefused() {
        assertThat(sweep("--memory", "885", "--arch", "sparc").err()).contains("--arch must be x86_64 or arm64, got 'sparc'");
        assertThat(sweep("--memory", "885", "--strategy", "fastest").err()).contains("--strategy must be one of [cost, speed, balanced]");
        assertThat(sweep("--memory", "885", "--strategy", "balanced", "--balanced-weight", "1.5").err())
                .contains("--balanced-weight must be between 0 and 1, got 1.5");
        assertThat(sweep("--memory", "885", "--repeat", "0").err()).contains("--repeat must be between 1 and 10, got 0");
        assertThat(sweep("--memory", "885", "--timeout", "0").err()).contains("--timeout must be between 1 and 86400 seconds, got 0");
    }

    @Test
    void aConfigurationNamedTwice_isRefused() {
        assertThat(sweep("--memory", "885,885").err()).contains("name x86_64 885 MB twice");
    }

    @Test
    void maxP99_readsMillisecondsSecondsAndMinutes_andRefusesAnythingElse() {
        SweepCommand command = new SweepCommand();
        command.spec = BatchpipeCli.commandLine().getSubcommands().get("sweep").getCommandSpec();
        assertThat(command.parseDuration("2500ms")).isEqualTo(2500);
        assertThat(command.parseDuration("2.5s")).isEqualTo(2500);
        assertThat(command.parseDuration("1m")).isEqualTo(60_000);
        assertThat(command.parseDuration("750")).isEqualTo(750);
        assertThat(sweep("--memory", "885", "--max-p99", "soon").err()).contains("--max-p99 must be a duration like 2500ms, 2.5s or 1m, got 'soon'");
    }

    @Test
    void aMissingSpec_isNamed() {
        InProcessCli.Result r = sweep("--memory", "885");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("spec file not found: no-such-spec.json");
    }
}
