package batchpipe.local.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.cost.CostReport;
import batchpipe.aggregator.stats.RunFigures;
import batchpipe.common.json.JsonFields;
import batchpipe.common.json.JsonWritable;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A sweep: the same run spec at several memory sizes and architectures, each configuration a run of its
 * own, and what they say side by side. Every figure of a measured configuration is read from that
 * configuration's run report ({@link Report}) and nothing else, except the per-task hash rate, which is
 * the median over the run's hash tasks of hashes ÷ task duration (from the task records, as tasks.csv
 * lists them); the comparisons (speedup, Pareto frontier, recommendation) are computed from those figures.
 *
 * @param cpu            how CPU was given to the configurations (the cgroup quota, or why it was not capped)
 * @param capped         false when CPU was not capped: then durations say nothing about Lambda's CPU shares
 *                       and nothing is recommended
 * @param strategy       cost, speed or balanced
 * @param balancedWeight the weight of cost in the balanced strategy (Power Tuning's balancedWeight)
 * @param maxP99Ms       the p99 budget; null when none was given
 * @param paretoFrontier the keys of the configurations no other one beats on both cost per run and p99
 */
public record SweepReport(String sweepId, String label, String cpu, boolean capped, String strategy, double balancedWeight,
                          Long maxP99Ms, Definitions definitions, List<Configuration> configurations, List<String> paretoFrontier,
                          Recommendation recommendation) implements JsonWritable {

    public static final String MEASURED = "measured";
    public static final String FAILED = "failed";
    public static final String BEYOND_THIS_MACHINE = "beyond this machine";
    public static final String NOT_MEASURABLE_HERE = "not measurable here";
    public static final List<String> STRATEGIES = List.of("cost", "speed", "balanced");
    /** The figures of all tasks, next to the kinds. */
    public static final String ALL = "all";

    /** What the figures measure, said in sweep.json and in the documents. */
    public record Definitions(String duration, String costPerRun, String speedup, String hashRate, String time) implements JsonWritable {
        public static final Definitions STANDARD = new Definitions(
                "task duration (ms): a task record's durationMs, from the worker taking the message to its record being written; "
                        + "nearest-rank percentiles as in each run's report",
                "the run report's cost.total: every priced request of the run (Lambda compute and requests, SQS, DynamoDB, S3)",
                "p50 task duration of the architecture's smallest measured memory size ÷ this configuration's p50, per kind; "
                        + "ideal = this configuration's vCPU share ÷ that one's",
                "per task: hashes ÷ task duration (hashes per second); the median over the run's done hash tasks",
                "the recommendation's time is the p99 task duration of all tasks; a configuration run several times (--repeat) "
                        + "counts with the highest p99 and the mean cost of its runs");

        @Override
        public Object toJsonValue() {
            return new JsonFields().put("duration", duration).put("costPerRun", costPerRun).put("speedup", speedup)
                    .put("hashRate", hashRate).put("time", time);
        }
    }

    /**
     * One run of one configuration (several per configuration with --repeat).
     *
     * @param key        {@code <architecture>-<memory>} (with {@code #<repeat>} for a repeat beyond the first)
     * @param vcpuShare  memory ÷ 1,769 MB, Lambda's CPU share for that memory
     * @param status     {@link #MEASURED}, {@link #FAILED} (tasks failed, or its run did not complete: then it has no
     *                   figures), {@link #BEYOND_THIS_MACHINE}, {@link #NOT_MEASURABLE_HERE}
     * @param note       why it was not run, or what went wrong; null when measured cleanly
     * @param runId      its run; null when not run
     * @param instances  worker instances allowed at once (those the machine's cores can serve at that share)
     * @param evidence   the kernel's and the JVM's own view of the cap; null when not run
     * @param byKind     {@link #ALL} and each kind the run had
     * @param cost       null when not run
     * @param hashRatePerTask median hashes per second of one hash task; null without hash tasks
     */
    public record Configuration(String key, String architecture, int memoryMb, int repeat, double vcpuShare, String status, String note,
                                String runId, int instances, CpuEvidence evidence, Map<String, KindFigures> byKind, Cost cost,
                                Double hashRatePerTask) implements JsonWritable {
        /** Whether it has figures: its run completed and was reported (with or without failed tasks). */
        public boolean measured() {
            return (status.equals(MEASURED) || status.equals(FAILED)) && byKind.containsKey(ALL);
        }

        /** Its architecture and memory size, the key its repeats share. */
        public String configurationKey() {
            return architecture + "-" + memoryMb;
        }

        @Override
        public Object toJsonValue() {
            return new JsonFields().put("key", key).put("architecture", architecture).put("memoryMb", memoryMb).put("repeat", repeat)
                    .put("vcpuShare", vcpuShare).put("status", status).putPresent("note", note).putPresent("runId", runId)
                    .put("instances", instances).putPresent("evidence", evidence).put("byKind", byKind).putPresent("cost", cost)
                    .putPresent("hashRatePerTask", hashRatePerTask);
        }

    }

    /**
     * What the cap looked like from inside and from the kernel.
     *
     * @param quota            e.g. "50000/100000 us per instance"; null when not capped
     * @param periods          cpu.stat nr_periods, summed over the configuration's instances
     * @param throttledPeriods cpu.stat nr_throttled: periods in which an instance used up its quota
     * @param throttledSeconds cpu.stat throttled_time: how long the instances were held back
     * @param jvmProcessors    Runtime.availableProcessors() of a JVM started in such a cgroup; null when not checked
     * @param workerThreads    the ForkJoin pool sizes the worker's task records state
     */
    public record CpuEvidence(String quota, long periods, long throttledPeriods, double throttledSeconds, Integer jvmProcessors,
                              List<Long> workerThreads) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().putPresent("quota", quota).put("periods", periods).put("throttledPeriods", throttledPeriods)
                    .put("throttledSeconds", throttledSeconds).putPresent("jvmProcessors", jvmProcessors).put("workerThreads", workerThreads);
        }
    }

    /**
     * One kind's (or all tasks') figures in one run, from its report.
     *
     * @param speedup          see {@link Definitions#speedup()}; null where there is no base to compare with
     * @param idealSpeedup     the vCPU share ratio to the same base
     */
    public record KindFigures(int tasks, long notDone, Long p50Ms, Long p90Ms, Long p99Ms, double tasksPerSecond,
                              double uncompressedMBPerSecond, double hashesPerSecond, double coldStartShare, Long initP50Ms,
                              Double speedup, Double idealSpeedup) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("tasks", tasks).put("notDone", notDone).put("p50Ms", p50Ms).put("p90Ms", p90Ms).put("p99Ms", p99Ms)
                    .put("tasksPerSecond", tasksPerSecond).put("uncompressedMBPerSecond", uncompressedMBPerSecond)
                    .put("hashesPerSecond", hashesPerSecond).put("coldStartShare", coldStartShare).put("initP50Ms", initP50Ms)
                    .putPresent("speedup", speedup).putPresent("idealSpeedup", idealSpeedup);
        }
    }

    /** From the run report's cost: the run, per million tasks, and the kinds' unit costs. */
    public record Cost(BigDecimal perRun, BigDecimal perMillionTasks, BigDecimal perGbScanned, BigDecimal perThousandHashes)
            implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("perRun", perRun).put("perMillionTasks", perMillionTasks).putPresent("perGbScanned", perGbScanned)
                    .putPresent("perThousandHashes", perThousandHashes);
        }
    }

    /**
     * @param key    the configuration recommended ({@code <architecture>-<memory>}); null when none is
     * @param reason one sentence: why this one, or why none
     */
    public record Recommendation(String key, String reason) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().putPresent("key", key).put("reason", reason);
        }
    }

    /** The settings the sweep ran with. */
    public record Settings(String sweepId, String label, String cpu, boolean capped, String strategy, double balancedWeight, Long maxP99Ms) {
        public Settings {
            if (!STRATEGIES.contains(strategy)) throw new IllegalArgumentException("strategy must be one of " + STRATEGIES + ", got " + strategy);
            if (!(balancedWeight >= 0 && balancedWeight <= 1)) {
                throw new IllegalArgumentException("balanced weight must be between 0 and 1, got " + balancedWeight);
            }
        }
    }

    /** What the sweep did with one configuration (one repeat of it). */
    public sealed interface Outcome permits Measured, Incomplete, NotRun {
    }

    /**
     * A configuration's run: its report and what the sweep saw of the cap.
     *
     * @param hashRates hashes per second of each done hash task (hashes ÷ durationMs × 1000)
     */
    public record Measured(String key, String architecture, int memoryMb, int repeat, double vcpuShare, int instances, Report report,
                           CpuEvidence evidence, List<Double> hashRates) implements Outcome {
    }

    /**
     * A configuration whose run was started but did not complete (within its timeout, or stalled): shown
     * {@link #FAILED} with the reason, without figures, and never recommended.
     *
     * @param reason e.g. "did not complete within 600 s: 3 of 8 tasks counted"
     * @param evidence what the sweep saw of the cap until then; null when not capped or not known
     */
    public record Incomplete(String key, String architecture, int memoryMb, int repeat, double vcpuShare, int instances, String runId,
                             String reason, CpuEvidence evidence) implements Outcome {
    }

    /** A configuration that was not run, with its status ({@link #BEYOND_THIS_MACHINE}, {@link #NOT_MEASURABLE_HERE}) and why. */
    public record NotRun(String key, String architecture, int memoryMb, int repeat, double vcpuShare, String status, String note)
            implements Outcome {
    }

    @Override
    public Object toJsonValue() {
        return new JsonFields().put("sweepId", sweepId).putPresent("label", label).put("cpu", cpu).put("capped", capped)
                .put("strategy", strategy).put("balancedWeight", balancedWeight).putPresent("maxP99Ms", maxP99Ms)
                .put("definitions", definitions).put("configurations", configurations).put("paretoFrontier", paretoFrontier)
                .put("recommendation", recommendation);
    }

    /**
     * The sweep's report from its configurations, in the order given: each measured one's figures read
     * from its run report, the ones not run as they are.
     */
    public static SweepReport of(Settings settings, List<? extends Outcome> outcomes) {
        List<Configuration> configurations = new ArrayList<>();
        for (Outcome outcome : outcomes) {
            configurations.add(switch (outcome) {
                case Measured measured -> figures(measured);
                case Incomplete i -> new Configuration(i.key(), i.architecture(), i.memoryMb(), i.repeat(), i.vcpuShare(), FAILED, i.reason(),
                        i.runId(), i.instances(), i.evidence(), Map.of(), null, null);
                case NotRun n -> new Configuration(n.key(), n.architecture(), n.memoryMb(), n.repeat(), n.vcpuShare(), n.status(), n.note(),
                        null, 0, null, Map.of(), null, null);
            });
        }
        configurations = withSpeedups(configurations);
        List<Candidate> candidates = candidates(configurations);
        List<String> frontier = pareto(candidates);
        Recommendation recommendation = recommend(settings, candidates, configurations);
        return new SweepReport(settings.sweepId(), settings.label(), settings.cpu(), settings.capped(), settings.strategy(),
                settings.balancedWeight(), settings.maxP99Ms(), Definitions.STANDARD, configurations, frontier, recommendation);
    }

    static Configuration figures(Measured m) {
        RunFigures f = m.report().figures();
        Map<String, KindFigures> byKind = new LinkedHashMap<>();
        byKind.put(ALL, kind(f.overall()));
        f.byKind().forEach((kind, group) -> byKind.put(kind, kind(group)));
        CostReport c = m.report().cost();
        Cost cost = null;
        if (c != null) {
            CostReport.KindCost scan = c.byKind().get("scan");
            CostReport.KindCost hash = c.byKind().get("hash");
            cost = new Cost(c.total(), c.perMillionTasks(), scan == null ? null : scan.perGbScanned(), hash == null ? null : hash.perThousandHashes());
        }
        long notDone = byKind.get(ALL).notDone();
        String status = notDone > 0 ? FAILED : MEASURED;
        String note = notDone > 0 ? notDone + " of " + f.overall().tasks() + " tasks did not finish as done (see the run's report)" : null;
        return new Configuration(m.key(), m.architecture(), m.memoryMb(), m.repeat(), m.vcpuShare(), status, note, f.runId(), m.instances(),
                m.evidence(), byKind, cost, median(m.hashRates()));
    }

    private static KindFigures kind(RunFigures.Group g) {
        long done = g.byStatus().getOrDefault("done", 0L);
        var durations = g.latency().taskDurationMs();
        return new KindFigures(g.tasks(), g.tasks() - done, durations.p50(), durations.at("p90"), durations.p99(),
                g.throughput().tasksPerSecond(), g.throughput().uncompressedMBPerSecond(), g.throughput().hashesPerSecond(),
                g.coldStarts().share(), g.coldStarts().initMs().p50(), null, null);
    }

    /** Adds each kind's speedup over the same architecture's smallest measured memory size (its first repeat). */
    private static List<Configuration> withSpeedups(List<Configuration> configurations) {
        Map<String, Configuration> base = new LinkedHashMap<>();
        for (Configuration c : configurations) {
            if (!c.measured()) continue;
            Configuration b = base.get(c.architecture());
            if (b == null || c.memoryMb() < b.memoryMb() || (c.memoryMb() == b.memoryMb() && c.repeat() < b.repeat())) base.put(c.architecture(), c);
        }
        List<Configuration> out = new ArrayList<>();
        for (Configuration c : configurations) {
            Configuration b = base.get(c.architecture());
            if (!c.measured() || b == null) {
                out.add(c);
                continue;
            }
            Map<String, KindFigures> byKind = new LinkedHashMap<>();
            c.byKind().forEach((kind, k) -> {
                KindFigures bk = b.byKind().get(kind);
                Double speedup = bk == null || bk.p50Ms() == null || k.p50Ms() == null || k.p50Ms() == 0 ? null : bk.p50Ms() / (double) k.p50Ms();
                Double ideal = speedup == null ? null : c.vcpuShare() / b.vcpuShare();
                byKind.put(kind, new KindFigures(k.tasks(), k.notDone(), k.p50Ms(), k.p90Ms(), k.p99Ms(), k.tasksPerSecond(),
                        k.uncompressedMBPerSecond(), k.hashesPerSecond(), k.coldStartShare(), k.initP50Ms(), round3(speedup), round3(ideal)));
            });
            out.add(new Configuration(c.key(), c.architecture(), c.memoryMb(), c.repeat(), c.vcpuShare(), c.status(), c.note(), c.runId(),
                    c.instances(), c.evidence(), byKind, c.cost(), c.hashRatePerTask()));
        }
        return out;
    }

    /**
     * A configuration as the recommendation sees it: over its repeats, the highest p99 and the mean
     * cost per run; failed when any repeat failed, also one whose run did not complete.
     */
    record Candidate(String key, String architecture, int memoryMb, BigDecimal cost, long p99Ms, boolean failed) {
    }

    static List<Candidate> candidates(List<Configuration> configurations) {
        Map<String, List<Configuration>> byKey = new LinkedHashMap<>();
        java.util.Set<String> failedKeys = new java.util.HashSet<>();
        for (Configuration c : configurations) {
            if (c.status().equals(FAILED)) failedKeys.add(c.configurationKey());
            if (!c.measured() || c.cost() == null || c.byKind().get(ALL).p99Ms() == null) continue;
            byKey.computeIfAbsent(c.configurationKey(), k -> new ArrayList<>()).add(c);
        }
        List<Candidate> candidates = new ArrayList<>();
        byKey.forEach((key, runs) -> {
            BigDecimal sum = runs.stream().map(r -> r.cost().perRun()).reduce(BigDecimal.ZERO, BigDecimal::add);
            BigDecimal mean = sum.divide(BigDecimal.valueOf(runs.size()), java.math.MathContext.DECIMAL64);
            long p99 = runs.stream().mapToLong(r -> r.byKind().get(ALL).p99Ms()).max().orElseThrow();
            boolean failed = failedKeys.contains(key);
            candidates.add(new Candidate(key, runs.get(0).architecture(), runs.get(0).memoryMb(), mean, p99, failed));
        });
        return candidates;
    }

    /** The configurations (failed ones left out) that no other beats on both cost per run and p99, cheapest first. */
    static List<String> pareto(List<Candidate> candidates) {
        List<Candidate> ok = candidates.stream().filter(c -> !c.failed()).toList();
        List<Candidate> frontier = new ArrayList<>();
        for (Candidate c : ok) {
            boolean dominated = ok.stream().anyMatch(o -> o != c && o.cost().compareTo(c.cost()) <= 0 && o.p99Ms() <= c.p99Ms()
                    && (o.cost().compareTo(c.cost()) < 0 || o.p99Ms() < c.p99Ms()));
            if (!dominated) frontier.add(c);
        }
        frontier.sort(Comparator.comparing(Candidate::cost).thenComparingLong(Candidate::p99Ms));
        return frontier.stream().map(Candidate::key).toList();
    }

    static Recommendation recommend(Settings settings, List<Candidate> candidates, List<Configuration> configurations) {
        if (!settings.capped()) {
            return new Recommendation(null, "No recommendation: CPU was not capped, so every configuration ran on all of this machine's "
                    + "cores and the durations say nothing about what each memory size buys on Lambda.");
        }
        List<Candidate> ok = candidates.stream().filter(c -> !c.failed()).toList();
        if (ok.isEmpty()) {
            long failed = configurations.stream().filter(c -> c.status().equals(FAILED)).map(Configuration::configurationKey).distinct().count();
            long notRun = configurations.stream().filter(c -> !c.status().equals(FAILED) && !c.status().equals(MEASURED))
                    .map(Configuration::configurationKey).distinct().count();
            return new Recommendation(null, "No recommendation: no configuration was measured without failed tasks ("
                    + failed + " failed, " + notRun + " not run).");
        }
        if (settings.maxP99Ms() != null) {
            List<Candidate> within = ok.stream().filter(c -> c.p99Ms() <= settings.maxP99Ms()).toList();
            if (within.isEmpty()) {
                Candidate fastest = ok.stream().min(Comparator.comparingLong(Candidate::p99Ms).thenComparing(Candidate::cost)).orElseThrow();
                return new Recommendation(null, String.format(Locale.ROOT, "No recommendation: no configuration kept its p99 within %,d ms; "
                        + "the fastest, %s, had p99 %,d ms.", settings.maxP99Ms(), fastest.key(), fastest.p99Ms()));
            }
            Candidate best = within.stream().min(Comparator.comparing(Candidate::cost).thenComparingLong(Candidate::p99Ms)).orElseThrow();
            return new Recommendation(best.key(), String.format(Locale.ROOT, "%s is the cheapest (%s per run) of the %d configurations "
                    + "whose p99 (%,d ms) is within the %,d ms budget.", best.key(), dollars(best.cost()), within.size(), best.p99Ms(), settings.maxP99Ms()));
        }
        return switch (settings.strategy()) {
            case "cost" -> {
                Candidate best = ok.stream().min(Comparator.comparing(Candidate::cost).thenComparingLong(Candidate::p99Ms)).orElseThrow();
                yield new Recommendation(best.key(), String.format(Locale.ROOT, "%s is the cheapest per run (%s, p99 %,d ms) of the %d "
                        + "configurations measured without failures.", best.key(), dollars(best.cost()), best.p99Ms(), ok.size()));
            }
            case "speed" -> {
                Candidate best = ok.stream().min(Comparator.comparingLong(Candidate::p99Ms).thenComparing(Candidate::cost)).orElseThrow();
                yield new Recommendation(best.key(), String.format(Locale.ROOT, "%s has the lowest p99 task duration (%,d ms, %s per run) of the %d "
                        + "configurations measured without failures.", best.key(), best.p99Ms(), dollars(best.cost()), ok.size()));
            }
            default -> {
                double w = settings.balancedWeight();
                BigDecimal maxCost = ok.stream().map(Candidate::cost).max(Comparator.naturalOrder()).orElseThrow();
                long maxP99 = ok.stream().mapToLong(Candidate::p99Ms).max().orElseThrow();
                Candidate best = ok.stream().min(Comparator.comparingDouble((Candidate c) -> balanced(c, w, maxCost, maxP99))
                        .thenComparing(Candidate::cost)).orElseThrow();
                yield new Recommendation(best.key(), String.format(Locale.ROOT, "%s has the lowest balanced score, %.3f = %.2f × cost/max cost "
                        + "+ %.2f × p99/max p99 (Power Tuning's formula; %s per run, p99 %,d ms), of the %d configurations measured without failures.",
                        best.key(), balanced(best, w, maxCost, maxP99), w, 1 - w, dollars(best.cost()), best.p99Ms(), ok.size()));
            }
        };
    }

    /** Power Tuning's balanced value (analyzer.js findBalanced), with p99 as the time: lower is better. */
    static double balanced(Candidate c, double weight, BigDecimal maxCost, long maxP99) {
        double cost = maxCost.signum() == 0 ? 0 : c.cost().doubleValue() / maxCost.doubleValue();
        double time = maxP99 == 0 ? 0 : c.p99Ms() / (double) maxP99;
        return weight * cost + (1 - weight) * time;
    }

    static Double median(List<Double> values) {
        if (values == null || values.isEmpty()) return null;
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        double m = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return Math.round(m * 1000) / 1000.0;
    }

    private static Double round3(Double v) {
        return v == null ? null : Math.round(v * 1000) / 1000.0;
    }

    static String dollars(BigDecimal amount) {
        return "$" + amount.round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString();
    }

    /** The configuration of this key's first repeat. */
    public Configuration configuration(String key) {
        return configurations.stream().filter(c -> Objects.equals(c.architecture() + "-" + c.memoryMb(), key)).findFirst().orElse(null);
    }
}
