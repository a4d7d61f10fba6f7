package batchpipe.bench;

import java.util.ArrayList;
import java.util.List;

/** What a bench run found, in the order the table and the page show it: targets, figures, commands, notes. */
final class Findings {
    final List<Target> targets = new ArrayList<>();
    final List<MarkdownReport.Figure> figures = new ArrayList<>();
    final List<String> commands = new ArrayList<>();
    final List<String> notes = new ArrayList<>();

    void target(Target target) {
        targets.add(target);
    }

    void figure(String name, String median, String runs) {
        figures.add(new MarkdownReport.Figure(name, median, runs));
    }

    void command(String command) {
        commands.add(command);
    }

    void note(String note) {
        notes.add(note);
    }
}
