package batchpipe.bench;

import batchpipe.common.text.ControlCharacters;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * The entry point of bench/target/batchpipe-bench.jar, which {@code ./batchpipe bench ...} runs: the one
 * subcommand {@code bench}, with the CLI's conventions (usage errors exit 2, failures exit 1).
 */
@Command(name = "batchpipe", subcommands = {BenchCommand.class})
public final class BenchCli implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new BenchCli());
        cli.setParameterExceptionHandler((error, args) -> {
            PrintWriter err = error.getCommandLine().getErr();
            err.println("batchpipe: " + ControlCharacters.escapeKeepingLines(String.valueOf(error.getMessage())) + " (see: batchpipe bench --help)");
            return 2;
        });
        cli.setExecutionExceptionHandler((error, commandLine, parseResult) -> {
            String message = error.getMessage();
            commandLine.getErr().println("batchpipe: " + (message == null || message.isBlank() ? error.getClass().getSimpleName()
                    : ControlCharacters.escapeKeepingLines(message)));
            if (System.getenv("BATCHPIPE_DEBUG") != null) error.printStackTrace(commandLine.getErr());
            return 1;
        });
        return cli;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "this jar runs only `batchpipe bench`");
    }
}
