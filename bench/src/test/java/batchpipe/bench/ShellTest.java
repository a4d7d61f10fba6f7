package batchpipe.bench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ShellTest {
    @Test
    void quote_keepsAnyPathOneWordThroughBash() throws Exception {
        String awkward = "/tmp/it's a \"file\" $HOME `x` \\n;|&.zst";
        Process p = new ProcessBuilder(Shell.bash("printf '%s' " + Shell.quote(awkward))).start();
        String echoed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        assertThat(echoed).isEqualTo(awkward);
        assertThat(Shell.quote(Path.of("/a b"))).isEqualTo("'/a b'");
    }

    @Test
    void bash_failsWhenAnEarlierStageOfThePipelineFails() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Shell.bash("false | cat")).start();
        assertThat(p.waitFor()).isNotZero();
    }

    @Test
    void display_showsAPipelineAsTypedAndOtherCommandsAsTheirWords() {
        assertThat(Shell.display(Shell.bash("zstd -dc 'f' | node 's.js'"))).isEqualTo("zstd -dc 'f' | node 's.js'");
        assertThat(Shell.display(List.of("./batchpipe", "scan", "f", "--workers", "2"))).isEqualTo("./batchpipe scan f --workers 2");
    }
}
