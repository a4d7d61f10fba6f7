package batchpipe.bench;

import batchpipe.bench.corpus.Shape;

import java.io.PrintStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./batchpipe bench}: the Performance issue's targets, measured side by side in one run against the
 * peers installed on this machine. Every figure is the median of several whole-process runs, taken in
 * rotation (java, node, python, zstd, java, ...) so that load from other work on the machine spreads over
 * all of them; only ratios of figures from the same run are compared. This class runs the parts asked
 * for and writes what they found; each part is a class of its own.
 */
public final class Bench {
    private final BenchSettings settings;
    private final PrintStream out;

    public Bench(BenchSettings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    public List<Target> run() throws Exception {
        Files.createDirectories(settings.workDir());
        ProcessRunner processes = new ProcessRunner(settings.home(), settings.workDir(), out);
        Findings findings = new Findings();
        BenchContext context = new BenchContext(settings, processes, Peers.ofThisProcess(), findings, out);
        if (settings.runs("scan") || settings.runs("warm")) {
            for (Shape shape : settings.shapes()) {
                ScanCorpus corpus = corpus(shape, findings);
                if (settings.runs("scan")) new ScanBench(context).measure(corpus);
                if (settings.runs("warm")) new WarmBench(context).measure(corpus);
            }
        }
        if (settings.runs("hash")) new HashBench(context).measure();
        if (settings.runs("memory")) new MemoryBench(context).measure(corpus(Shape.SHORT, findings));
        if (settings.runs("demo")) new DemoBench(context).measure();
        if (settings.runs("cold-start")) coldStart(findings);
        if (settings.runs("aggregate")) new AggregateBench(context).measure();
        if (processes.primedAny()) {
            findings.note("Each `./batchpipe` subcommand ran once untimed before its timed runs, which writes its start-up cache "
                    + "(the CLI keeps one per subcommand in local/target/cds: an AOT cache on JDK 25+, CDS before), as a user's second run has it.");
        }
        findings.note("JMH benchmarks of the kernels (line splitting, parsing, chunk merging, hashing) are not part of this bench: "
                + "they are for profiling, in bench-jmh (\"JMH kernels\" in docs/BENCHMARKS.md).");
        findings.note("On a 2-core machine absolute figures are noisy (see the load averages noted above and the run lists): "
                + "only ratios of figures measured side by side in the same run are compared, each the median of the runs, taken in rotation.");
        ConsoleTable.print(findings, settings.runs(), out);
        if (settings.markdown() != null) {
            Files.writeString(settings.markdown(), MarkdownReport.render("Batchpipe benchmarks", MachineInfo.describe(context),
                    findings.targets, findings.figures, findings.commands, findings.notes));
            out.println("bench: wrote " + settings.markdown());
        }
        return findings.targets;
    }

    /** The shape's input, generated on first use; its making is named once among the commands. */
    private ScanCorpus corpus(Shape shape, Findings findings) throws java.io.IOException {
        ScanCorpus corpus = ScanCorpus.prepare(settings.workDir(), shape, settings.quick(), out);
        if (!findings.commands.contains(corpus.howMade())) {
            findings.command(corpus.howMade());
            out.printf(Locale.ROOT, "bench: input (%s) %s, %.0f MB uncompressed, %.0f MB compressed; %d runs each, medians%n",
                    shape.label, corpus.file(), corpus.bytes() / 1e6, Files.size(corpus.file()) / 1e6, settings.runs());
        }
        return corpus;
    }

    private void coldStart(Findings findings) throws Exception {
        ColdStart.Result result = new ColdStart(settings.home(), settings.workDir(), settings.runs(), out).measure();
        findings.target(result.target());
        findings.figures.addAll(result.figures());
        findings.commands.addAll(result.commands());
        findings.notes.addAll(result.notes());
    }
}
