package batchpipe.local.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The sweep's arguments: every mistake is refused before anything starts, naming the option and its limit. */
class SweepCommandTest {
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
