package batchpipe.common.run;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

/**
 * How one countBy path of a scan was counted, once some path of the task outgrew exact counting.
 *
 * @param countsExact   false: the counts may over-state, by up to {@code maxOverCount}
 * @param maxOverCount  the largest over-count among the values kept (0 when exact)
 * @param distinctExact false: the path's {@code countByDistinct} is an estimate
 */
public record CountAccuracy(boolean countsExact, long maxOverCount, boolean distinctExact) {
    public static final CountAccuracy EXACT = new CountAccuracy(true, 0, true);

    public boolean exact() {
        return countsExact && distinctExact;
    }

    /** {@code {"counts":"approximate","maxOverCount":12,"distinct":"estimated"}}: no maxOverCount when exact. */
    AttributeValue stored() {
        Map<String, AttributeValue> fields = new java.util.LinkedHashMap<>();
        fields.put("counts", AttributeValue.fromS(countsExact ? "exact" : "approximate"));
        if (!countsExact) fields.put("maxOverCount", AttributeValue.fromN(Long.toString(maxOverCount)));
        fields.put("distinct", AttributeValue.fromS(distinctExact ? "exact" : "estimated"));
        return AttributeValue.fromM(fields);
    }

    static CountAccuracy read(Map<String, AttributeValue> fields, String what) {
        ItemReader f = new ItemReader(fields, what);
        return new CountAccuracy(!"approximate".equals(f.string("counts")), f.longOr("maxOverCount", 0),
                !"estimated".equals(f.string("distinct")));
    }
}
