package batchpipe.aggregator;

import batchpipe.aggregator.cost.BilledInvocation;
import batchpipe.aggregator.cost.CostReport;
import batchpipe.aggregator.report.ReportJson;
import batchpipe.aggregator.stats.RunFigures;
import batchpipe.common.json.JsonFields;
import batchpipe.common.json.JsonWritable;

import java.util.List;

/**
 * A run's report as report.json holds it: the figures of its task records, its cost, and the inputs the
 * cost came from. Computed once ({@link RunReport#of}); report.json is its JSON ({@link #toJsonValue()})
 * and the other files render these records, so every file shows the same figure.
 *
 * @param cost   null only in a report.json that has none
 * @param inputs null in the summary ({@link #withoutInputs()}), which leaves the per-invocation facts out
 */
public record Report(RunFigures figures, CostReport cost, Inputs inputs) implements JsonWritable {

    /**
     * What the report was computed from besides the records.
     *
     * @param reportLines where the REPORT lines came from
     * @param invocations every invocation the cost priced
     */
    public record Inputs(String reportLines, List<BilledInvocation> invocations) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("reportLines", reportLines).put("invocations", invocations);
        }

        static Inputs fromJson(ReportJson json) {
            return new Inputs(json.string("reportLines"), json.list("invocations").stream().map(BilledInvocation::fromJson).toList());
        }
    }

    public String runId() {
        return figures.runId();
    }

    public Report withoutInputs() {
        return new Report(figures, cost, null);
    }

    @Override
    public Object toJsonValue() {
        return figures.toJson().putPresent("cost", cost).putPresent("inputs", inputs);
    }

    /**
     * A stored report.json.
     *
     * @param file what it was read from, named in the error when it is not a report.json Batchpipe wrote
     * @throws IllegalArgumentException naming the file and the field that is missing or of the wrong type
     */
    public static Report fromJson(String text, String file) {
        ReportJson json = ReportJson.parse(text, file);
        ReportJson cost = json.optField("cost");
        ReportJson inputs = json.optField("inputs");
        return new Report(RunFigures.fromJson(json), cost == null ? null : CostReport.fromJson(cost),
                inputs == null ? null : Inputs.fromJson(inputs));
    }
}
