package batchpipe.aggregator.cost;

import batchpipe.aggregator.stats.IntColumn;
import batchpipe.aggregator.stats.LongColumn;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.table.TableKeys;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * What the cost and usage models need of a run's task records, folded one record at a time so that the
 * aggregator never holds the records: counts and sums, and for the progress-shard writes (whose units
 * depend on the order the tasks finished in) four primitive columns, 20 bytes a task.
 * <p>
 * Records must be folded in task-id order, the order a Query of the run's partition returns them in:
 * when two tasks of one progress shard finished in the same millisecond, the one with the smaller task id
 * counts first ({@link UsageModel#progressUpdateUnits}), and the fold breaks such ties by arrival.
 */
public final class TaskTotals {
    private final long writeUnitBytes;
    private long tasks, scanTasks, hashes, scannedBytes, itemBytes, recordUnits;
    private long armTasks, armMs, x86Tasks, x86Ms;
    private final Map<String, long[]> byKind = new TreeMap<>(); // kind -> {tasks, sum of durationMs}
    private final Set<String> workerFunctions = new HashSet<>();
    private final IntColumn taskIdCrc = new IntColumn();
    private final LongColumn finishedAt = new LongColumn();
    private final IntColumn taskIdBytes = new IntColumn();
    /** The shard the record names, or -1 when it names none (then its id's CRC picks it). */
    private final IntColumn namedShard = new IntColumn();

    /** @param writeUnitBytes the bytes a write request unit covers ({@link PriceTable#writeUnitBytes()}) */
    public TaskTotals(long writeUnitBytes) {
        this.writeUnitBytes = writeUnitBytes;
    }

    /** The totals of a list of records, folded in task-id order as a Query would hand them over. */
    public static TaskTotals of(List<TaskRecord> records, long writeUnitBytes) {
        TaskTotals totals = new TaskTotals(writeUnitBytes);
        List<TaskRecord> inTaskIdOrder = new ArrayList<>(records);
        inTaskIdOrder.sort(Comparator.comparing(TaskRecord::taskId, TableKeys.SORT_KEY_ORDER));
        for (TaskRecord t : inTaskIdOrder) totals.add(t, ItemSize.of(t.toItem()));
        return totals;
    }

    /** @param itemBytes the record's item size ({@link ItemSize#of} of {@link TaskRecord#toItem()}) */
    public void add(TaskRecord t, long itemBytes) {
        tasks++;
        String kind = String.valueOf(t.kind());
        long[] ofKind = byKind.computeIfAbsent(kind, k -> new long[2]);
        ofKind[0]++;
        ofKind[1] += t.durationMs();
        if ("scan".equals(t.kind())) scanTasks++;
        if (t.scan() != null) scannedBytes += t.scan().bytes();
        if (t.hash() != null) hashes += t.hash().hashes();
        this.itemBytes += itemBytes;
        recordUnits += Numbers.ceilDiv(itemBytes, writeUnitBytes);
        workerFunctions.add(String.valueOf(t.invocation().functionName()));
        if ("arm64".equals(t.invocation().architecture())) {
            armTasks++;
            armMs += t.durationMs();
        } else if ("x86_64".equals(t.invocation().architecture())) {
            x86Tasks++;
            x86Ms += t.durationMs();
        }
        byte[] id = t.taskId().getBytes(StandardCharsets.UTF_8);
        CRC32 crc = new CRC32(); // the hash ProgressShards.shardOf takes, kept so the shard count may be known only at the end
        // (for records that name no shard: see TaskRecord.progressShardOr)
        crc.update(id);
        taskIdCrc.add((int) crc.getValue());
        finishedAt.add(t.finishedAt());
        taskIdBytes.add(id.length);
        namedShard.add(t.progressShard() == null ? -1 : t.progressShard());
    }

    public long tasks() {
        return tasks;
    }

    public boolean isEmpty() {
        return tasks == 0;
    }

    public long scanTasks() {
        return scanTasks;
    }

    public long hashes() {
        return hashes;
    }

    /** Uncompressed bytes the scan tasks read. */
    public long scannedBytes() {
        return scannedBytes;
    }

    /** The task records' item bytes, summed. */
    public long itemBytes() {
        return itemBytes;
    }

    /** The write units of the records' puts: the sum over records of ceil(itemBytes / writeUnitBytes). */
    public long recordUnits() {
        return recordUnits;
    }

    /** By kind ({@code "null"} for a record without one): {tasks, sum of durationMs}, in kind order. */
    public Map<String, long[]> byKind() {
        Map<String, long[]> copy = new TreeMap<>();
        byKind.forEach((kind, v) -> copy.put(kind, v.clone()));
        return copy;
    }

    public Set<String> workerFunctions() {
        return Set.copyOf(workerFunctions);
    }

    public long armTasks() {
        return armTasks;
    }

    public long armMs() {
        return armMs;
    }

    public long x86Tasks() {
        return x86Tasks;
    }

    public long x86Ms() {
        return x86Ms;
    }

    /**
     * The write units of the progress-shard updates, as {@link UsageModel#progressUpdateUnits} counts them
     * from the records: per shard (the one a record names, else its id's hash over {@code shards}), tasks in
     * the order they finished (ties in task-id order, here arrival order), the k-th update writing the base
     * plus the first k ids.
     */
    public long progressUpdateUnits(int shards, long unitBytes) {
        int n = finishedAt.size();
        int[] shardOf = new int[n];
        for (int i = 0; i < n; i++) {
            int named = namedShard.get(i);
            shardOf[i] = named >= 0 ? named : (int) (Integer.toUnsignedLong(taskIdCrc.get(i)) % shards);
        }
        // a record may name a shard beyond the run record's count (a run record without its count): group it all the same
        for (int i = 0; i < n; i++) shards = Math.max(shards, shardOf[i] + 1);
        int[] perShard = new int[shards + 1];
        for (int i = 0; i < n; i++) perShard[shardOf[i] + 1]++;
        for (int s = 0; s < shards; s++) perShard[s + 1] += perShard[s];
        int[] next = Arrays.copyOf(perShard, shards);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) order[next[shardOf[i]]++] = i;
        Comparator<Integer> finishOrder = Comparator.<Integer>comparingLong(finishedAt::get).thenComparingInt(i -> i);
        long units = 0;
        for (int s = 0; s < shards; s++) {
            Arrays.sort(order, perShard[s], perShard[s + 1], finishOrder);
            long bytes = UsageModel.PROGRESS_ITEM_BASE_BYTES;
            for (int k = perShard[s]; k < perShard[s + 1]; k++) {
                bytes += taskIdBytes.get(order[k]);
                units += Numbers.ceilDiv(bytes, unitBytes);
            }
        }
        return units;
    }
}
