package batchpipe.local.cli;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar on stderr: done/total, rate and ETA. On a terminal it redraws in place;
 * otherwise (CI logs, pipes) it prints a plain line at most every few seconds.
 */
final class ProgressBar {
    private final PrintStream out;
    private final String what;
    private final boolean terminal;
    private final long startNanos = System.nanoTime();
    private long lastPlainLine;

    ProgressBar(PrintStream out, String what) {
        this.out = out;
        this.what = what;
        this.terminal = System.console() != null;
    }

    void update(long done, long total) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        double rate = seconds > 0 ? done / seconds : 0;
        String eta = rate > 0 && total > done ? String.format(Locale.ROOT, "%.0fs", (total - done) / rate) : done >= total ? "0s" : "?";
        int width = 30;
        int filled = total <= 0 ? 0 : (int) Math.min(width, done * width / total);
        String line = String.format(Locale.ROOT, "[%s%s] %d/%d %s  %.1f/s  ETA %s", "#".repeat(filled), ".".repeat(width - filled),
                done, total, what, rate, eta);
        if (terminal) {
            out.print("\r" + line);
            out.flush();
        } else if (System.nanoTime() - lastPlainLine > 3_000_000_000L || done >= total) {
            out.println(line);
            lastPlainLine = System.nanoTime();
        }
    }

    void finish() {
        if (terminal) out.println();
    }
}
