package batchpipe.aggregator.cost;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * An item's size by DynamoDB's published sizing rules, which decide how many request units a write or
 * read consumes: attribute names and strings count their UTF-8 bytes; a number about one byte per two
 * significant digits plus one; a boolean or null one byte; a map or list three bytes plus, per element,
 * its name, its value and one byte. Sets are counted as lists: a few bytes more than DynamoDB counts,
 * never fewer.
 */
public final class ItemSize {
    private ItemSize() {
    }

    /** The size of an item as it is stored ({@code TaskRecord.toItem()}, {@code RunRecord.toItem()}). */
    public static long of(Map<String, AttributeValue> item) {
        long bytes = 0;
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            bytes += utf8(e.getKey()) + valueSize(e.getValue());
        }
        return bytes;
    }

    static long valueSize(AttributeValue value) {
        if (value.s() != null) return utf8(value.s());
        if (value.n() != null) return numberSize(new BigDecimal(value.n()));
        if (value.b() != null) return value.b().asByteArray().length;
        if (value.hasM()) {
            long bytes = 3;
            for (Map.Entry<String, AttributeValue> e : value.m().entrySet()) {
                bytes += utf8(e.getKey()) + valueSize(e.getValue()) + 1;
            }
            return bytes;
        }
        if (value.hasL()) {
            long bytes = 3;
            for (AttributeValue element : value.l()) bytes += valueSize(element) + 1;
            return bytes;
        }
        if (value.hasSs()) {
            long bytes = 3;
            for (String element : value.ss()) bytes += utf8(element) + 1;
            return bytes;
        }
        if (value.hasNs()) {
            long bytes = 3;
            for (String element : value.ns()) bytes += numberSize(new BigDecimal(element)) + 1;
            return bytes;
        }
        // a boolean or a null
        return 1;
    }

    /** The size of a string value. */
    static long valueSize(String value) {
        return utf8(value);
    }

    /** ceil(significant digits / 2) + 1; zero has one significant digit. */
    static long numberSize(BigDecimal d) {
        int digits = d.signum() == 0 ? 1 : d.stripTrailingZeros().precision();
        return (digits + 1) / 2 + 1;
    }

    private static long utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
