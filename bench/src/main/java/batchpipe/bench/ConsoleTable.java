package batchpipe.bench;

import java.io.PrintStream;
import java.util.Locale;

/** The bench's findings as the terminal shows them: one line per target, then the figures and notes. */
final class ConsoleTable {
    private ConsoleTable() {
    }

    static void print(Findings findings, int runs, PrintStream out) {
        out.println();
        out.println("Figures are medians of " + runs + " runs; absolute figures are noisy, compare the ratios (measured side by side in this run).");
        out.printf(Locale.ROOT, "%-72s %-44s %8s %9s %-8s %s%n", "TARGET", "MEASURED", "RATIO", "GOAL", "RESULT", "MARGIN");
        for (Target t : findings.targets) {
            out.printf(Locale.ROOT, "%-72s %-44s %8s %9s %-8s %s%n", t.name(), Format.abbreviate(t.measured(), 44), t.ratioText(), t.goal(), t.result(), t.margin());
        }
        out.println();
        for (MarkdownReport.Figure f : findings.figures) out.printf(Locale.ROOT, "  %-75s %s   [%s]%n", f.name(), f.median(), f.runs());
        for (String n : findings.notes) out.println("  note: " + n);
    }
}
