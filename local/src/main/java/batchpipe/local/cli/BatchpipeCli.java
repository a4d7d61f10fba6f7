package batchpipe.local.cli;

import batchpipe.common.text.ControlCharacters;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code ./batchpipe}: the local stack, local invocations and the demo, on the project's own code. */
@Command(name = "batchpipe", mixinStandardHelpOptions = true, version = "batchpipe 0.1.0",
        description = "Event-driven batch pipeline on SQS and Lambda: run it locally, invoke its functions, measure it.",
        footer = {"", "Benchmarks: ./batchpipe bench --help (the bench module, run by the same script).",
                "Tests: ./batchpipe test (runs ./mvnw verify with a JDK 21+)."})
public final class BatchpipeCli implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * The subcommands by name, in the order help lists them. Registered here rather than in the
     * annotation so that a run builds only the model of the command it runs: picocli reflects over every
     * option of every command it is given, interpreted (its Java 5 classes never enter the start-up
     * cache: "Old class has been linked"), which cost ~0.3 s of every `./batchpipe` start for
     * ten commands it would not run. Help, typos and suggestions still see them all.
     */
    static final Map<String, Class<?>> SUBCOMMANDS = subcommands();

    private static Map<String, Class<?>> subcommands() {
        Map<String, Class<?>> commands = new LinkedHashMap<>();
        commands.put("local", LocalCommand.class);
        commands.put("invoke", InvokeCommand.class);
        commands.put("demo", DemoCommand.class);
        commands.put("run", RunCommand.class);
        commands.put("report", ReportCommand.class);
        commands.put("sweep", SweepCommand.class);
        commands.put("scan", ScanCommand.class);
        commands.put("hash", HashCommand.class);
        commands.put("sample", SampleCommand.class);
        commands.put("help", CommandLine.HelpCommand.class);
        return commands;
    }

    public static void main(String[] args) {
        System.exit(commandLine(CommandLine.defaultFactory(), args).execute(args));
    }

    /** The configured command line: usage errors are one line and exit 2; failures say what went wrong and exit 1. */
    public static CommandLine commandLine() {
        return commandLine(CommandLine.defaultFactory());
    }

    /** {@link #commandLine()} with commands that {@code factory} makes: a test's, given its own clients. */
    static CommandLine commandLine(CommandLine.IFactory factory) {
        return commandLine(factory, new String[0]);
    }

    /**
     * The command line for {@code args}: when they start with a command's name other than help, only that
     * command is built (the others could not run anyway); otherwise (help, a typo, no command) all are.
     */
    static CommandLine commandLine(CommandLine.IFactory factory, String[] arguments) {
        CommandLine cli = new CommandLine(new BatchpipeCli(), factory);
        String first = arguments.length > 0 ? arguments[0] : "";
        if (SUBCOMMANDS.containsKey(first) && !"help".equals(first)) {
            cli.addSubcommand(first, new CommandLine(SUBCOMMANDS.get(first), factory));
        } else {
            SUBCOMMANDS.forEach((name, command) -> cli.addSubcommand(name, new CommandLine(command, factory)));
        }
        cli.setParameterExceptionHandler((error, args) -> {
            PrintWriter err = error.getCommandLine().getErr();
            err.println("batchpipe: " + ControlCharacters.escapeKeepingLines(String.valueOf(error.getMessage())) + didYouMean(error)
                    + " (see: batchpipe " + commandPath(error.getCommandLine()) + "--help)");
            return 2;
        });
        cli.setExecutionExceptionHandler((error, commandLine, parseResult) -> reportFailure(error, commandLine.getErr()));
        return cli;
    }

    /** A command that failed while running: one line saying why (the stack trace with BATCHPIPE_DEBUG set); exit code 1. */
    static int reportFailure(Throwable error, PrintWriter err) {
        err.println("batchpipe: " + describe(error));
        if (System.getenv("BATCHPIPE_DEBUG") != null) error.printStackTrace(err);
        err.flush();
        return 1;
    }

    /** For a mistyped command or option, the close ones picocli finds among those of the command: "; did you mean invoke?". */
    static String didYouMean(CommandLine.ParameterException error) {
        if (!(error instanceof CommandLine.UnmatchedArgumentException unmatched)) return "";
        List<String> suggestions = unmatched.getSuggestions().stream().distinct().limit(3).toList();
        if (suggestions.isEmpty()) return "";
        return "; did you mean " + String.join(" or ", suggestions.stream().map(ControlCharacters::escapeKeepingLines).toList()) + "?";
    }

    private static String commandPath(CommandLine commandLine) {
        StringBuilder path = new StringBuilder();
        for (CommandLine c = commandLine; c.getParent() != null; c = c.getParent()) {
            path.insert(0, c.getCommandName() + " ");
        }
        return path.toString();
    }

    /** An error's message for the terminal: it may quote a value from a spec, a report or a log, so no control character passes. */
    static String describe(Throwable error) {
        String message = error.getMessage();
        return message == null || message.isBlank() ? error.getClass().getSimpleName() : ControlCharacters.escapeKeepingLines(message);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }
}
