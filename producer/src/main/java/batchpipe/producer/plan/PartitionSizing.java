package batchpipe.producer.plan;

import batchpipe.common.table.RunPartitions;

/**
 * How many partition keys a run's items are spread over ({@link RunPartitions}): enough that the
 * planned write rate on each key stays within DynamoDB's 1,000 write units a second per partition at the
 * stack's maximum worker concurrency, and no more than the run's whole write volume needs. The figures
 * and the reasoning behind each constant are in docs/SCALE.md; write units are counted as DynamoDB bills
 * them, one per started KB of the larger of the item's old and new size.
 *
 * <pre>
 * peak WCU/s  = concurrency x (the heaviest kind's WCU/s in one worker invocation: its tasks a second, bounded by
 *               the DynamoDB calls each needs and, for hashes, by bcrypt on the most vCPUs a worker has, x each task's WCU)
 * volume WCU  = scan x (record + progress update) + hash tasks x (record + progress update) + hashes x hash item
 * partitions  = min(ceil(peak / 1,000), ceil(volume / 1,000)), at least 1, at most {@value RunPartitions#MAX}
 * </pre>
 */
public final class PartitionSizing {
    /** DynamoDB's write limit on one partition, per second, whatever the table's capacity mode. */
    public static final int PARTITION_WCU_PER_SECOND = 1_000;
    /** A scan task's final record: 1 to 3 KB with its countBy maps (docs/SCALE.md), so 3 write units. */
    public static final int SCAN_RECORD_WCU = 3;
    /** A hash task's final record, under 1 KB. */
    public static final int HASH_RECORD_WCU = 1;
    /**
     * Adding a task to its progress shard: the shard's id set grows to about 20 KB (800 ids), and an update
     * is billed on the larger of the old and new item, so 10 write units on average over a shard's life.
     */
    public static final int PROGRESS_UPDATE_WCU = 10;
    /** One bcrypt hash item, about 150 bytes. */
    public static final int HASH_ITEM_WCU = 1;
    /**
     * The most tasks one worker invocation finishes a second, of either kind: its batch's 10 messages in
     * flight, each needing four DynamoDB calls in turn (and a scan a GetObject), at least 40 ms.
     */
    public static final int TASKS_PER_INVOCATION_SECOND = 250;
    /** The most vCPUs a worker has (10,240 MB), each hashing on its own. */
    public static final int MAX_WORKER_VCPUS = 6;
    /** jBCrypt at cost 10 on one vCPU, warm (GUIDE.md's measurement on this machine); each cost step doubles it. */
    public static final double BCRYPT_MS_AT_COST_10 = 63.0;

    private PartitionSizing() {
    }

    /** What a run plans, as far as it is known when its layout is fixed. */
    public record Load(long scanTasks, boolean scans, long hashTasks, long hashes, int hashCost) {
        /** Write units of every item the run will write. */
        public long volumeWcu() {
            return scanTasks * (SCAN_RECORD_WCU + PROGRESS_UPDATE_WCU) + hashTasks * (HASH_RECORD_WCU + PROGRESS_UPDATE_WCU)
                    + hashes * HASH_ITEM_WCU;
        }

        /** The most write units one worker invocation writes a second, doing the heaviest kind of task the run has. */
        public double peakWcuPerInvocation() {
            double scan = scans ? TASKS_PER_INVOCATION_SECOND * (double) (SCAN_RECORD_WCU + PROGRESS_UPDATE_WCU) : 0;
            double hash = 0;
            if (hashTasks > 0) {
                double hashesPerSecond = MAX_WORKER_VCPUS * 1000.0 / (BCRYPT_MS_AT_COST_10 * Math.pow(2, hashCost - 10));
                double hashesPerTask = (double) hashes / hashTasks;
                // bcrypt bounds the tasks of many dear hashes, the DynamoDB calls of each task those of few cheap ones
                double tasksPerSecond = Math.min(hashesPerSecond / hashesPerTask, TASKS_PER_INVOCATION_SECOND);
                hash = tasksPerSecond * (HASH_RECORD_WCU + PROGRESS_UPDATE_WCU + hashesPerTask * HASH_ITEM_WCU);
            }
            return Math.max(scan, hash);
        }
    }

    /** Partitions needed for the rate at {@code maxConcurrency} workers: what the run would need were it large enough. */
    public static int forRate(Load load, int maxConcurrency) {
        return clamp(Math.ceil(maxConcurrency * load.peakWcuPerInvocation() / PARTITION_WCU_PER_SECOND));
    }

    /** Partitions that the run's whole write volume could use: a run that writes under 1,000 units in all needs one. */
    public static int forVolume(Load load) {
        return clamp(Math.ceil(load.volumeWcu() / (double) PARTITION_WCU_PER_SECOND));
    }

    public static int partitions(Load load, int maxConcurrency) {
        return Math.min(forRate(load, maxConcurrency), forVolume(load));
    }

    /**
     * Whether more tasks could still change the count: not once the volume alone asks for what the rate
     * needs, since more tasks only add volume. The producer fixes a run's layout at that point, or when
     * its listing ends, whichever comes first, so a run too large to list in one invocation gets the same
     * count as if it had been listed whole.
     */
    public static boolean settled(Load load, int maxConcurrency) {
        return forVolume(load) >= forRate(load, maxConcurrency);
    }

    private static int clamp(double partitions) {
        return (int) Math.max(1, Math.min(RunPartitions.MAX, partitions));
    }
}
