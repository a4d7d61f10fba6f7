package batchpipe.common.run;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Typed reads of one stored item's attributes, with an error that names the item and the attribute
 * when one has the wrong type, so a damaged or foreign item is reported rather than read as zero.
 */
final class ItemReader {
    private final Map<String, AttributeValue> item;
    private final String what;

    ItemReader(Map<String, AttributeValue> item, String what) {
        this.item = item;
        this.what = what;
    }

    boolean has(String name) {
        AttributeValue v = item.get(name);
        return v != null && !Boolean.TRUE.equals(v.nul());
    }

    String string(String name) {
        if (!has(name)) return null;
        AttributeValue v = item.get(name);
        if (v.s() == null) throw wrongType(name, "a string");
        return v.s();
    }

    String requiredString(String name) {
        String s = string(name);
        if (s == null) throw new IllegalArgumentException(what + " has no '" + name + "' attribute");
        return s;
    }

    BigDecimal decimal(String name) {
        if (!has(name)) return null;
        AttributeValue v = item.get(name);
        if (v.n() == null) throw wrongType(name, "a number");
        return new BigDecimal(v.n());
    }

    Long longOrNull(String name) {
        BigDecimal d = decimal(name);
        return d == null ? null : d.longValue();
    }

    long longOr(String name, long otherwise) {
        Long l = longOrNull(name);
        return l == null ? otherwise : l;
    }

    Integer intOrNull(String name) {
        Long l = longOrNull(name);
        return l == null ? null : Math.toIntExact(l);
    }

    Double doubleOrNull(String name) {
        BigDecimal d = decimal(name);
        return d == null ? null : d.doubleValue();
    }

    Boolean bool(String name) {
        if (!has(name)) return null;
        AttributeValue v = item.get(name);
        if (v.bool() == null) throw wrongType(name, "a boolean");
        return v.bool();
    }

    List<Long> longs(String name) {
        if (!has(name)) return null;
        AttributeValue v = item.get(name);
        List<Long> values = new ArrayList<>();
        if (v.hasL()) {
            for (AttributeValue e : v.l()) values.add(new BigDecimal(e.n()).longValue());
        } else if (v.hasNs()) {
            for (String n : v.ns()) values.add(new BigDecimal(n).longValue());
        } else {
            throw wrongType(name, "a list of numbers");
        }
        return values;
    }

    List<String> strings(String name) {
        if (!has(name)) return null;
        AttributeValue v = item.get(name);
        if (v.hasSs()) return List.copyOf(v.ss());
        if (v.hasL()) return v.l().stream().map(AttributeValue::s).toList();
        throw wrongType(name, "a set of strings");
    }

    /** A map of numbers, in key order (as the stored map, which DynamoDB does not order). */
    Map<String, Long> counts(String name) {
        if (!has(name)) return null;
        AttributeValue v = item.get(name);
        if (!v.hasM()) throw wrongType(name, "a map");
        Map<String, Long> counts = new TreeMap<>();
        v.m().forEach((k, n) -> {
            if (n.n() == null) throw wrongType(name + "." + k, "a number");
            counts.put(k, new BigDecimal(n.n()).longValue());
        });
        return counts;
    }

    /** A map of maps of numbers (countBy: path, value, count), in key order. */
    Map<String, Map<String, Long>> nestedCounts(String name) {
        if (!has(name)) return null;
        AttributeValue v = item.get(name);
        if (!v.hasM()) throw wrongType(name, "a map");
        Map<String, Map<String, Long>> nested = new TreeMap<>();
        v.m().forEach((path, values) -> nested.put(path, new ItemReader(Map.of(path, values), what + " " + name).counts(path)));
        return nested;
    }

    Map<String, AttributeValue> map(String name) {
        if (!has(name)) return null;
        AttributeValue v = item.get(name);
        if (!v.hasM()) throw wrongType(name, "a map");
        return v.m();
    }

    private IllegalArgumentException wrongType(String name, String expected) {
        return new IllegalArgumentException(what + ": attribute '" + name + "' is not " + expected + " (" + item.get(name) + ")");
    }
}
