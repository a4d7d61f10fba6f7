package batchpipe.local.sweep;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.cost.CostReport;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.stats.RunFigures;
import batchpipe.worker.pool.PoolSize;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a sweep on AWS will cost in Lambda compute, before it starts: per configuration, the billed
 * seconds of its worker invocations times the memory in GB times the architecture's price per GB-s.
 *
 * <p>The billed time of one task comes from the newest stored report of the spec's label when there is
 * one (its workers' billed duration shared out to the kinds by their task time, per task), scaled to the
 * configuration's vCPU share; otherwise from the spec, at reference speeds (docs/SWEEP.md says which and
 * where they were measured). In both, CPU follows memory (1,769 MB = 1 vCPU, at most 6), and a task is
 * sped up by more vCPUs only up to its kind's parallelism: the hashes of a hash task, the pool threads a
 * scan task was measured with (for the spec, one vCPU for a scan: decompressing one object is one stream).
 */
public final class SweepEstimate {
    /** jBCrypt at cost 10 on one vCPU, warm: 63-70 ms on this machine (GUIDE section 4, docs/BENCHMARKS.md); the slow end, rounded. */
    static final double SECONDS_PER_HASH_AT_COST_10 = 0.070;
    /**
     * Compressed MB of log objects a worker scans per billed second on one vCPU, cold starts and S3 and
     * DynamoDB calls included: the scan-heavy local sweep in docs/BENCHMARKS.md (2026-12-01 20:39 UTC) was
     * billed 1.04 MB per vCPU-second at 885 MB and 1.22 at 1,769 MB; the lower, rounded down.
     */
    static final double SCAN_COMPRESSED_MB_PER_VCPU_SECOND = 1.0;
    /** The vCPUs a scan task is counted on using at most, when estimating from the spec. */
    static final double SCAN_PARALLELISM_FROM_SPEC = 1.0;

    private static final Pattern SWEEP_KEY = Pattern.compile("(x86_64|arm64)-\\d+(#\\d+)?");

    private SweepEstimate() {
    }

    /**
     * What one run of the spec has to do.
     *
     * @param scanBytes the listed (compressed) sizes of the objects its scan sources plan, summed
     */
    public record Workload(long hashTasks, int hashesPerTask, int hashCost, long scanTasks, long scanBytes) {
        public long tasks() {
            return hashTasks + scanTasks;
        }
    }

    /**
     * One kind's measured billed time in a stored run.
     *
     * @param billedMsPerTask the workers' billed milliseconds (INIT included where the report counts it) × the kind's
     *                        share of the task time ÷ its tasks
     * @param parallelism     the vCPUs one of its tasks can use: hashes per task for hash, the largest pool a scan task ran with
     */
    public record KindRate(long tasks, double billedMsPerTask, double parallelism) {
    }

    /** The stored run an estimate comes from: its worker's memory and architecture, and each kind's billed time per task. */
    public record Reference(String runId, String label, long startedAt, String architecture, int memoryMb, Map<String, KindRate> byKind) {
        double vcpuShare() {
            return share(memoryMb);
        }

        String describe() {
            List<String> kinds = new ArrayList<>();
            byKind.forEach((kind, r) -> kinds.add(String.format(Locale.ROOT, "%s %,.0f ms billed per task (parallelism %s)", kind, r.billedMsPerTask(),
                    trim(r.parallelism()))));
            return String.format(Locale.ROOT, "run %s (label '%s', %s, %s at %,d MB): %s", runId, label, Instant.ofEpochMilli(startedAt), architecture,
                    memoryMb, String.join(", ", kinds));
        }
    }

    /** One configuration's estimate: Lambda compute in USD, and how it was reached. */
    public record Estimate(String key, BigDecimal lambdaCompute, double billedSeconds, String basis) {
    }

    /** Lambda's CPU share for a memory size: memory ÷ 1,769 MB, at most 6 vCPUs. */
    static double share(int memoryMb) {
        return Math.min(PoolSize.MAX_LAMBDA_VCPUS, memoryMb / (double) PoolSize.MB_PER_VCPU);
    }

    /** A measured task time moved from the reference's vCPU share to {@code share}, as far as the task can use the vCPUs. */
    private static double scaled(KindRate measured, Reference reference, double share) {
        return measured.billedMsPerTask() * usable(reference.vcpuShare(), measured.parallelism()) / usable(share, measured.parallelism());
    }

    /** The vCPUs a task of this parallelism can use at this share. */
    private static double usable(double share, double parallelism) {
        return Math.min(share, Math.max(1, parallelism));
    }

    /**
     * The newest report (by its run's start) of the spec's label, as a plain run ({@code label}) or as a
     * configuration of an earlier sweep ({@code label x86_64-1769}), whose worker invocations were priced
     * at one memory size; null when none is, or the spec has no label.
     */
    public static Reference reference(List<Report> reports, String label) {
        if (label == null) return null;
        return reports.stream()
                .filter(r -> sameLabel(r.figures().label(), label))
                .map(SweepEstimate::rates)
                .filter(java.util.Objects::nonNull)
                .max(Comparator.comparingLong(Reference::startedAt))
                .orElse(null);
    }

    static boolean sameLabel(String reportLabel, String label) {
        if (reportLabel == null) return false;
        if (reportLabel.equals(label)) return true;
        return reportLabel.startsWith(label + " ") && SWEEP_KEY.matcher(reportLabel.substring(label.length() + 1)).matches();
    }

    /** The report's billed time per task of each kind; null when it has no priced worker invocations at one memory size. */
    static Reference rates(Report report) {
        CostReport cost = report.cost();
        if (cost == null || cost.lambda() == null || cost.byKind() == null || cost.byKind().isEmpty()) return null;
        List<CostReport.LambdaGroup> groups = cost.lambda().groups().stream().filter(g -> g.function().contains("Worker")).toList();
        if (groups.isEmpty()) groups = cost.lambda().groups();
        if (groups.isEmpty() || groups.stream().map(CostReport.LambdaGroup::memoryMb).distinct().count() != 1) return null;
        long billedMs = groups.stream().mapToLong(CostReport.LambdaGroup::billedMs).sum();
        if (billedMs <= 0) return null;
        RunFigures figures = report.figures();
        Map<String, KindRate> byKind = new LinkedHashMap<>();
        cost.byKind().forEach((kind, k) -> {
            if (k.tasks() <= 0 || k.share() == null) return;
            RunFigures.Group group = figures.byKind().get(kind);
            double parallelism = 1;
            if (group != null && kind.equals("hash") && group.totals().hashes() > 0) {
                parallelism = group.totals().hashes() / (double) group.tasks();
            } else if (group != null && group.workers() != null && !group.workers().threadsSeen().isEmpty()) {
                parallelism = group.workers().threadsSeen().stream().mapToLong(Long::longValue).max().orElse(1);
            }
            byKind.put(kind, new KindRate(k.tasks(), billedMs * k.share().doubleValue() / k.tasks(), parallelism));
        });
        if (byKind.isEmpty()) return null;
        return new Reference(figures.runId(), figures.label(), figures.window() == null ? 0 : figures.window().start(), groups.get(0).architecture(), groups.get(0).memoryMb(), byKind);
    }

    /** One configuration's Lambda compute for one run of the workload: from the reference where it measured the kind, else from the spec. */
    public static Estimate estimate(Workload work, Reference reference, String key, String architecture, int memoryMb, PriceTable prices) {
        double share = share(memoryMb);
        double billedMs = 0;
        List<String> parts = new ArrayList<>();
        if (work.hashTasks() > 0) {
            KindRate measured = reference == null ? null : reference.byKind().get("hash");
            double perTask;
            if (measured != null) {
                perTask = scaled(measured, reference, share);
                parts.add(String.format(Locale.ROOT, "%,d hash tasks × %,.0f ms (measured, scaled)", work.hashTasks(), perTask));
            } else {
                perTask = work.hashesPerTask() * SECONDS_PER_HASH_AT_COST_10 * Math.pow(2, work.hashCost() - 10) * 1000 / usable(share, work.hashesPerTask());
                parts.add(String.format(Locale.ROOT, "%,d hash tasks × %,.0f ms (from the spec)", work.hashTasks(), perTask));
            }
            billedMs += work.hashTasks() * perTask;
        }
        if (work.scanTasks() > 0) {
            KindRate measured = reference == null ? null : reference.byKind().get("scan");
            if (measured != null) {
                double perTask = scaled(measured, reference, share);
                billedMs += work.scanTasks() * perTask;
                parts.add(String.format(Locale.ROOT, "%,d scan tasks × %,.0f ms (measured, scaled)", work.scanTasks(), perTask));
            } else {
                double ms = work.scanBytes() / 1e6 / (SCAN_COMPRESSED_MB_PER_VCPU_SECOND * usable(share, SCAN_PARALLELISM_FROM_SPEC)) * 1000;
                billedMs += ms;
                parts.add(String.format(Locale.ROOT, "%,d scan tasks of %,.1f MB compressed in %,.1f s (from the spec)", work.scanTasks(),
                        work.scanBytes() / 1e6, ms / 1000));
            }
        }
        double gbSeconds = billedMs / 1000 * memoryMb / 1024.0;
        BigDecimal dollars = BigDecimal.valueOf(gbSeconds).multiply(prices.gbSecondPrice(architecture)).round(new MathContext(4));
        String basis = String.format(Locale.ROOT, "%.3f vCPU: ", share) + (parts.isEmpty() ? "no tasks" : String.join(" + ", parts))
                + String.format(Locale.ROOT, " = %,.1f billed s × %.3f GB", billedMs / 1000, memoryMb / 1024.0);
        return new Estimate(key, dollars, billedMs / 1000, basis);
    }

    /** The assumptions behind every estimate line, printed before them. */
    public static String assumptions(Reference reference, Workload work) {
        String cpu = "CPU in proportion to memory (1,769 MB = 1 vCPU, at most 6); a task is sped up only up to its kind's parallelism";
        String spec = String.format(Locale.ROOT, "from the spec: bcrypt %.0f ms per hash at cost 10 on one vCPU (×2 per cost step), a task's hashes "
                + "spread over up to that many vCPUs; scan %.1f MB compressed per billed second on one vCPU and no more than %s vCPU per object "
                + "(docs/SWEEP.md); the hash tasks' cold starts not included", SECONDS_PER_HASH_AT_COST_10 * 1000, SCAN_COMPRESSED_MB_PER_VCPU_SECOND, trim(SCAN_PARALLELISM_FROM_SPEC));
        String from = reference == null ? "no stored report of this label, so " + spec
                : "measured in " + reference.describe() + ", its billed time scaled by the vCPU share"
                + (work.hashTasks() > 0 && !reference.byKind().containsKey("hash") || work.scanTasks() > 0 && !reference.byKind().containsKey("scan")
                ? "; kinds it did not run " + spec : "");
        return "Lambda compute only (requests, SQS, DynamoDB and S3 not included); " + cpu + "; " + from;
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : String.format(Locale.ROOT, "%.2f", value);
    }
}
