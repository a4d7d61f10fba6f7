package batchpipe.aggregator.cost;

import batchpipe.aggregator.report.ReportJson;
import batchpipe.common.json.JsonFields;
import batchpipe.common.json.JsonWritable;

/** A counted quantity (requests, request units) with the formula and figures it was counted from. */
public record Quantity(String item, long count, String formula) implements JsonWritable {
    @Override
    public Object toJsonValue() {
        return new JsonFields().put("item", item).put("count", count).put("formula", formula);
    }

    static Quantity fromJson(ReportJson json) {
        return new Quantity(json.string("item"), json.longValue("count"), json.string("formula"));
    }
}
