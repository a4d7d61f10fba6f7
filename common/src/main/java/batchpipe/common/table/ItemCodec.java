package batchpipe.common.table;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Converts between plain Java values (the shapes {@link batchpipe.common.json.Json} uses) and DynamoDB
 * attribute values, so records are built and read as maps, and a record is also its JSON.
 */
public final class ItemCodec {
    private ItemCodec() {
    }

    public static Map<String, AttributeValue> toItem(Map<String, ?> values) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (v != null) item.put(k, toAttribute(v));
        });
        return item;
    }

    public static AttributeValue toAttribute(Object value) {
        if (value == null) return AttributeValue.fromNul(true);
        if (value instanceof AttributeValue a) return a;
        if (value instanceof String s) return AttributeValue.fromS(s);
        if (value instanceof Boolean b) return AttributeValue.fromBool(b);
        if (value instanceof Double d) return AttributeValue.fromN(BigDecimal.valueOf(d).toPlainString());
        if (value instanceof Float f) return AttributeValue.fromN(BigDecimal.valueOf(f).toPlainString());
        if (value instanceof BigDecimal d) return AttributeValue.fromN(d.toPlainString());
        if (value instanceof Number n) return AttributeValue.fromN(n.toString());
        if (value instanceof byte[] bytes) return AttributeValue.fromB(SdkBytes.fromByteArray(bytes));
        if (value instanceof Map<?, ?> map) {
            Map<String, AttributeValue> m = new LinkedHashMap<>();
            map.forEach((k, v) -> m.put(String.valueOf(k), toAttribute(v)));
            return AttributeValue.fromM(m);
        }
        if (value instanceof Iterable<?> list) {
            List<AttributeValue> l = new ArrayList<>();
            list.forEach(v -> l.add(toAttribute(v)));
            return AttributeValue.fromL(l);
        }
        throw new IllegalArgumentException("cannot store a " + value.getClass().getName() + " in DynamoDB");
    }

    /** Item to plain values: numbers become Long when integral, BigDecimal otherwise; maps keep key order sorted. */
    public static Map<String, Object> fromItem(Map<String, AttributeValue> item) {
        Map<String, Object> values = new TreeMap<>();
        item.forEach((k, v) -> values.put(k, fromAttribute(v)));
        return values;
    }

    public static Object fromAttribute(AttributeValue value) {
        if (value.s() != null) return value.s();
        if (value.n() != null) {
            BigDecimal d = new BigDecimal(value.n());
            try {
                return d.longValueExact();
            } catch (ArithmeticException notIntegral) {
                return d;
            }
        }
        if (value.bool() != null) return value.bool();
        if (Boolean.TRUE.equals(value.nul())) return null;
        if (value.hasM()) {
            Map<String, Object> m = new TreeMap<>();
            value.m().forEach((k, v) -> m.put(k, fromAttribute(v)));
            return m;
        }
        if (value.hasL()) {
            List<Object> l = new ArrayList<>();
            value.l().forEach(v -> l.add(fromAttribute(v)));
            return l;
        }
        if (value.hasSs()) return List.copyOf(value.ss());
        if (value.hasNs()) return value.ns().stream().map(n -> (Object) new BigDecimal(n)).toList();
        if (value.b() != null) return value.b().asByteArray();
        return null;
    }
}
