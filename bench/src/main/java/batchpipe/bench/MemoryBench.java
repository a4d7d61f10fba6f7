package batchpipe.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The scan of the whole corpus under {@code -Xmx128m}: it must succeed; its peak resident set is reported. */
final class MemoryBench {
    private static final Pattern MAX_RSS = Pattern.compile("Maximum resident set size \\(kbytes\\): (\\d+)");
    private final BenchContext context;

    MemoryBench(BenchContext context) {
        this.context = context;
    }

    void measure(ScanCorpus corpus) throws Exception {
        List<String> cmd = new ArrayList<>();
        boolean time = Files.isExecutable(Path.of("/usr/bin/time"));
        if (time) cmd.addAll(List.of("/usr/bin/time", "-v"));
        cmd.addAll(context.scanJavaCommand());
        cmd.add(1 + (time ? 2 : 0), "-Xmx128m");
        cmd.addAll(List.of("-jar", context.cliJar().toString(), "scan", corpus.file().toString(), "--workers", "2", "--count-by", "level,status"));
        context.findings().command(context.scanCommandLine(cmd));
        context.out().print("bench: scan with -Xmx128m ... ");
        ProcessRunner.Run run;
        long peakKb;
        if (time) {
            run = context.processes().run(cmd, null, context.scanEnvironment());
            Matcher m = MAX_RSS.matcher(run.stderr());
            peakKb = m.find() ? Long.parseLong(m.group(1)) : -1;
        } else {
            long[] peak = {0};
            run = context.processes().run(cmd, pid -> peak[0] = Math.max(peak[0], highWaterMarkKb(pid)), context.scanEnvironment());
            peakKb = peak[0];
        }
        long bytes = corpus.bytes();
        context.out().printf(Locale.ROOT, "exit %d, peak RSS %d MB, %.2f s%n", run.exit(), peakKb / 1024, run.seconds());
        String measured = String.format(Locale.ROOT, "%s; peak RSS %d MB (%s); %.0f MB uncompressed in %.2f s",
                run.ok() ? "succeeded" : "failed (exit " + run.exit() + ")", peakKb / 1024, time ? "/usr/bin/time -v" : "VmHWM polled",
                bytes / 1e6, run.seconds());
        String size = context.settings().quick() ? " (--quick: ~100 MB file, not 1 GB)" : "";
        context.findings().target(Target.check("Memory: scan ~" + Math.round(bytes / 1e9 * 10) / 10.0 + " GB uncompressed with -Xmx128m" + size,
                measured, run.ok(), "succeeds"));
    }

    /** The process's peak resident set so far (VmHWM), 0 once it has ended. */
    private static long highWaterMarkKb(long pid) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (l.startsWith("VmHWM:")) return Long.parseLong(l.replaceAll("\\D", ""));
            }
        } catch (IOException | NumberFormatException ignored) {
            // the process has ended between two polls
        }
        return 0;
    }
}
