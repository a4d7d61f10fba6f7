package batchpipe.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.PrintStream;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * Runs the bench's child processes and times them whole, from spawn to exit, with their output kept in
 * files (a pipe could fill and stall the child).
 */
final class ProcessRunner {
    /** One finished child process: wall seconds, exit code, stdout, stderr. */
    record Run(double seconds, int exit, String stdout, String stderr) {
        boolean ok() {
            return exit == 0;
        }

        /** This run, or an exception naming {@code what} failed with the end of its stderr. */
        Run orFail(String what) {
            if (!ok()) throw new IllegalStateException(what + " failed (exit " + exit + "): " + tail(stderr));
            return this;
        }
    }

    private final Path home;
    private final Path workDir;
    private final PrintStream out;
    /** Subcommands whose start-up cache an untimed run has written. */
    private final Set<String> primedSubcommands = new HashSet<>();

    ProcessRunner(Path home, Path workDir, PrintStream out) {
        this.home = home;
        this.workDir = workDir;
        this.out = out;
    }

    /** The {@code ./batchpipe} script this checkout runs. */
    String script() {
        return home.resolve("batchpipe").toString();
    }

    Run run(List<String> command) throws IOException, InterruptedException {
        return run(command, null);
    }

    /** Runs {@code command}, calling {@code poll} with its pid every 20 ms while it lives (null: no polling). */
    Run run(List<String> command, LongConsumer poll) throws IOException, InterruptedException {
        return run(command, poll, Map.of());
    }

    /** As {@link #run(List, LongConsumer)}, with {@code environment} added to what this process passes on. */
    Run run(List<String> command, LongConsumer poll, Map<String, String> environment) throws IOException, InterruptedException {
        primeStartupCache(command);
        return timed(command, poll, environment);
    }

    /** Whether any {@code ./batchpipe} subcommand has had its untimed first run. */
    boolean primedAny() {
        return !primedSubcommands.isEmpty();
    }

    /**
     * Runs each `./batchpipe` subcommand once, untimed, before its first timed run: that run writes the
     * subcommand's start-up cache (./batchpipe keeps one per subcommand; an AOT cache on JDK 25+), and
     * waits for it, so every timed run starts as a user's second run of the command does.
     */
    private void primeStartupCache(List<String> command) throws IOException, InterruptedException {
        if (command.size() < 2 || !command.get(0).equals(script()) || !primedSubcommands.add(command.get(1))) return;
        out.printf(Locale.ROOT, "bench: one untimed run of `batchpipe %s` writes its start-up cache ...%n", command.get(1));
        timed(command, null, Map.of("BATCHPIPE_CDS_WAIT", "1")).orFail("batchpipe " + command.get(1));
    }

    private Run timed(List<String> command, LongConsumer poll, Map<String, String> env) throws IOException, InterruptedException {
        Path o = Files.createTempFile(workDir, "out", ".txt"), e = Files.createTempFile(workDir, "err", ".txt");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(o.toFile()).redirectError(e.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().put("BATCHPIPE_HOME", home.toString());
            pb.environment().putAll(env);
            long start = System.nanoTime();
            Process p = pb.start();
            if (poll != null) {
                while (p.isAlive()) {
                    poll.accept(p.pid());
                    Thread.sleep(20);
                }
            }
            int exit = p.waitFor();
            double seconds = (System.nanoTime() - start) / 1e9;
            return new Run(seconds, exit, Files.readString(o, StandardCharsets.UTF_8), Files.readString(e, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(o);
            Files.deleteIfExists(e);
        }
    }

    /** The last 600 characters of {@code text}: enough of a stack trace or an error message to say what failed. */
    static String tail(String text) {
        return text.length() <= 600 ? text.strip() : "..." + text.substring(text.length() - 600).strip();
    }
}
