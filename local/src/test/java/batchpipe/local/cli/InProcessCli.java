package batchpipe.local.cli;

import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/** Runs the batchpipe command line in the test's JVM and captures what it prints, as a user's shell would see it. */
public final class InProcessCli {
    /** The exit code, stdout and stderr of one command. */
    public record Result(int exitCode, String out, String err) {
    }

    private InProcessCli() {
    }

    public static Result run(String... args) {
        PrintStream original = System.out;
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        try {
            System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
            CommandLine cli = BatchpipeCli.commandLine();
            cli.setErr(new PrintWriter(err, true));
            int code = cli.execute(args);
            return new Result(code, stdout.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(original);
        }
    }
}
