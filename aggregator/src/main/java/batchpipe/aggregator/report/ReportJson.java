package batchpipe.aggregator.report;

import batchpipe.common.json.Json;
import batchpipe.common.json.JsonException;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stored report.json read back into the typed report: the one place that looks fields up by name,
 * because this is where JSON of unknown origin comes in (a file a user names, an object in a bucket).
 * A field that is missing or of the wrong type is an error that names the file and the field's path,
 * so a report.json Batchpipe did not write is refused rather than read as zeros.
 */
public final class ReportJson {
    private final Object value;
    private final String file;
    private final String path;

    private ReportJson(Object value, String file, String path) {
        this.value = value;
        this.file = file;
        this.path = path;
    }

    /** @param file what the text was read from, named in every error */
    public static ReportJson parse(String text, String file) {
        try {
            ReportJson root = new ReportJson(Json.parse(text), file, "");
            root.object();
            return root;
        } catch (JsonException e) {
            throw new IllegalArgumentException(file + " is not a report.json Batchpipe wrote: " + e.getMessage(), e);
        }
    }

    public boolean has(String name) {
        return object().get(name) != null;
    }

    /** The object under {@code name}; it must be there. */
    public ReportJson field(String name) {
        ReportJson child = child(name);
        child.object();
        return child;
    }

    /** The object under {@code name}, or null when the field is absent or null. */
    public ReportJson optField(String name) {
        return has(name) ? field(name) : null;
    }

    public String string(String name) {
        String s = optString(name);
        if (s == null) throw problem(name, "a string");
        return s;
    }

    public String optString(String name) {
        Object v = object().get(name);
        if (v == null) return null;
        if (!(v instanceof String s)) throw problem(name, "a string");
        return s;
    }

    public long longValue(String name) {
        Long l = optLong(name);
        if (l == null) throw problem(name, "a whole number");
        return l;
    }

    public Long optLong(String name) {
        Object v = object().get(name);
        if (v == null) return null;
        if (v instanceof Long l) return l;
        if (v instanceof BigDecimal d) {
            try {
                return d.longValueExact();
            } catch (ArithmeticException notWhole) {
                throw problem(name, "a whole number");
            }
        }
        throw problem(name, "a whole number");
    }

    public int intValue(String name) {
        long l = longValue(name);
        if (l != (int) l) throw problem(name, "a whole number of at most 10 digits");
        return (int) l;
    }

    public Integer optInt(String name) {
        return has(name) ? intValue(name) : null;
    }

    public double doubleValue(String name) {
        return decimal(name).doubleValue();
    }

    public BigDecimal decimal(String name) {
        BigDecimal d = optDecimal(name);
        if (d == null) throw problem(name, "a number");
        return d;
    }

    public BigDecimal optDecimal(String name) {
        Object v = object().get(name);
        if (v == null) return null;
        if (v instanceof Long l) return BigDecimal.valueOf(l);
        if (v instanceof BigDecimal d) return d;
        throw problem(name, "a number");
    }

    public boolean bool(String name) {
        if (!(object().get(name) instanceof Boolean b)) throw problem(name, "true or false");
        return b;
    }

    /** The objects of the array under {@code name}; absent is an empty list. */
    public List<ReportJson> list(String name) {
        List<ReportJson> items = new ArrayList<>();
        List<?> raw = array(name);
        for (int i = 0; i < raw.size(); i++) {
            ReportJson item = new ReportJson(raw.get(i), file, pathOf(name) + "[" + i + "]");
            item.object();
            items.add(item);
        }
        return items;
    }

    public List<Long> longs(String name) {
        List<Long> values = new ArrayList<>();
        for (ReportJson item : scalars(name)) values.add(item.asDecimal("a list of whole numbers").longValue());
        return values;
    }

    public List<Double> doubles(String name) {
        List<Double> values = new ArrayList<>();
        for (ReportJson item : scalars(name)) values.add(item.asDecimal("a list of numbers").doubleValue());
        return values;
    }

    public List<String> strings(String name) {
        List<String> values = new ArrayList<>();
        for (ReportJson item : scalars(name)) {
            if (!(item.value instanceof String s)) throw item.problemHere("a string");
            values.add(s);
        }
        return values;
    }

    /** The fields of this object, in the file's order. */
    public Map<String, ReportJson> entries() {
        Map<String, ReportJson> entries = new LinkedHashMap<>();
        object().forEach((k, v) -> entries.put(k, new ReportJson(v, file, pathOf(k))));
        return entries;
    }

    /** The fields of the object under {@code name} as whole numbers (byStatus, countBy values), in the file's order. */
    public Map<String, Long> longMap(String name) {
        Map<String, Long> values = new LinkedHashMap<>();
        ReportJson map = field(name);
        for (String key : map.object().keySet()) values.put(key, map.longValue(key));
        return values;
    }

    /**
     * The object under {@code name} as parsed, for a part of the report whose shape is a user's file
     * (the price table it was priced with), shown as it is and never read field by field.
     */
    @SuppressWarnings("unchecked") // JSON edge: field() checked that it is an object, which Json parses as Map<String, Object>
    public Map<String, Object> asWritten(String name) {
        return (Map<String, Object>) field(name).value;
    }

    public String path() {
        return path.isEmpty() ? "the top level" : "'" + path + "'";
    }

    @SuppressWarnings("unchecked") // JSON edge: the report.json read here; Json parses every object as Map<String, Object>
    private Map<String, Object> object() {
        if (!(value instanceof Map<?, ?> map)) throw problemHere("an object");
        return (Map<String, Object>) map;
    }

    private ReportJson child(String name) {
        return new ReportJson(object().get(name), file, pathOf(name));
    }

    private List<?> array(String name) {
        Object v = object().get(name);
        if (v == null) return List.of();
        if (!(v instanceof List<?> list)) throw problem(name, "an array");
        return list;
    }

    private List<ReportJson> scalars(String name) {
        List<ReportJson> items = new ArrayList<>();
        List<?> raw = array(name);
        for (int i = 0; i < raw.size(); i++) items.add(new ReportJson(raw.get(i), file, pathOf(name) + "[" + i + "]"));
        return items;
    }

    private BigDecimal asDecimal(String expected) {
        if (value instanceof Long l) return BigDecimal.valueOf(l);
        if (value instanceof BigDecimal d) return d;
        throw problemHere(expected);
    }

    private String pathOf(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private IllegalArgumentException problem(String name, String expected) {
        return child(name).problemHere(expected);
    }

    private IllegalArgumentException problemHere(String expected) {
        return new IllegalArgumentException(file + " is not a report.json Batchpipe wrote: " + path() + " should be " + expected
                + ", found " + Json.typeName(value));
    }
}
