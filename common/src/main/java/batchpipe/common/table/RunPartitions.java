package batchpipe.common.table;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Which partition key holds each item of a run. DynamoDB serves at most 1,000 write units a second
 * on one partition key, so a large run's items are spread over {@code count} keys
 * {@code run#<runId>#0} ... {@code run#<runId>#<count-1>} (docs/SCALE.md has the arithmetic):
 * <ul>
 *   <li>a task's items (its final record, its hash items, its attempt error) share the key of the task:
 *       a stable hash (CRC-32C) of the task id, so every writer and reader finds it without a look-up;</li>
 *   <li>progress shard {@code n} lives on key {@code n mod count};</li>
 *   <li>a worker invocation's record lives on the key its request id hashes to;</li>
 *   <li>the run record and the summary stay on {@code run#<runId>}, where a reader finds the count.</li>
 * </ul>
 * A run stored before partitions existed has no count on its run record ({@link #legacy}): every one of
 * its items is on {@code run#<runId>}, and it reads back as it always did.
 *
 * @param count how many item partitions the run has; 0 for the single-key layout of earlier runs
 */
public record RunPartitions(String runId, int count) {
    /**
     * The most partition keys a run spreads over: enough for 1,000 concurrent workers' peak write rate
     * (docs/SCALE.md), and few enough that a reader's Query per key stays cheap.
     */
    public static final int MAX = 1_000;

    public RunPartitions {
        if (count < 0 || count > MAX) {
            throw new IllegalArgumentException("a run has 1 to " + MAX + " partitions (0 for the single-key layout), got " + count);
        }
    }

    /** The layout of runs stored before partitions: everything on {@code run#<runId>}. */
    public static RunPartitions legacy(String runId) {
        return new RunPartitions(runId, 0);
    }

    /** The layout a run record states ({@code partitions}, absent on earlier runs). */
    public static RunPartitions of(String runId, Integer partitions) {
        return partitions == null ? legacy(runId) : new RunPartitions(runId, partitions);
    }

    public boolean isLegacy() {
        return count == 0;
    }

    /** The key of the run record and the summary, in every layout. */
    public String runPk() {
        return TableKeys.runPk(runId);
    }

    /** Partition {@code k}'s key. */
    public String pk(int k) {
        return isLegacy() ? runPk() : runPk() + "#" + k;
    }

    /** The key of a task's items: its record, hash items and attempt error. */
    public String taskPk(String taskId) {
        return pk(partitionOf(taskId));
    }

    public String progressPk(int shard) {
        return pk(isLegacy() ? 0 : shard % count);
    }

    public String invocationPk(String requestId) {
        return pk(partitionOf(requestId));
    }

    /** Which partition an id hashes to: CRC-32C, unlike the progress shards' CRC-32, so the two spreads are independent. */
    public int partitionOf(String id) {
        if (isLegacy()) return 0;
        CRC32C crc = new CRC32C();
        crc.update(id.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % count);
    }

    /** The keys that hold task, hash, progress, attempt and invocation items: the ones a reader queries, each once. */
    public List<String> itemPks() {
        if (isLegacy()) return List.of(runPk());
        List<String> pks = new ArrayList<>(count);
        for (int k = 0; k < count; k++) pks.add(pk(k));
        return pks;
    }

    /** Every key of the run: the run record's and the item partitions'. */
    public List<String> allPks() {
        if (isLegacy()) return List.of(runPk());
        List<String> pks = new ArrayList<>(count + 1);
        pks.add(runPk());
        pks.addAll(itemPks());
        return pks;
    }

    public Map<String, AttributeValue> taskKey(String taskId, String sk) {
        return TableKeys.itemKey(taskPk(taskId), sk);
    }

    public Map<String, AttributeValue> taskRecordKey(String taskId) {
        return taskKey(taskId, TableKeys.taskSk(taskId));
    }

    public Map<String, AttributeValue> attemptKey(String taskId) {
        return taskKey(taskId, TableKeys.attemptSk(taskId));
    }

    public Map<String, AttributeValue> progressKey(int shard) {
        return TableKeys.itemKey(progressPk(shard), TableKeys.progressSk(shard));
    }

    public Map<String, AttributeValue> invocationKey(String requestId) {
        return TableKeys.itemKey(invocationPk(requestId), TableKeys.INVOCATION_PREFIX + requestId);
    }
}
