package batchpipe.aggregator.cost;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * An item's size by DynamoDB's published sizing rules, which decide how many request units a write or
 * read consumes: attribute names and strings count their UTF-8 bytes; a number about one byte per two
 * significant digits plus one; a boolean or null one byte; a map or list three bytes plus, per element,
 * its name, its value and one byte. Sets read back as lists, so they are counted the same way: a few
 * bytes more than DynamoDB counts, never fewer.
 */
public final class ItemSize {
    private ItemSize() {
    }

    /** The size of an item given as plain values (as {@code ItemCodec.fromItem} returns them). */
    public static long of(Map<String, ?> item) {
        long bytes = 0;
        for (Map.Entry<String, ?> e : item.entrySet()) {
            bytes += utf8(e.getKey()) + valueSize(e.getValue());
        }
        return bytes;
    }

    static long valueSize(Object value) {
        if (value == null || value instanceof Boolean) return 1;
        if (value instanceof String s) return utf8(s);
        if (value instanceof Number n) return numberSize(n);
        if (value instanceof byte[] b) return b.length;
        if (value instanceof Map<?, ?> map) {
            long bytes = 3;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                bytes += utf8(String.valueOf(e.getKey())) + valueSize(e.getValue()) + 1;
            }
            return bytes;
        }
        if (value instanceof Iterable<?> list) {
            long bytes = 3;
            for (Object element : list) {
                bytes += valueSize(element) + 1;
            }
            return bytes;
        }
        return utf8(value.toString());
    }

    /** ceil(significant digits / 2) + 1; zero has one significant digit. */
    static long numberSize(Number n) {
        BigDecimal d = n instanceof BigDecimal b ? b : new BigDecimal(n.toString());
        int digits = d.signum() == 0 ? 1 : d.stripTrailingZeros().precision();
        return (digits + 1) / 2 + 1;
    }

    private static long utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
