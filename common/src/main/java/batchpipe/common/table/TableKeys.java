package batchpipe.common.table;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;

/**
 * The single-table layout. The run record and summary are on {@code run#<runId>}; a run's other items
 * are on the partition keys {@link RunPartitions} gives them ({@code run#<runId>#<k>}, or
 * {@code run#<runId>} itself for runs stored before partitions), with these sort keys:
 * <pre>
 * run#&lt;runId&gt; / run                      the run record: spec, planned counts, status
 * run#&lt;runId&gt; / task#&lt;taskId&gt;            one final record per task (written once, conditionally)
 * run#&lt;runId&gt; / hash#&lt;taskId&gt;#&lt;index&gt;    one bcrypt hash
 * run#&lt;runId&gt; / progress#&lt;shard&gt;         which tasks have been counted (idempotent sets)
 * run#&lt;runId&gt; / attempt#&lt;taskId&gt;         the last error of a task's failed delivery (read by the dead-letter recorder)
 * run#&lt;runId&gt; / invocation#&lt;requestId&gt;  a worker invocation's part in the run: cold start, DynamoDB call latencies
 * run#&lt;runId&gt; / summary                  the aggregator's report
 * </pre>
 */
public final class TableKeys {
    public static final String PK = "pk";
    public static final String SK = "sk";
    public static final String RUN_SK = "run";
    public static final String SUMMARY_SK = "summary";
    public static final String TASK_PREFIX = "task#";
    public static final String HASH_PREFIX = "hash#";
    public static final String PROGRESS_PREFIX = "progress#";
    public static final String ATTEMPT_PREFIX = "attempt#";
    public static final String INVOCATION_PREFIX = "invocation#";

    /**
     * The order a Query returns a key's items in: string sort keys by their UTF-8 bytes, unsigned (AWS, "Key
     * condition expressions for the Query operation in DynamoDB": "in order of UTF-8 bytes"). Task records sort as {@code task#<taskId>}, so this is
     * also their task ids' order; Java's own string order differs from it for characters above U+FFFF.
     */
    public static final Comparator<String> SORT_KEY_ORDER =
            (a, b) -> Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    private TableKeys() {
    }

    /** The key of one item of a run: {@code pk = run#<runId>}, {@code sk} as given. */
    public static Map<String, AttributeValue> key(String runId, String sk) {
        return Map.of(PK, AttributeValue.fromS(runPk(runId)), SK, AttributeValue.fromS(sk));
    }

    /** The key of an item on the partition key {@code pk} (see {@link RunPartitions} for which one). */
    public static Map<String, AttributeValue> itemKey(String pk, String sk) {
        return Map.of(PK, AttributeValue.fromS(pk), SK, AttributeValue.fromS(sk));
    }

    public static String runPk(String runId) {
        return "run#" + runId;
    }

    public static String taskSk(String taskId) {
        return TASK_PREFIX + taskId;
    }

    public static String hashSk(String taskId, long index) {
        return HASH_PREFIX + taskId + "#" + String.format(Locale.ROOT, "%06d", index);
    }

    public static String attemptSk(String taskId) {
        return ATTEMPT_PREFIX + taskId;
    }

    public static String progressSk(int shard) {
        return PROGRESS_PREFIX + String.format(Locale.ROOT, "%03d", shard);
    }
}
