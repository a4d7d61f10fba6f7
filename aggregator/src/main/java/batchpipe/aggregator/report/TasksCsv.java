package batchpipe.aggregator.report;

import batchpipe.aggregator.cost.ItemSize;
import batchpipe.common.json.Json;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.table.ItemCodec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * tasks.csv: one row per task record with every field the worker recorded, so each figure of the report
 * can be recomputed from it. Known fields come first in a fixed order, then any other field a record
 * carries (sorted), then one derived column, {@code itemBytes}: the record's size by DynamoDB's rules,
 * which the cost model turns into write and read units. Nested values (countBy, malformedLines) are
 * written as JSON; text follows RFC 4180 (quoted when it holds a comma, quote or line break, quotes
 * doubled).
 * <p>
 * Text can come from logs (a key, a reason, a countBy value), and a spreadsheet runs a cell that starts
 * with {@code = + - @} (or a tab or carriage return before one) as a formula: {@code =HYPERLINK(...)},
 * {@code =cmd|...}. Such a text cell gets a leading {@code '}, as OWASP's CSV injection advice says; the
 * spreadsheet then shows the text. Numbers the code records (a {@link Number}, such as -5) are written as
 * they are, so they stay numbers.
 */
public final class TasksCsv {
    public static final List<String> KNOWN_COLUMNS = List.of(
            "runId", "taskId", "kind", "status", "reason", "enqueuedAt", "startedAt", "finishedAt", "durationMs", "attempt",
            "requestId", "functionName", "functionVersion", "memoryMb", "architecture", "threads", "vcpuShare", "coldStart", "initMs",
            "ddbWriteCalls", "ddbWriteMsTotal", "ddbWriteMsMax",
            "bucket", "key", "events", "malformed", "malformedLines", "oversizedLines", "bytes", "compressedBytes", "countBy", "matches",
            "hashes", "cost");
    public static final String ITEM_BYTES = "itemBytes";
    /** The table's keys: the same for every row of a run, and not recorded facts. */
    private static final Set<String> KEYS = Set.of("pk", "sk");

    private TasksCsv() {
    }

    public static List<String> columns(List<TaskRecord> tasks) {
        return columnsOf(tasks.stream().map(TaskRecord::toItem).toList());
    }

    private static List<String> columnsOf(List<Map<String, AttributeValue>> items) {
        Set<String> attributes = new HashSet<>();
        for (Map<String, AttributeValue> item : items) attributes.addAll(item.keySet());
        return columnsOf(attributes);
    }

    /** The columns of rows whose items hold, between them, {@code attributes}. */
    static List<String> columnsOf(Collection<String> attributes) {
        Set<String> extra = new TreeSet<>();
        for (String attribute : attributes) {
            if (!KNOWN_COLUMNS.contains(attribute) && !KEYS.contains(attribute)) extra.add(attribute);
        }
        Set<String> columns = new LinkedHashSet<>(KNOWN_COLUMNS);
        columns.addAll(extra);
        columns.add(ITEM_BYTES);
        return new ArrayList<>(columns);
    }

    public static String render(List<TaskRecord> tasks) {
        // A row is the record as it is stored (its item), attribute by attribute: tasks.csv shows what the
        // table holds, in the number forms the table holds, so its figures can be checked against an export.
        List<Map<String, AttributeValue>> items = tasks.stream().map(TaskRecord::toItem).toList();
        List<String> columns = columnsOf(items);
        StringBuilder csv = new StringBuilder();
        csv.append(String.join(",", columns.stream().map(TasksCsv::field).toList())).append("\r\n");
        for (Map<String, AttributeValue> item : items) {
            for (int i = 0; i < columns.size(); i++) {
                if (i > 0) csv.append(',');
                String column = columns.get(i);
                AttributeValue stored = item.get(column);
                Object value = column.equals(ITEM_BYTES) ? (Object) ItemSize.of(item) : stored == null ? null : ItemCodec.fromAttribute(stored);
                csv.append(field(value));
            }
            csv.append("\r\n");
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
