package batchpipe.local.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.stats.RunFigures;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Stored runs in time order, each judged against the runs of its own label before it: a run is flagged
 * when its cost per million tasks or its p99 task duration is worse than the median of the
 * {@code baseline} runs before it by more than {@code regressionPercent}. A run with fewer than
 * {@code baseline} runs of its label before it is not judged: a median of one or two runs says more about
 * their noise than about a regression.
 *
 * @param runs              the runs shown, oldest first (the last {@code --last} of them)
 * @param consideredRuns    how many runs were judged or could serve as a baseline (the label's whole history)
 * @param label             the label asked for, or null for every label
 * @param source            where the reports were read, for the page's first line
 */
public record RunHistory(List<JudgedRun> runs, int consideredRuns, String label, int baseline, BigDecimal regressionPercent,
                         String source) {
    public RunHistory {
        runs = List.copyOf(runs);
    }

    /** The figures the history compares, each with its direction: higher is worse for both. */
    public enum Figure {
        COST_PER_MILLION_TASKS("cost per million tasks", RunPoint::costPerMillionTasks),
        P99_TASK_DURATION("p99 task duration", p -> p.p99TaskDurationMs() == null ? null : BigDecimal.valueOf(p.p99TaskDurationMs()));

        private final String title;
        private final Function<RunPoint, BigDecimal> value;

        Figure(String title, Function<RunPoint, BigDecimal> value) {
            this.title = title;
            this.value = value;
        }

        public String title() {
            return title;
        }

        public BigDecimal of(RunPoint run) {
            return value.apply(run);
        }
    }

    /**
     * One run's history figures, read from its report.json.
     *
     * @param startedAt               the run window's start (epoch ms): the run's creation, else its first task's start
     * @param costPerMillionTasks     USD, the report's own figure; null when the report has no cost or no tasks
     * @param p50TaskDurationMs       nearest rank over the run's task durations; null for a run without tasks
     * @param failures                tasks that ended failed or rejected
     * @param coldStartsPerInvocation false for reports written before cold starts were counted per invocation,
     *                                whose share is of tasks
     */
    public record RunPoint(String runId, String label, long startedAt, BigDecimal costPerMillionTasks, Long p50TaskDurationMs,
                           Long p99TaskDurationMs, double tasksPerSecond, long tasks, long failures, double coldStartShare,
                           boolean coldStartsPerInvocation) {
        public static RunPoint of(Report report) {
            RunFigures figures = report.figures();
            RunFigures.Group overall = figures.overall();
            long failures = overall.byStatus().entrySet().stream().filter(e -> !e.getKey().equals("done")).mapToLong(Map.Entry::getValue).sum();
            return new RunPoint(figures.runId(), figures.label(), figures.window().start(),
                    report.cost() == null ? null : report.cost().perMillionTasks(), overall.latency().taskDurationMs().p50(),
                    overall.latency().taskDurationMs().p99(), overall.throughput().tasksPerSecond(), overall.tasks(), failures,
                    overall.coldStarts().share(), overall.coldStarts().perInvocation());
        }
    }

    /**
     * A figure worse than its baseline's median by more than the threshold.
     *
     * @param percentWorse (value − median) ÷ median × 100
     */
    public record Flag(Figure figure, BigDecimal value, BigDecimal baselineMedian, BigDecimal percentWorse) {
    }

    /**
     * A run and its verdict.
     *
     * @param baselineRunIds the runs of its label it was judged against, oldest first; fewer than the baseline
     *                       count (and no flags) when it was not judged
     * @param judged         whether it had {@code baseline} runs of its label before it
     */
    public record JudgedRun(RunPoint run, List<String> baselineRunIds, boolean judged, List<Flag> flags) {
        public JudgedRun {
            baselineRunIds = List.copyOf(baselineRunIds);
            flags = List.copyOf(flags);
        }

        public boolean flagged() {
            return !flags.isEmpty();
        }
    }

    /** Oldest first: by the run window's start, then by run id so that equal starts keep one order. */
    public static final Comparator<RunPoint> BY_TIME = Comparator.comparingLong(RunPoint::startedAt).thenComparing(RunPoint::runId);

    /**
     * Judges every run against the runs of its label before it, then keeps the last {@code last}.
     *
     * @param runs every run to consider, in any order (already of one label when one was asked for)
     * @param last how many of the newest to show; the baseline may reach runs older than these
     */
    public static RunHistory judge(List<RunPoint> runs, int baseline, BigDecimal regressionPercent, int last, String label,
                                   String source) {
        if (baseline < 1) throw new IllegalArgumentException("baseline must be at least 1 run, was " + baseline);
        if (last < 1) throw new IllegalArgumentException("last must be at least 1 run, was " + last);
        if (regressionPercent.signum() < 0) throw new IllegalArgumentException("regression must be at least 0%, was " + regressionPercent);
        List<RunPoint> ordered = runs.stream().sorted(BY_TIME).toList();
        Map<String, List<RunPoint>> earlierByLabel = new HashMap<>();
        List<JudgedRun> judged = new ArrayList<>();
        for (RunPoint run : ordered) {
            List<RunPoint> earlier = earlierByLabel.computeIfAbsent(Objects.requireNonNullElse(run.label(), ""), k -> new ArrayList<>());
            List<RunPoint> before = earlier.subList(Math.max(0, earlier.size() - baseline), earlier.size());
            List<String> beforeIds = before.stream().map(RunPoint::runId).toList();
            if (before.size() < baseline) {
                judged.add(new JudgedRun(run, beforeIds, false, List.of()));
            } else {
                List<Flag> flags = new ArrayList<>();
                for (Figure figure : Figure.values()) {
                    Flag flag = flag(figure, run, before, regressionPercent);
                    if (flag != null) flags.add(flag);
                }
                judged.add(new JudgedRun(run, beforeIds, true, flags));
            }
            earlier.add(run);
        }
        return new RunHistory(judged.subList(Math.max(0, judged.size() - last), judged.size()), ordered.size(), label, baseline,
                regressionPercent, source);
    }

    /**
     * The flag for one figure, or null. The comparison is exact (value &gt; median × (1 + threshold)), so a run
     * exactly at the threshold is not flagged; a figure the run lacks, or whose baseline median is 0 (no
     * percentage can be said), is not judged.
     */
    static Flag flag(Figure figure, RunPoint run, List<RunPoint> baseline, BigDecimal regressionPercent) {
        BigDecimal value = figure.of(run);
        BigDecimal median = median(baseline.stream().map(figure::of).filter(Objects::nonNull).toList());
        if (value == null || median == null || median.signum() <= 0) return null;
        BigDecimal limit = median.multiply(BigDecimal.ONE.add(regressionPercent.movePointLeft(2)));
        if (value.compareTo(limit) <= 0) return null;
        BigDecimal percentWorse = value.subtract(median).movePointRight(2).divide(median, MathContext.DECIMAL64);
        return new Flag(figure, value, median, percentWorse);
    }

    /** The middle value, or the mean of the two middle values of an even count (exact: a half is a finite decimal); null for none. */
    static BigDecimal median(List<BigDecimal> values) {
        if (values.isEmpty()) return null;
        List<BigDecimal> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        if (n % 2 == 1) return sorted.get(n / 2);
        return sorted.get(n / 2 - 1).add(sorted.get(n / 2)).divide(BigDecimal.valueOf(2), MathContext.UNLIMITED);
    }

    /** The flagged runs among those shown. */
    public List<JudgedRun> flagged() {
        return runs.stream().filter(JudgedRun::flagged).toList();
    }
}
