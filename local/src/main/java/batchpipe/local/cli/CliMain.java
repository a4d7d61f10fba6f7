package batchpipe.local.cli;

/**
 * The CLI's entry point (the jar's Main-Class). {@code scan} with plain arguments runs without picocli
 * ({@link ScanFastStart}); everything else goes to {@link BatchpipeCli}.
 *
 * <p>This class and the scan's path are free of picocli types on purpose: the start-up cache links every
 * class it holds as the JVM starts, and linking a class whose code throws or catches a picocli type loads
 * that type, which is never in the cache (Java 5 class files), by searching ~200 jars of the class path:
 * ~40 ms of every scan's start when the main class was {@code BatchpipeCli}.
 */
public final class CliMain {
    private CliMain() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && "scan".equals(args[0])) {
            ScanArguments.prepareInBackground();
            Integer exitCode = ScanFastStart.run(args);
            if (exitCode != null) {
                if (exitCode != 0) System.exit(exitCode);
                // Exit 0 by returning, not System.exit: since JDK 17 Runtime.exit first asks System.getLogger
                // whether to log the exit, and finding the logger backend searches every jar of the class path
                // for a LoggerFinder service. The CLI's class path holds ~200 jars a scan never opens, so
                // that question cost 0.1-0.2 s at the end of every scan (async-profiler, docs/BENCHMARKS.md).
                // Returning ends the JVM the other way, after its last non-daemon thread (a scan starts only
                // daemon ones), and still runs the shutdown hooks, such as a JFR recording's dump.
                System.out.flush();
                return;
            }
        }
        BatchpipeCli.main(args);
    }
}
