package batchpipe.aggregator.cost;

import batchpipe.aggregator.report.ReportJson;
import batchpipe.common.json.JsonFields;
import batchpipe.common.json.JsonWritable;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run cost ({@link CostModel#compute}), as report.json's {@code cost} holds it. Amounts are as
 * written ({@link Numbers#written}): rounded once, when computed, so every renderer shows the same figure.
 *
 * @param priceTable      the price table it was priced with
 * @param perMillionTasks null for a run without tasks
 */
public record CostReport(String currency, Prices priceTable, Assumptions assumptions, DurationSources durations,
                         LambdaCost lambda, ServiceRequests sqs, DynamoDbUnits dynamoDb, S3Requests s3, UsageModel.Inputs usageInputs,
                         List<Line> lines, BigDecimal total, BigDecimal perMillionTasks, Map<String, KindCost> byKind,
                         Scenarios byArchitecture, Monthly monthly, List<String> notIncluded) implements JsonWritable {

    @Override
    public Object toJsonValue() {
        return new JsonFields().put("currency", currency).put("priceTable", priceTable).put("assumptions", assumptions)
                .put("durations", durations).put("lambda", lambda).put("sqs", sqs).put("dynamoDb", dynamoDb).put("s3", s3)
                .put("usageInputs", usageInputs).put("lines", lines).put("total", total).put("perMillionTasks", perMillionTasks)
                .put("byKind", byKind).put("byArchitecture", byArchitecture).put("monthly", monthly).put("notIncluded", notIncluded);
    }

    public static CostReport fromJson(ReportJson json) {
        Map<String, KindCost> byKind = new LinkedHashMap<>();
        ReportJson kinds = json.field("byKind");
        for (String kind : kinds.entries().keySet()) byKind.put(kind, KindCost.fromJson(kinds.field(kind)));
        return new CostReport(json.string("currency"), Prices.fromJson(json), Assumptions.fromJson(json.field("assumptions")),
                DurationSources.fromJson(json.field("durations")), LambdaCost.fromJson(json.field("lambda")),
                ServiceRequests.fromJson(json.field("sqs")), DynamoDbUnits.fromJson(json.field("dynamoDb")),
                S3Requests.fromJson(json.field("s3")), UsageModel.Inputs.fromJson(json.field("usageInputs")),
                json.list("lines").stream().map(Line::fromJson).toList(), json.decimal("total"), json.optDecimal("perMillionTasks"),
                byKind, Scenarios.fromJson(json.field("byArchitecture")), Monthly.fromJson(json.field("monthly")),
                json.strings("notIncluded"));
    }

    /**
     * The price table a run was priced with: where it comes from, the region and date the report names,
     * and the table as written (the user's file merged over the default), which report.json shows whole.
     */
    public record Prices(String origin, String region, String date,
                         // JSON of the user's shape (their price file over the default): shown whole, never read by field here
                         Map<String, Object> asWritten) implements JsonWritable {
        static Prices of(PriceTable prices) {
            return new Prices(prices.origin(), prices.region(), prices.date(), prices.describe());
        }

        @Override
        public Object toJsonValue() {
            return asWritten;
        }

        static Prices fromJson(ReportJson cost) {
            ReportJson table = cost.field("priceTable");
            return new Prices(table.optString("origin"), table.optString("region"), table.optString("date"), cost.asWritten("priceTable"));
        }
    }

    /** The assumptions as the report states them. */
    public record Assumptions(int runsPerMonth, int messageBytes, SpeedRatio arm64SpeedRatio) implements JsonWritable {
        static Assumptions of(CostAssumptions assumptions) {
            CostAssumptions.SpeedRatio ratio = assumptions.arm64SpeedRatio();
            return new Assumptions(assumptions.runsPerMonth(), assumptions.messageBytes(),
                    ratio == null ? null : new SpeedRatio(ratio.arm64OverX86(), ratio.source()));
        }

        @Override
        public Object toJsonValue() {
            return new JsonFields().put("runsPerMonth", runsPerMonth).put("messageBytes", messageBytes)
                    .putPresent("arm64SpeedRatio", arm64SpeedRatio);
        }

        static Assumptions fromJson(ReportJson json) {
            ReportJson ratio = json.optField("arm64SpeedRatio");
            return new Assumptions(json.intValue("runsPerMonth"), json.intValue("messageBytes"), ratio == null ? null : SpeedRatio.fromJson(ratio));
        }
    }

    /** arm64 task duration ÷ x86_64, and where it comes from. */
    public record SpeedRatio(BigDecimal arm64OverX86, String source) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("arm64OverX86", arm64OverX86).put("source", source);
        }

        static SpeedRatio fromJson(ReportJson json) {
            return new SpeedRatio(json.decimal("arm64OverX86"), json.string("source"));
        }
    }

    /** How many invocations were billed from REPORT lines and how many measured from task records. */
    public record InvocationSources(long fromReportLines, long fromTaskRecords) implements JsonWritable {
        static InvocationSources of(List<BilledInvocation> invocations) {
            return new InvocationSources(invocations.stream().filter(i -> i.source().equals(BilledInvocation.FROM_REPORT_LINE)).count(),
                    invocations.stream().filter(i -> i.source().equals(BilledInvocation.FROM_TASK_RECORDS)).count());
        }

        JsonFields fields() {
            return new JsonFields().put(BilledInvocation.FROM_REPORT_LINE, fromReportLines).put(BilledInvocation.FROM_TASK_RECORDS, fromTaskRecords);
        }

        @Override
        public Object toJsonValue() {
            return fields();
        }

        static InvocationSources fromJson(ReportJson json) {
            return new InvocationSources(json.longValue(BilledInvocation.FROM_REPORT_LINE), json.longValue(BilledInvocation.FROM_TASK_RECORDS));
        }
    }

    /** The run's invocation sources with the rule that chose them. */
    public record DurationSources(InvocationSources invocations, String rule) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return invocations.fields().put("rule", rule);
        }

        static DurationSources fromJson(ReportJson json) {
            return new DurationSources(InvocationSources.fromJson(json), json.string("rule"));
        }
    }

    /**
     * Lambda's part of the run.
     *
     * @param initGbSeconds with the groups' {@code initBilledMs}, {@code initGbSeconds} and {@code initCost}: the share of
     *                      the billed time that started cold instances. With {@code initInCompute} (every report since
     *                      INIT is read as part of Billed Duration) it is part of {@code gbSeconds} and of the compute
     *                      cost; reports written before have it false, and their INIT was priced on top
     */
    public record LambdaCost(int invocations, BigDecimal gbSeconds, BigDecimal initGbSeconds, boolean initBilled,
                             List<LambdaGroup> groups, BigDecimal cost, boolean initInCompute) implements JsonWritable {
        public LambdaCost(int invocations, BigDecimal gbSeconds, BigDecimal initGbSeconds, boolean initBilled,
                          List<LambdaGroup> groups, BigDecimal cost) {
            this(invocations, gbSeconds, initGbSeconds, initBilled, groups, cost, true);
        }

        @Override
        public Object toJsonValue() {
            return new JsonFields().put("invocations", invocations).put("gbSeconds", gbSeconds).put("initGbSeconds", initGbSeconds)
                    .put("initBilled", initBilled).put("initInCompute", initInCompute).put("groups", groups).put("cost", cost);
        }

        static LambdaCost fromJson(ReportJson json) {
            return new LambdaCost(json.intValue("invocations"), json.decimal("gbSeconds"), json.decimal("initGbSeconds"),
                    json.bool("initBilled"), json.list("groups").stream().map(LambdaGroup::fromJson).toList(), json.decimal("cost"),
                    json.has("initInCompute") && json.bool("initInCompute"));
        }
    }

    /**
     * The invocations of one function, architecture and memory size.
     *
     * @param pricedAs        set when the architecture was not recorded and another's price was used
     * @param maxMemoryUsedMb the peak of the REPORT lines that say it; null when none does
     */
    public record LambdaGroup(String function, String architecture, String pricedAs, int memoryMb, int invocations, long coldStarts,
                              long billedMs, long initBilledMs, BigDecimal gbSeconds, BigDecimal initGbSeconds,
                              BigDecimal pricePerGbSecond, BigDecimal computeCost, BigDecimal initCost, BigDecimal requestCost,
                              BigDecimal cost, InvocationSources durationSources, Integer maxMemoryUsedMb) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("function", function).put("architecture", architecture).putPresent("pricedAs", pricedAs)
                    .put("memoryMb", memoryMb).put("invocations", invocations).put("coldStarts", coldStarts).put("billedMs", billedMs)
                    .put("initBilledMs", initBilledMs).put("gbSeconds", gbSeconds).put("initGbSeconds", initGbSeconds)
                    .put("pricePerGbSecond", pricePerGbSecond).put("computeCost", computeCost).put("initCost", initCost)
                    .put("requestCost", requestCost).put("cost", cost).put("durationSources", durationSources)
                    .putPresent("maxMemoryUsedMb", maxMemoryUsedMb);
        }

        static LambdaGroup fromJson(ReportJson json) {
            return new LambdaGroup(json.string("function"), json.string("architecture"), json.optString("pricedAs"), json.intValue("memoryMb"),
                    json.intValue("invocations"), json.longValue("coldStarts"), json.longValue("billedMs"), json.longValue("initBilledMs"),
                    json.decimal("gbSeconds"), json.decimal("initGbSeconds"), json.decimal("pricePerGbSecond"), json.decimal("computeCost"),
                    json.decimal("initCost"), json.decimal("requestCost"), json.decimal("cost"),
                    InvocationSources.fromJson(json.field("durationSources")), json.optInt("maxMemoryUsedMb"));
        }
    }

    /** SQS: the requests counted, their total and cost. */
    public record ServiceRequests(List<Quantity> requests, long total, BigDecimal cost) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("requests", requests).put("total", total).put("cost", cost);
        }

        static ServiceRequests fromJson(ReportJson json) {
            return new ServiceRequests(json.list("requests").stream().map(Quantity::fromJson).toList(), json.longValue("total"),
                    json.decimal("cost"));
        }
    }

    public record DynamoDbUnits(List<Quantity> writeUnits, long totalWriteUnits, List<Quantity> readUnits, long totalReadUnits,
                                BigDecimal cost) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("writeUnits", writeUnits).put("totalWriteUnits", totalWriteUnits).put("readUnits", readUnits)
                    .put("totalReadUnits", totalReadUnits).put("cost", cost);
        }

        static DynamoDbUnits fromJson(ReportJson json) {
            return new DynamoDbUnits(json.list("writeUnits").stream().map(Quantity::fromJson).toList(), json.longValue("totalWriteUnits"),
                    json.list("readUnits").stream().map(Quantity::fromJson).toList(), json.longValue("totalReadUnits"), json.decimal("cost"));
        }
    }

    public record S3Requests(List<Quantity> getRequests, List<Quantity> listRequests, BigDecimal cost) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("getRequests", getRequests).put("listRequests", listRequests).put("cost", cost);
        }

        static S3Requests fromJson(ReportJson json) {
            return new S3Requests(json.list("getRequests").stream().map(Quantity::fromJson).toList(),
                    json.list("listRequests").stream().map(Quantity::fromJson).toList(), json.decimal("cost"));
        }
    }

    /** One line of the bill: quantity × unit price = cost, and how the quantity was counted. */
    public record Line(String service, String item, BigDecimal quantity, String unit, BigDecimal unitPrice, BigDecimal cost,
                       String formula) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("service", service).put("item", item).put("quantity", quantity).put("unit", unit)
                    .put("unitPrice", unitPrice).put("cost", cost).put("formula", formula);
        }

        static Line fromJson(ReportJson json) {
            return new Line(json.string("service"), json.string("item"), json.decimal("quantity"), json.string("unit"),
                    json.decimal("unitPrice"), json.decimal("cost"), json.string("formula"));
        }
    }

    /**
     * One kind's share of the run's cost, in proportion to its task time.
     *
     * @param gbScanned          scan only, when it read bytes (with {@code perGbScanned})
     * @param hashes             hash only, when it hashed (with {@code perThousandHashes})
     */
    public record KindCost(long tasks, long taskMs, BigDecimal share, BigDecimal cost, BigDecimal gbScanned, BigDecimal perGbScanned,
                           Long hashes, BigDecimal perThousandHashes) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("tasks", tasks).put("taskMs", taskMs).put("share", share).put("cost", cost)
                    .putPresent("gbScanned", gbScanned).putPresent("perGbScanned", perGbScanned)
                    .putPresent("hashes", hashes).putPresent("perThousandHashes", perThousandHashes);
        }

        static KindCost fromJson(ReportJson json) {
            return new KindCost(json.longValue("tasks"), json.longValue("taskMs"), json.decimal("share"), json.decimal("cost"),
                    json.optDecimal("gbScanned"), json.optDecimal("perGbScanned"), json.optLong("hashes"), json.optDecimal("perThousandHashes"));
        }
    }

    /**
     * The whole run on each architecture, and the duration ratio measured in the run when it ran on both.
     *
     * @param byArchitecture   in {@link PriceTable#ARCHITECTURES} order
     * @param measuredSpeedRatio null unless the run itself measured it
     */
    public record Scenarios(Map<String, Scenario> byArchitecture, SpeedRatio measuredSpeedRatio) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            JsonFields json = new JsonFields();
            byArchitecture.forEach(json::put);
            return json.putPresent("measuredSpeedRatio", measuredSpeedRatio);
        }

        static Scenarios fromJson(ReportJson json) {
            Map<String, Scenario> byArchitecture = new LinkedHashMap<>();
            SpeedRatio measured = null;
            for (String name : json.entries().keySet()) {
                if (name.equals("measuredSpeedRatio")) measured = SpeedRatio.fromJson(json.field(name));
                else byArchitecture.put(name, Scenario.fromJson(json.field(name)));
            }
            return new Scenarios(byArchitecture, measured);
        }
    }

    /**
     * The run on one architecture, measured or projected.
     *
     * @param durationRatio   with {@code assumption}: set when some invocations are projected
     * @param perMillionTasks null for a run without tasks
     */
    public record Scenario(String basis, long measuredInvocations, long projectedInvocations, BigDecimal durationRatio,
                           String assumption, BigDecimal pricePerGbSecond, BigDecimal gbSeconds, BigDecimal initGbSeconds,
                           BigDecimal lambdaCompute, BigDecimal lambdaInit, BigDecimal lambdaRequests, BigDecimal otherServices,
                           BigDecimal total, BigDecimal perMillionTasks) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("basis", basis).put("measuredInvocations", measuredInvocations)
                    .put("projectedInvocations", projectedInvocations).putPresent("durationRatio", durationRatio)
                    .putPresent("assumption", assumption).put("pricePerGbSecond", pricePerGbSecond).put("gbSeconds", gbSeconds)
                    .put("initGbSeconds", initGbSeconds).put("lambdaCompute", lambdaCompute).put("lambdaInit", lambdaInit)
                    .put("lambdaRequests", lambdaRequests).put("otherServices", otherServices).put("total", total)
                    .put("perMillionTasks", perMillionTasks);
        }

        static Scenario fromJson(ReportJson json) {
            return new Scenario(json.string("basis"), json.longValue("measuredInvocations"), json.longValue("projectedInvocations"),
                    json.optDecimal("durationRatio"), json.optString("assumption"), json.decimal("pricePerGbSecond"),
                    json.decimal("gbSeconds"), json.decimal("initGbSeconds"), json.decimal("lambdaCompute"), json.decimal("lambdaInit"),
                    json.decimal("lambdaRequests"), json.decimal("otherServices"), json.decimal("total"), json.optDecimal("perMillionTasks"));
        }
    }

    /** Each architecture at {@code runsPerMonth}. */
    public record Monthly(int runsPerMonth, Map<String, MonthlyScenario> byArchitecture) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("runsPerMonth", runsPerMonth).put("byArchitecture", byArchitecture);
        }

        static Monthly fromJson(ReportJson json) {
            Map<String, MonthlyScenario> byArchitecture = new LinkedHashMap<>();
            ReportJson architectures = json.field("byArchitecture");
            for (String name : architectures.entries().keySet()) byArchitecture.put(name, MonthlyScenario.fromJson(architectures.field(name)));
            return new Monthly(json.intValue("runsPerMonth"), byArchitecture);
        }
    }

    /** A month of runs on one architecture: GB-seconds through the volume tiers, the rest linear. */
    public record MonthlyScenario(BigDecimal gbSeconds, List<VolumeTiers.TierUse> tiers, BigDecimal lambdaCompute,
                                  BigDecimal lambdaRequests, BigDecimal otherServices, BigDecimal total) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("gbSeconds", gbSeconds).put("tiers", tiers).put("lambdaCompute", lambdaCompute)
                    .put("lambdaRequests", lambdaRequests).put("otherServices", otherServices).put("total", total);
        }

        static MonthlyScenario fromJson(ReportJson json) {
            return new MonthlyScenario(json.decimal("gbSeconds"), json.list("tiers").stream().map(VolumeTiers.TierUse::fromJson).toList(),
                    json.decimal("lambdaCompute"), json.decimal("lambdaRequests"), json.decimal("otherServices"), json.decimal("total"));
        }
    }
}
