package batchpipe.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProcessRunnerTest {
    @TempDir
    Path dir;

    private ProcessRunner runner() {
        return new ProcessRunner(dir, dir, new PrintStream(new ByteArrayOutputStream()));
    }

    @Test
    void run_keepsStdoutStderrAndExitAndLeavesNoTemporaryFiles() throws Exception {
        ProcessRunner.Run run = runner().run(Shell.bash("echo out; echo err >&2; echo home=$BATCHPIPE_HOME; exit 3"));
        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.ok()).isFalse();
        assertThat(run.stdout()).isEqualTo("out\nhome=" + dir + "\n");
        assertThat(run.stderr()).isEqualTo("err\n");
        assertThat(run.seconds()).isPositive();
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void orFail_namesWhatFailedWithTheEndOfItsStderr() throws Exception {
        ProcessRunner.Run run = runner().run(Shell.bash("echo 'no such file' >&2; exit 1"));
        assertThatThrownBy(() -> run.orFail("zstd scan")).hasMessage("zstd scan failed (exit 1): no such file");
        assertThat(ProcessRunner.tail("x".repeat(700))).startsWith("...").hasSize(603);
    }

    @Test
    void run_pollsTheLiveProcessByItsPid() throws Exception {
        List<Long> pids = new ArrayList<>();
        runner().run(List.of("sleep", "0.2"), pids::add);
        assertThat(pids).isNotEmpty().allMatch(pid -> pid > 0);
    }

    @Test
    void eachBatchpipeSubcommandRunsOnceUntimedBeforeItsFirstTimedRun() throws Exception {
        Path script = dir.resolve("batchpipe");
        Path log = dir.resolve("calls");
        Files.writeString(script, "#!/bin/sh\necho \"$1 cds=${BATCHPIPE_CDS_WAIT:-0}\" >> '" + log + "'\n");
        script.toFile().setExecutable(true);
        ProcessRunner runner = runner();
        assertThat(runner.primedAny()).isFalse();
        runner.run(List.of(script.toString(), "scan"));
        runner.run(List.of(script.toString(), "scan"));
        runner.run(List.of(script.toString(), "hash"));
        runner.run(List.of("true"));
        assertThat(Files.readAllLines(log)).containsExactly("scan cds=1", "scan cds=0", "scan cds=0", "hash cds=1", "hash cds=0");
        assertThat(runner.primedAny()).isTrue();
    }
}
