package batchpipe.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 17's aggregation target: the report of a 1,000,000-task run, read page by page as DynamoDB
 * returns it, in a JVM limited to {@code -Xmx768m} (what a 1,024 MB aggregator leaves for the heap),
 * within 60 s on this machine. The run is laid out as a real one of that size: over the partition keys the
 * producer sizes it for, so the aggregator merges the keys' Queries. Each run is a process of its own
 * ({@link AggregateRun}); the figure is the median of the runs.
 */
final class AggregateBench {
    static final int TASKS = 1_000_000;
    static final double LIMIT_SECONDS = 60;
    private static final Pattern LINE = Pattern.compile(
            "aggregate layout=(?<layout>\\S+) partitions=(?<partitions>\\d+) tasks=(?<tasks>\\d+) pages=(?<pages>\\d+) seconds=(?<seconds>[0-9.]+) "
                    + "wallSeconds=(?<wall>[0-9.]+) generationSeconds=(?<generation>[0-9.]+) pageWaitSeconds=(?<wait>[0-9.]+) "
                    + "peakHeapMB=(?<heap>\\d+) peakLiveHeapMB=(?<live>\\d+) tasksCsvMB=(?<csv>\\d+)");
    private final BenchContext context;

    AggregateBench(BenchContext context) {
        this.context = context;
    }

    void measure() throws Exception {
        List<String> cmd = new ArrayList<>(context.javaCommand());
        cmd.add("-Xmx768m");
        cmd.addAll(List.of("-cp", context.benchJar().toString(), AggregateRun.class.getName(), Integer.toString(TASKS),
                context.settings().workDir().resolve("aggregate").toString()));
        context.findings().command(String.join(" ", cmd));
        List<Double> seconds = new ArrayList<>();
        List<Long> heaps = new ArrayList<>();
        List<Double> walls = new ArrayList<>();
        String detail = "";
        boolean allOk = true;
        for (int r = 0; r < context.settings().runs(); r++) {
            context.out().print("bench: aggregate 1,000,000 task records (sharded as a real run) under -Xmx768m ... ");
            ProcessRunner.Run run = context.processes().run(cmd);
            Matcher m = LINE.matcher(run.stdout());
            if (!run.ok() || !m.find()) {
                allOk = false;
                context.out().println("failed (exit " + run.exit() + "): " + ProcessRunner.tail(run.stderr()));
                continue;
            }
            seconds.add(Double.parseDouble(m.group("seconds")));
            heaps.add(Long.parseLong(m.group("heap")));
            walls.add(Double.parseDouble(m.group("wall")));
            detail = m.group("partitions") + " partition keys merged, " + m.group("pages") + " pages of at most 1 MB, tasks.csv "
                    + m.group("csv") + " MB, most heap held after a collection " + m.group("live") + " MB";
            context.out().printf(Locale.ROOT, "%s s over %s keys (%s s wall, %s s waiting for pages left out, %s s making them on any thread), "
                            + "peak heap %s MB, after a collection %s MB%n",
                    m.group("seconds"), m.group("partitions"), m.group("wall"), m.group("wait"), m.group("generation"), m.group("heap"), m.group("live"));
        }
        if (seconds.isEmpty()) {
            context.findings().target(Target.check("Aggregation: 1,000,000 task records under -Xmx768m", "failed", false, "< 60 s"));
            return;
        }
        double median = Stats.median(seconds);
        long peak = heaps.stream().mapToLong(Long::longValue).max().orElse(0);
        context.findings().figure("aggregate 1,000,000 task records, first Query to last file written, waits for pages left out (s)",
                String.format(Locale.ROOT, "%.1f", median), joined(seconds));
        context.findings().figure("aggregate 1,000,000 task records, first Query to last file written, page making included (s)",
                String.format(Locale.ROOT, "%.1f", Stats.median(walls)), joined(walls));
        context.findings().figure("aggregate 1,000,000 task records, peak heap in use (MB)", Long.toString(peak), joined(heaps));
        context.findings().target(Target.check("Aggregation: 1,000,000 task records under -Xmx768m",
                String.format(Locale.ROOT, "%.1f s, peak heap %d MB; %s", median, peak, detail),
                allOk && median < LIMIT_SECONDS, "< 60 s"));
    }

    private static String joined(List<?> values) {
        return String.join(", ", values.stream().map(String::valueOf).toList());
    }
}
