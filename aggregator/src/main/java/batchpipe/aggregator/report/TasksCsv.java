package batchpipe.aggregator.report;

import batchpipe.aggregator.cost.ItemSize;
import batchpipe.common.json.Json;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.table.ItemCodec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * tasks.csv: one row per task record with every field the worker recorded, so each figure of the report
 * can be recomputed from it. Known fields come first in a fixed order, then any other field a record
 * carries (sorted), then one derived column, {@code itemBytes}: the record's size by DynamoDB's rules,
 * which the cost model turns into write and read units. For spreadsheets: every epoch-millisecond time
 * ({@code enqueuedAt}, {@code startedAt}, {@code finishedAt}, {@code sentAt}, {@code deadLetteredAt}) has an
 * ISO-8601 UTC column beside it ({@code startedAtUtc}: {@code 2026-12-01T12:32:59.123Z}); the record's
 * {@code cost} is headed {@code bcryptCost}, since it sits next to USD figures and is not one; countBy is not
 * a JSON cell here but rows of its own in countby.csv ({@link #renderCountBy}). Other nested values
 * (malformedLines, countByDistinct) are written as JSON; text follows RFC 4180 (quoted when it holds a
 * comma, quote or line break, quotes doubled).
 * <p>
 * Text can come from logs (a key, a reason, a countBy value), and a spreadsheet runs a cell that starts
 * with {@code = + - @} (or a tab or carriage return before one) as a formula: {@code =HYPERLINK(...)},
 * {@code =cmd|...}. Such a text cell gets a leading {@code '}, as OWASP's CSV injection advice says; the
 * spreadsheet then shows the text. Numbers the code records (a {@link Number}, such as -5) are written as
 * they are, so they stay numbers.
 */
public final class TasksCsv {
    /** The record's attributes tasks.csv puts first, in this order, by their names in the table. */
    public static final List<String> KNOWN_COLUMNS = List.of(
            "runId", "taskId", "kind", "status", "reason", "enqueuedAt", "startedAt", "finishedAt", "durationMs", "attempt",
            "requestId", "functionName", "functionVersion", "memoryMb", "architecture", "threads", "vcpuShare", "coldStart", "initMs",
            "ddbWriteCalls", "ddbWriteMsTotal", "ddbWriteMsMax",
            "bucket", "key", "events", "malformed", "malformedLines", "oversizedLines", "bytes", "compressedBytes", "matches",
            "hashes", "cost");
    public static final String ITEM_BYTES = "itemBytes";
    /** The epoch-millisecond attributes that get an ISO-8601 UTC column beside them, named with this suffix. */
    static final Set<String> EPOCH_MS = Set.of("enqueuedAt", "startedAt", "finishedAt", "sentAt", "deadLetteredAt");
    static final String UTC_SUFFIX = "Utc";
    /** Column headings that differ from the attribute's name. */
    private static final Map<String, String> HEADINGS = Map.of("cost", "bcryptCost");
    /** The table's keys: the same for every row of a run, and not recorded facts. */
    private static final Set<String> KEYS = Set.of("pk", "sk");
    /** In countby.csv, not here. */
    static final String COUNT_BY = "countBy";
    /** Milliseconds always written, so that the column sorts as text too. */
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
    /** countby.csv's heading. */
    public static final List<String> COUNT_BY_COLUMNS = List.of("taskId", "path", "value", "events");

    private TasksCsv() {
    }

    /** The headings of tasks.csv for these records, in order. */
    public static List<String> columns(List<TaskRecord> tasks) {
        return headingsOf(attributesOf(attributeNames(tasks.stream().map(TaskRecord::toItem).toList())));
    }

    /** The headings of rows that show {@code attributes} (in {@link #attributesOf}'s order): a UTC column beside each time, itemBytes last. */
    static List<String> headingsOf(List<String> attributes) {
        List<String> headings = new ArrayList<>();
        for (String attribute : attributes) {
            headings.add(HEADINGS.getOrDefault(attribute, attribute));
            if (EPOCH_MS.contains(attribute)) headings.add(attribute + UTC_SUFFIX);
        }
        headings.add(ITEM_BYTES);
        return headings;
    }

    private static Set<String> attributeNames(List<Map<String, AttributeValue>> items) {
        Set<String> names = new HashSet<>();
        for (Map<String, AttributeValue> item : items) names.addAll(item.keySet());
        return names;
    }

    /**
     * The attributes rows whose items hold, between them, {@code attributeNames} show, in column order: the known
     * ones, then the others sorted; no keys, no countBy, not the derived itemBytes.
     */
    static List<String> attributesOf(Collection<String> attributeNames) {
        Set<String> extra = new TreeSet<>();
        for (String attribute : attributeNames) {
            if (!KNOWN_COLUMNS.contains(attribute) && !KEYS.contains(attribute) && !attribute.equals(COUNT_BY)
                    && !attribute.equals(ITEM_BYTES)) {
                extra.add(attribute);
            }
        }
        Set<String> columns = new LinkedHashSet<>(KNOWN_COLUMNS);
        columns.addAll(extra);
        return new ArrayList<>(columns);
    }

    public static String render(List<TaskRecord> tasks) {
        // A row is the record as it is stored (its item), attribute by attribute: tasks.csv shows what the
        // table holds, in the number forms the table holds, so its figures can be checked against an export.
        List<Map<String, AttributeValue>> items = tasks.stream().map(TaskRecord::toItem).toList();
        List<String> attributes = attributesOf(attributeNames(items));
        StringBuilder csv = new StringBuilder();
        csv.append(String.join(",", headingsOf(attributes).stream().map(TasksCsv::field).toList())).append("\r\n");
        for (Map<String, AttributeValue> item : items) {
            for (int i = 0; i < attributes.size(); i++) {
                if (i > 0) csv.append(',');
                String attribute = attributes.get(i);
                AttributeValue stored = item.get(attribute);
                Object value = stored == null ? null : ItemCodec.fromAttribute(stored);
                csv.append(field(value));
                if (EPOCH_MS.contains(attribute)) csv.append(',').append(utc(value));
            }
            csv.append(',').append(field(ItemSize.of(item))).append("\r\n");
        }
        return csv.toString();
    }

    /**
     * The cell of one attribute as {@link #render} writes it: the stored value in the table's number forms,
     * escaped for CSV and spreadsheets.
     */
    static String cell(AttributeValue stored) {
        return field(ItemCodec.fromAttribute(stored));
    }

    /** The UTC cell {@link #render} writes beside a time attribute. */
    static String utcCell(AttributeValue stored) {
        return utc(ItemCodec.fromAttribute(stored));
    }

    /** An epoch-millisecond value as ISO-8601 UTC with milliseconds; empty when absent or not a number. */
    static String utc(Object epochMs) {
        if (!(epochMs instanceof Number n)) return "";
        return UTC.format(Instant.ofEpochMilli(n.longValue()));
    }

    /**
     * countby.csv: the countBy of every task in long format, one row per task, path and value with its events
     * ({@link #COUNT_BY_COLUMNS}), in the record's order (paths and values sorted as stored), so a spreadsheet's
     * pivot table sums it by path and value. The values come from logs: escaped as every text cell of tasks.csv.
     */
    public static String renderCountBy(List<TaskRecord> tasks) {
        StringBuilder csv = new StringBuilder(countByHeading());
        for (TaskRecord task : tasks) appendCountByRows(task.toItem(), csv);
        return csv.toString();
    }

    /** countby.csv's first line. */
    static String countByHeading() {
        return String.join(",", COUNT_BY_COLUMNS) + "\r\n";
    }

    /** The countby.csv rows of one stored task record (none when it has no countBy), as {@link #renderCountBy} writes them. */
    @SuppressWarnings("unchecked") // countBy is stored as a map of paths to maps of values to counts
    static void appendCountByRows(Map<String, AttributeValue> item, Appendable csv) {
        AttributeValue countBy = item.get(COUNT_BY);
        AttributeValue taskId = item.get("taskId");
        if (countBy == null || taskId == null || !(ItemCodec.fromAttribute(countBy) instanceof Map<?, ?> paths)) return;
        String task = field(ItemCodec.fromAttribute(taskId));
        try {
            // sorted here, whatever map order the record was read in, so the same run gives the same bytes
            for (Map.Entry<String, Object> path : new TreeMap<>((Map<String, Object>) paths).entrySet()) {
                if (!(path.getValue() instanceof Map<?, ?> values)) continue;
                for (Map.Entry<String, Object> value : new TreeMap<>((Map<String, Object>) values).entrySet()) {
                    csv.append(task).append(',').append(field(path.getKey())).append(',').append(field(value.getKey())).append(',')
                            .append(field(value.getValue())).append("\r\n");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String field(Object value) {
        String text;
        if (value == null) return "";
        if (value instanceof BigDecimal d) text = d.toPlainString();
        else if (value instanceof Map<?, ?> || value instanceof Iterable<?>) text = Json.write(value);
        else text = String.valueOf(value);
        if (!(value instanceof Number) && startsLikeAFormula(text)) text = "'" + text;
        if (text.indexOf(',') >= 0 || text.indexOf('"') >= 0 || text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
            return '"' + text.replace("\"", "\"\"") + '"';
        }
        return text;
    }

    private static boolean startsLikeAFormula(String text) {
        if (text.isEmpty()) return false;
        char first = text.charAt(0);
        return first == '=' || first == '+' || first == '-' || first == '@' || first == '\t' || first == '\r';
    }
}
