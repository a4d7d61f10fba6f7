package batchpipe.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The first scan pass on a fresh JVM against the warm passes after it, in one process ({@link WarmPasses}). */
final class WarmBench {
    
    private final BenchContext context;

    WarmBench(BenchContext context) {
        this.context = context;
    }

    void measure(ScanCorpus corpus) throws Exception {
        List<String> cmd = new ArrayList<>(context.scanJavaCommand());
        cmd.addAll(List.of("-cp", context.benchJar().toString(), WarmPasses.class.getName(), corpus.file().toString(), "3", "2"));
        context.findings().command(context.scanCommandLine(cmd));
        List<Double> ratios = new ArrayList<>(), first = new ArrayList<>(), warm = new ArrayList<>();
        int runs = context.settings().runs();
        for (int r = 0; r < runs; r++) {
            context.out().printf(Locale.ROOT, "bench: 3 scan passes (%s) in one JVM, run %d/%d ... ", corpus.shape().label, r + 1, runs);
            List<Double> passes = Stats.numbers(context.processes().run(cmd, null, context.scanEnvironment()).orFail("warm passes").stdout());
            double best = Stats.min(passes.subList(1, passes.size()));
            first.add(passes.get(0));
            warm.add(best);
            ratios.add(best / passes.get(0));
            context.out().println(passes);
        }
        double f = Stats.median(first), w = Stats.median(warm);
        long bytes = corpus.bytes();
        String shape = corpus.shape().label;
        context.findings().figure("scan (" + shape + ") in one JVM, pass 1", Format.rate(f, bytes), Format.seconds(first));
        context.findings().figure("scan (" + shape + ") in one JVM, best of passes 2-3", Format.rate(w, bytes), Format.seconds(warm));
        context.findings().target(Target.atLeast("Scan (" + shape + "): first pass vs best warm pass (same JVM)", String.format(Locale.ROOT, "%.0f vs %.0f MB/s",
                Format.megabytesPerSecond(bytes, f), Format.megabytesPerSecond(bytes, w)), Stats.median(ratios), 0.5));
    }
}
