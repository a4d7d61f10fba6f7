package batchpipe.bench;

import java.util.List;
import java.util.Map;

/** Renders one bench run as a Markdown page: machine, targets, figures, commands, notes; docs/BENCHMARKS.md carries its figures. */
public final class MarkdownReport {
    private MarkdownReport() {
    }

    /** One measured figure: what, the median, the unit, and every run behind the median. */
    public record Figure(String name, String median, String runs) {
    }

    public static String render(String title, Map<String, String> machine, List<Target> targets, List<Figure> figures,
                                List<String> commands, List<String> notes) {
        StringBuilder md = new StringBuilder();
        md.append("# ").append(title).append("\n\n");
        md.append("## Machine\n\n");
        machine.forEach((k, v) -> md.append("- **").append(k).append("**: ").append(escape(v)).append('\n'));
        md.append("\n## Targets\n\n");
        md.append("| Target | Measured | Ratio | Goal | Result | Margin |\n");
        md.append("|---|---|---|---|---|---|\n");
        for (Target t : targets) {
            md.append("| ").append(escape(t.name())).append(" | ").append(escape(t.measured())).append(" | ").append(t.ratioText())
                    .append(" | ").append(t.goal()).append(" | ").append(t.result()).append(" | ").append(escape(t.margin())).append(" |\n");
        }
        md.append("\n## Figures (median of the runs; every run listed)\n\n");
        md.append("| Figure | Median | Runs |\n|---|---|---|\n");
        for (Figure f : figures) {
            md.append("| ").append(escape(f.name())).append(" | ").append(escape(f.median())).append(" | ").append(escape(f.runs())).append(" |\n");
        }
        md.append("\n## Commands\n\n```\n");
        for (String c : commands) md.append(c).append('\n');
        md.append("```\n");
        if (!notes.isEmpty()) {
            md.append("\n## Notes\n\n");
            for (String n : notes) md.append("- ").append(n).append('\n');
        }
        return md.toString();
    }

    /** Keeps a cell in its column: pipes and line breaks would break the table. */
    static String escape(String text) {
        return text == null ? "" : text.replace("|", "\\|").replace("\r", " ").replace("\n", " ");
    }
}
