package batchpipe.aggregator.cost;

import batchpipe.common.run.TaskRecord;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prices a run: Lambda per invocation (billed ms × memory × the architecture's price per GB-second, the
 * start of a cold instance being part of the billed ms, plus the request price), SQS requests, DynamoDB request units and S3
 * requests, from a {@link PriceTable}. Amounts are exact decimals, summed exactly and rounded to 12
 * places only when written, so each line can be multiplied out by hand from the figures beside it.
 * docs/COST.md has every formula with a worked example.
 */
public final class CostModel {
    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);
    private static final BigDecimal BILLION = BigDecimal.valueOf(1_000_000_000);
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1_000);

    private final PriceTable prices;

    public CostModel(PriceTable prices) {
        this.prices = prices;
    }

    /**
     * Lambda's part of a scenario. {@code gbSeconds} and {@code compute} hold all billed time, the start of cold
     * instances included; {@code initGbSeconds} and {@code init} are that start's share of them, shown, never added.
     */
    private record LambdaCost(long invocations, long billedMs, long startMs, BigDecimal gbSeconds, BigDecimal initGbSeconds,
                              BigDecimal compute, BigDecimal init, BigDecimal requests) {
        BigDecimal total() {
            return compute.add(requests);
        }
    }

    public CostReport compute(List<TaskRecord> tasks, List<BilledInvocation> invocations, UsageModel.Usage usage,
                              CostAssumptions assumptions) {
        return compute(TaskTotals.of(tasks, prices.writeUnitBytes()), invocations, usage, assumptions);
    }

    /** From the task records' totals, folded as the records were read (the aggregator holds no records). */
    public CostReport compute(TaskTotals tasks, List<BilledInvocation> invocations, UsageModel.Usage usage,
                              CostAssumptions assumptions) {
        List<CostReport.Line> lines = new ArrayList<>();

        // Lambda, each invocation at the price of the architecture it ran on.
        Map<String, List<BilledInvocation>> groups = new TreeMap<>();
        for (BilledInvocation i : invocations) {
            groups.computeIfAbsent(i.function() + " " + i.architecture() + " " + i.memoryMb() + " MB", k -> new ArrayList<>()).add(i);
        }
        List<CostReport.LambdaGroup> lambdaGroups = new ArrayList<>();
        BigDecimal lambdaTotal = BigDecimal.ZERO;
        BigDecimal gbSecondsTotal = BigDecimal.ZERO;
        BigDecimal initGbSecondsTotal = BigDecimal.ZERO;
        for (Map.Entry<String, List<BilledInvocation>> e : groups.entrySet()) {
            List<BilledInvocation> group = e.getValue();
            BilledInvocation first = group.get(0);
            String priceArchitecture = pricedAs(first.architecture());
            BigDecimal price = prices.gbSecondPrice(priceArchitecture);
            LambdaCost lc = lambdaCost(group, priceArchitecture, null);
            long billedMs = lc.billedMs();
            long initMs = lc.startMs();
            // Peak of the invocations whose REPORT line says it: how much of memoryMb the function really needs.
            Integer peak = group.stream().map(BilledInvocation::maxMemoryUsedMb).filter(java.util.Objects::nonNull).max(Integer::compare)
                    .orElse(null);
            lambdaGroups.add(new CostReport.LambdaGroup(first.function(), first.architecture(),
                    priceArchitecture.equals(first.architecture()) ? null : priceArchitecture + " (architecture not recorded)",
                    first.memoryMb(), group.size(), group.stream().filter(BilledInvocation::coldStart).count(), billedMs, initMs,
                    lc.gbSeconds().stripTrailingZeros(), lc.initGbSeconds().stripTrailingZeros(), price, Numbers.written(lc.compute()),
                    Numbers.written(lc.init()), Numbers.written(lc.requests()), Numbers.written(lc.total()),
                    CostReport.InvocationSources.of(group), peak));
            lines.add(line("Lambda", "compute, " + e.getKey(), lc.gbSeconds(), "GB-s", price, lc.compute(),
                    String.format(Locale.ROOT, "%d billed ms x %d MB / 1,024,000 = %s GB-s x $%s", billedMs, first.memoryMb(),
                            Numbers.plain(lc.gbSeconds()), Numbers.plain(price)) + startNote(group, initMs, lc)));
            lambdaTotal = lambdaTotal.add(lc.total());
            gbSecondsTotal = gbSecondsTotal.add(lc.gbSeconds());
            initGbSecondsTotal = initGbSecondsTotal.add(lc.initGbSeconds());
        }
        BigDecimal requestCost = prices.lambdaPerRequest().multiply(BigDecimal.valueOf(invocations.size()));
        lines.add(line("Lambda", "requests", BigDecimal.valueOf(invocations.size()), "requests", prices.lambdaPerRequest(), requestCost,
                invocations.size() + " invocations x $" + Numbers.plain(prices.lambdaPerMillionRequests()) + " per 1M"));
        CostReport.LambdaCost lambda = new CostReport.LambdaCost(invocations.size(), gbSecondsTotal.stripTrailingZeros(),
                initGbSecondsTotal.stripTrailingZeros(), prices.initBilled(), lambdaGroups, Numbers.written(lambdaTotal));

        // SQS, DynamoDB, S3: the same whichever architecture the functions run on.
        long sqsRequests = UsageModel.Usage.total(usage.sqsRequests());
        BigDecimal sqsCost = prices.sqsPerRequest().multiply(BigDecimal.valueOf(sqsRequests));
        lines.add(line("SQS", "requests", BigDecimal.valueOf(sqsRequests), "requests", prices.sqsPerRequest(), sqsCost,
                sqsRequests + " requests (64 KB chunks) x $" + Numbers.plain(prices.sqsPerMillionRequests()) + " per 1M"));
        CostReport.ServiceRequests sqs = new CostReport.ServiceRequests(usage.sqsRequests(), sqsRequests, Numbers.written(sqsCost));

        long wru = UsageModel.Usage.total(usage.writeUnits());
        long rru = UsageModel.Usage.total(usage.readUnits());
        BigDecimal writeCost = prices.perWriteUnit().multiply(BigDecimal.valueOf(wru));
        BigDecimal readCost = prices.perReadUnit().multiply(BigDecimal.valueOf(rru));
        lines.add(line("DynamoDB", "write request units", BigDecimal.valueOf(wru), "WRU", prices.perWriteUnit(), writeCost,
                wru + " WRU x $" + Numbers.plain(prices.perMillionWriteUnits()) + " per 1M"));
        lines.add(line("DynamoDB", "read request units", BigDecimal.valueOf(rru), "RRU", prices.perReadUnit(), readCost,
                rru + " RRU x $" + Numbers.plain(prices.perMillionReadUnits()) + " per 1M"));
        CostReport.DynamoDbUnits dynamoDb = new CostReport.DynamoDbUnits(usage.writeUnits(), wru, usage.readUnits(), rru,
                Numbers.written(writeCost.add(readCost)));

        long gets = UsageModel.Usage.total(usage.s3GetRequests());
        long lists = UsageModel.Usage.total(usage.s3ListRequests());
        BigDecimal getCost = prices.perGet().multiply(BigDecimal.valueOf(gets));
        BigDecimal listCost = prices.perList().multiply(BigDecimal.valueOf(lists));
        lines.add(line("S3", "GET requests", BigDecimal.valueOf(gets), "requests", prices.perGet(), getCost,
                gets + " GET x $" + Numbers.plain(prices.perThousandGets()) + " per 1,000"));
        lines.add(line("S3", "LIST requests", BigDecimal.valueOf(lists), "requests", prices.perList(), listCost,
                lists + " LIST x $" + Numbers.plain(prices.perThousandLists()) + " per 1,000"));
        CostReport.S3Requests s3 = new CostReport.S3Requests(usage.s3GetRequests(), usage.s3ListRequests(), Numbers.written(getCost.add(listCost)));

        BigDecimal other = sqsCost.add(writeCost).add(readCost).add(getCost).add(listCost);
        // lambdaTotal already holds the request price of every group; the requests line shows it once for all.
        BigDecimal total = lambdaTotal.add(other);
        return new CostReport(prices.currency(), CostReport.Prices.of(prices), CostReport.Assumptions.of(assumptions),
                new CostReport.DurationSources(CostReport.InvocationSources.of(invocations), "billed duration from the invocation's"
                        + " REPORT line where known; otherwise measured from its task records (last finishedAt - first startedAt,"
                        + " at least 1 ms: a lower bound)"),
                lambda, sqs, dynamoDb, s3, usage.inputs(), lines, Numbers.written(total), perMillionTasks(total, tasks),
                byKind(tasks, total), byArchitecture(tasks, invocations, other, assumptions), monthly(tasks, invocations, other, assumptions),
                List.of(
                        "free tiers and Savings Plans (they belong to the account, not to a run)",
                        "retries, redeliveries and conditional-check failures (the records keep only each task's last attempt)",
                        "the event source mapping's empty ReceiveMessage polls while the queue is idle (they depend on time, not on runs)",
                        "the aggregator's write of the summary item, CloudWatch Logs ingestion, data transfer",
                        "when no REPORT lines are given: the producer's and the aggregator's invocations"));
    }

    private static BigDecimal perMillionTasks(BigDecimal total, TaskTotals tasks) {
        return tasks.isEmpty() ? null : Numbers.written(Numbers.divide(total.multiply(MILLION), BigDecimal.valueOf(tasks.tasks())));
    }

    /**
     * The lambda cost of {@code invocations} all priced as {@code architecture}; those that ran elsewhere scaled by
     * {@code ratios}. Billed time includes each cold start's share, except the INIT of an on-demand start under a price
     * table that does not bill INIT (Lambda before 1 August 2025), which is taken out of it.
     */
    private LambdaCost lambdaCost(List<BilledInvocation> invocations, String architecture, Map<String, BigDecimal> ratios) {
        BigDecimal price = prices.gbSecondPrice(architecture);
        BigDecimal gb = BigDecimal.ZERO;
        BigDecimal initGb = BigDecimal.ZERO;
        long billedMs = 0, startMs = 0;
        for (BilledInvocation i : invocations) {
            BigDecimal ratio = ratios == null || i.architecture().equals(architecture) ? BigDecimal.ONE
                    : ratios.getOrDefault(i.architecture(), BigDecimal.ONE);
            long start = billedStartMs(i);
            long billed = i.billedMs() - (i.initBilledMs() - start);
            long scaledBilled = scaled(billed, ratio);
            long scaledStart = Math.min(scaled(start, ratio), scaledBilled);
            billedMs += scaledBilled;
            startMs += scaledStart;
            gb = gb.add(Numbers.gbSeconds(scaledBilled, i.memoryMb()));
            initGb = initGb.add(Numbers.gbSeconds(scaledStart, i.memoryMb()));
        }
        return new LambdaCost(invocations.size(), billedMs, startMs, gb, initGb, gb.multiply(price), initGb.multiply(price),
                prices.lambdaPerRequest().multiply(BigDecimal.valueOf(invocations.size())));
    }

    /** The billed milliseconds of an invocation's cold start under this price table. */
    private long billedStartMs(BilledInvocation i) {
        return i.start() == BilledInvocation.Start.INIT && !prices.initBilled() ? 0 : i.initBilledMs();
    }

    /** What the compute line's billed ms hold of cold starts, so the line says it rather than adding a line for them. */
    private String startNote(List<BilledInvocation> group, long startMs, LambdaCost lc) {
        long inits = group.stream().filter(i -> i.start() == BilledInvocation.Start.INIT).count();
        long restores = group.stream().filter(i -> i.start() == BilledInvocation.Start.SNAPSTART_RESTORE).count();
        long unbilled = group.stream().filter(i -> i.start() == BilledInvocation.Start.INIT_NOT_BILLED).count();
        List<String> parts = new ArrayList<>();
        if (startMs > 0) {
            parts.add(String.format(Locale.ROOT, "of which %d ms (%s GB-s, $%s) started %s", startMs,
                    Numbers.plain(lc.initGbSeconds()), Numbers.plain(Numbers.written(lc.init())),
                    describeStarts(inits, restores)));
        }
        if (inits > 0 && !prices.initBilled()) {
            parts.add(inits + " INIT phase(s) left out of the billed ms: this price table does not bill INIT");
        }
        if (unbilled > 0) {
            parts.add(unbilled + " cold start(s) whose REPORT line did not bill INIT (Lambda's rule before 1 August 2025)");
        }
        return parts.isEmpty() ? "" : "; " + String.join("; ", parts);
    }

    private static String describeStarts(long inits, long restores) {
        List<String> kinds = new ArrayList<>();
        if (inits > 0) kinds.add(inits + " cold instance(s) (INIT)");
        if (restores > 0) kinds.add(restores + " SnapStart restore(s)");
        return String.join(" and ", kinds);
    }

    /** ceil(ms × ratio): a projected duration is billed, like a measured one, in whole milliseconds. */
    static long scaled(long ms, BigDecimal ratio) {
        if (ratio.compareTo(BigDecimal.ONE) == 0) return ms;
        return BigDecimal.valueOf(ms).multiply(ratio).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /**
     * The whole run on each architecture. Invocations that ran on it are measured; the others are
     * projected with a duration ratio: the one given, or one measured in this run if it ran on both,
     * or else 1 (the same duration), and the report says which.
     */
    private CostReport.Scenarios byArchitecture(TaskTotals tasks, List<BilledInvocation> invocations, BigDecimal other,
                                                CostAssumptions assumptions) {
        Ratio ratio = ratio(tasks, assumptions);
        Map<String, CostReport.Scenario> scenarios = new LinkedHashMap<>();
        for (String architecture : PriceTable.ARCHITECTURES) {
            long measured = invocations.stream().filter(i -> i.architecture().equals(architecture)).count();
            long projected = invocations.size() - measured;
            Map<String, BigDecimal> ratios = ratios(architecture, ratio.value());
            LambdaCost lc = lambdaCost(invocations, architecture, ratios);
            BigDecimal total = lc.total().add(other);
            String basis = projected == 0 ? "measured" : measured == 0 ? "projected" : "partly projected";
            BigDecimal durationRatio = null;
            String assumption = null;
            if (projected > 0) {
                BigDecimal r = ratios.values().stream().findFirst().orElse(BigDecimal.ONE);
                durationRatio = Numbers.written(r);
                assumption = projectionAssumption(architecture, ratio, r);
            }
            scenarios.put(architecture, new CostReport.Scenario(basis, measured, projected, durationRatio, assumption,
                    prices.gbSecondPrice(architecture), lc.gbSeconds().stripTrailingZeros(), lc.initGbSeconds().stripTrailingZeros(),
                    Numbers.written(lc.compute()), Numbers.written(lc.init()), Numbers.written(lc.requests()), Numbers.written(other),
                    Numbers.written(total), perMillionTasks(total, tasks)));
        }
        return new CostReport.Scenarios(scenarios,
                ratio.measuredInRun() ? new CostReport.SpeedRatio(Numbers.written(ratio.value()), ratio.source()) : null);
    }

    private record Ratio(BigDecimal value, String source, boolean measuredInRun) {
    }

    /** arm64 duration ÷ x86_64 duration, and where it comes from. */
    static Ratio ratio(TaskTotals tasks, CostAssumptions assumptions) {
        if (assumptions.arm64SpeedRatio() != null) {
            return new Ratio(assumptions.arm64SpeedRatio().arm64OverX86(), assumptions.arm64SpeedRatio().source(), false);
        }
        long armTasks = tasks.armTasks(), armMs = tasks.armMs(), x86Tasks = tasks.x86Tasks(), x86Ms = tasks.x86Ms();
        if (armTasks > 0 && x86Tasks > 0 && armMs > 0 && x86Ms > 0) {
            BigDecimal value = Numbers.divide(Numbers.divide(BigDecimal.valueOf(armMs), BigDecimal.valueOf(armTasks)),
                    Numbers.divide(BigDecimal.valueOf(x86Ms), BigDecimal.valueOf(x86Tasks)));
            return new Ratio(value, String.format(Locale.ROOT, "measured in this run: mean task duration on arm64 (%d ms over %d tasks)"
                    + " / on x86_64 (%d ms over %d tasks)", armMs, armTasks, x86Ms, x86Tasks), true);
        }
        return new Ratio(BigDecimal.ONE, "same duration", false);
    }

    /** Duration multipliers for invocations measured on another architecture than {@code target}. */
    private static Map<String, BigDecimal> ratios(String target, BigDecimal arm64OverX86) {
        Map<String, BigDecimal> ratios = new LinkedHashMap<>();
        if (target.equals("arm64")) ratios.put("x86_64", arm64OverX86);
        else ratios.put("arm64", Numbers.divide(BigDecimal.ONE, arm64OverX86));
        return ratios;
    }

    private static String projectionAssumption(String target, Ratio ratio, BigDecimal applied) {
        String from = target.equals("arm64") ? "x86_64" : "arm64";
        if (ratio.value().compareTo(BigDecimal.ONE) == 0 && ratio.source().equals("same duration")) {
            return "projected: the same billed durations as measured on " + from;
        }
        return "projected: billed durations measured on " + from + " x " + Numbers.plain(Numbers.written(applied))
                + " (arm64/x86_64 duration ratio " + Numbers.plain(Numbers.written(ratio.value())) + ", " + ratio.source() + ")";
    }

    /** Each architecture at {@code runsPerMonth}: GB-seconds through the volume tiers, the rest linear. */
    private CostReport.Monthly monthly(TaskTotals tasks, List<BilledInvocation> invocations, BigDecimal other,
                                       CostAssumptions assumptions) {
        Ratio ratio = ratio(tasks, assumptions);
        BigDecimal runs = BigDecimal.valueOf(assumptions.runsPerMonth());
        Map<String, CostReport.MonthlyScenario> byArchitecture = new LinkedHashMap<>();
        for (String architecture : PriceTable.ARCHITECTURES) {
            LambdaCost lc = lambdaCost(invocations, architecture, ratios(architecture, ratio.value()));
            BigDecimal gbSeconds = lc.gbSeconds().multiply(runs);
            List<VolumeTiers.TierUse> tiers = VolumeTiers.split(gbSeconds, prices.lambdaTiers(architecture));
            BigDecimal compute = tiers.stream().map(VolumeTiers.TierUse::cost).reduce(BigDecimal.ZERO, BigDecimal::add);
            BigDecimal requests = lc.requests().multiply(runs);
            BigDecimal otherMonthly = other.multiply(runs);
            byArchitecture.put(architecture, new CostReport.MonthlyScenario(gbSeconds.stripTrailingZeros(),
                    tiers.stream().map(VolumeTiers.TierUse::written).toList(), Numbers.written(compute),
                    Numbers.written(requests), Numbers.written(otherMonthly), Numbers.written(compute.add(requests).add(otherMonthly))));
        }
        return new CostReport.Monthly(assumptions.runsPerMonth(), byArchitecture);
    }

    /**
     * The run's total split between kinds in proportion to task time (the sum of durationMs), the
     * measure the compute (by far the largest part) follows; per GB scanned and per thousand hashes
     * divide each kind's share by its own output.
     */
    private static Map<String, CostReport.KindCost> byKind(TaskTotals tasks, BigDecimal total) {
        Map<String, Long> taskMs = new TreeMap<>();
        Map<String, Long> counts = new TreeMap<>();
        long bytes = tasks.scannedBytes(), hashes = tasks.hashes(), allMs = 0;
        for (Map.Entry<String, long[]> kind : tasks.byKind().entrySet()) {
            counts.put(kind.getKey(), kind.getValue()[0]);
            taskMs.put(kind.getKey(), kind.getValue()[1]);
            allMs += kind.getValue()[1];
        }
        Map<String, CostReport.KindCost> byKind = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : taskMs.entrySet()) {
            BigDecimal share = allMs == 0
                    ? Numbers.divide(BigDecimal.valueOf(counts.get(e.getKey())), BigDecimal.valueOf(tasks.tasks()))
                    : Numbers.divide(BigDecimal.valueOf(e.getValue()), BigDecimal.valueOf(allMs));
            BigDecimal kindCost = total.multiply(share);
            BigDecimal gbScanned = null, perGbScanned = null, perThousandHashes = null;
            Long kindHashes = null;
            if (e.getKey().equals("scan") && bytes > 0) {
                BigDecimal gb = Numbers.divide(BigDecimal.valueOf(bytes), BILLION);
                gbScanned = gb.stripTrailingZeros();
                perGbScanned = Numbers.written(Numbers.divide(kindCost, gb));
            }
            if (e.getKey().equals("hash") && hashes > 0) {
                kindHashes = hashes;
                perThousandHashes = Numbers.written(Numbers.divide(kindCost.multiply(THOUSAND), BigDecimal.valueOf(hashes)));
            }
            byKind.put(e.getKey(), new CostReport.KindCost(counts.get(e.getKey()), e.getValue(), Numbers.written(share),
                    Numbers.written(kindCost), gbScanned, perGbScanned, kindHashes, perThousandHashes));
        }
        return byKind;
    }

    private String pricedAs(String architecture) {
        return PriceTable.ARCHITECTURES.contains(architecture) ? architecture : "x86_64";
    }

    private static CostReport.Line line(String service, String item, BigDecimal quantity, String unit, BigDecimal unitPrice,
                                        BigDecimal amount, String formula) {
        return new CostReport.Line(service, item, quantity.stripTrailingZeros(), unit, unitPrice.stripTrailingZeros(),
                Numbers.written(amount), formula);
    }
}
