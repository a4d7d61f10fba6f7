package batchpipe.aggregator.cost;

import java.util.LinkedHashMap;
import java.util.Map;

/** A counted quantity (requests, request units) with the formula and figures it was counted from. */
public record Quantity(String item, long count, String formula) {
    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("item", item);
        json.put("count", count);
        json.put("formula", formula);
        return json;
    }
}
