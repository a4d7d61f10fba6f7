package batchpipe.local.cli;

import java.io.PrintStream;

/**
 * Points System.out elsewhere until closed, then back to what it was. The in-process functions log to
 * stdout, as on Lambda, so commands whose stdout is their result (a response, a report's paths) send
 * the functions' output to stderr or nowhere while they run.
 */
final class StdoutRedirect implements AutoCloseable {
    private final PrintStream previous;

    private StdoutRedirect(PrintStream target) {
        this.previous = System.out;
        System.setOut(target);
    }

    static StdoutRedirect to(PrintStream target) {
        return new StdoutRedirect(target);
    }

    /** For the functions' output that is not news (the sample run a fresh stack loads, a report's service logs). */
    static StdoutRedirect discarded() {
        return new StdoutRedirect(QuietStreams.discard());
    }

    @Override
    public void close() {
        System.setOut(previous);
    }
}
