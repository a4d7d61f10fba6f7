package batchpipe.deploy.template;

import batchpipe.local.stack.ProjectHome;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code cfn-lint template.yaml} must print nothing: no error, no warning, no informational finding. */
class CfnLintTest {

    @Test
    void cfnLint_findsNothingInTheTemplate() throws Exception {
        Path cfnLint = onPath("cfn-lint");
        assumeTrue(cfnLint != null, "cfn-lint is not on PATH: template lint skipped (pip install cfn-lint to run it)");
        Path home = ProjectHome.find();

        Process lint = new ProcessBuilder(cfnLint.toString(), "template.yaml")
                .directory(home.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(lint.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(lint.waitFor(5, TimeUnit.MINUTES)).as("cfn-lint finished").isTrue();

        assertThat(output).as("cfn-lint template.yaml output").isEmpty();
        assertThat(lint.exitValue()).as("cfn-lint exit code (output: %s)", output).isZero();
    }

    private static Path onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) return null;
        return Stream.of(path.split(File.pathSeparator))
                .filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, program))
                .filter(Files::isExecutable)
                .findFirst()
                .orElse(null);
    }
}
