package batchpipe.bench;

import batchpipe.bench.corpus.Shape;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Measures the Performance targets side by side with the installed peers (node, python3, zstd, C bcrypt).",
                "It measures scan throughput on three shapes of log (short lines, long values, narrow events), first-pass vs "
                    + "warm speed, bcrypt per-hash time and scaling, scanning under -Xmx128m, the demo's overhead, and the "
                    + "worker's cold start under the Lambda runtime interface client against an empty handler (needs the Lambda "
                    + "folders ./mvnw package builds). Each figure is the median of --runs whole-process runs; prints a table of "
                    + "figures, ratios and PASS/MISS, and with --markdown writes the run as a Markdown page, whose figures "
                    + "docs/BENCHMARKS.md carries. Exit 0 when it ran, whatever the results."})
public final class BenchCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--quick", description = "A ~100 MB input instead of ~1 GB (the memory target then scans that smaller file).")
    boolean quick;

    @Option(names = "--runs", defaultValue = "3", paramLabel = "N", description = "Runs per figure; the median is reported (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--work-dir", defaultValue = "target/bench", paramLabel = "DIR", description = "Where inputs are generated and kept (default: ${DEFAULT-VALUE}).")
    Path workDir;

    @Option(names = "--only", split = ",", paramLabel = "PART",
            description = "Run only these parts, comma-separated: scan, warm, hash, memory, demo, cold-start, aggregate (default: all).")
    List<String> only = new ArrayList<>();

    @Option(names = "--shapes", split = ",", paramLabel = "SHAPE",
            description = "The shapes of log the scan and warm parts measure, comma-separated: short, long-values, narrow (default: all).")
    List<String> shapes = new ArrayList<>();

    @Option(names = "--markdown", paramLabel = "FILE", description = "Write this run as a Markdown page here, replacing the file (e.g. /tmp/bench.md, not docs/BENCHMARKS.md).")
    Path markdown;

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || runs > 50) throw new CommandLine.ParameterException(spec.commandLine(), "--runs must be between 1 and 50, got " + runs);
        String homeEnv = System.getenv("BATCHPIPE_HOME");
        Path home = Path.of(homeEnv != null ? homeEnv : ".").toAbsolutePath().normalize();
        for (String section : only) {
            if (!BenchSettings.SECTIONS.contains(section)) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--only: unknown part '" + section + "'; the parts are " + String.join(", ", BenchSettings.SECTIONS));
            }
        }
        List<Shape> chosen = new ArrayList<>();
        for (String shape : shapes) {
            try {
                chosen.add(Shape.byLabel(shape));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--shapes: " + e.getMessage());
            }
        }
        new Bench(new BenchSettings(quick, runs, workDir.toAbsolutePath(), markdown, home, Set.copyOf(only), chosen), System.out).run();
        return 0;
    }
}
