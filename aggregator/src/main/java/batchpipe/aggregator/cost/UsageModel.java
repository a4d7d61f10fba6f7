package batchpipe.aggregator.cost;

import batchpipe.aggregator.report.ReportJson;
import batchpipe.aggregator.stats.StoredSpec;
import batchpipe.common.json.JsonFields;
import batchpipe.common.json.JsonWritable;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.table.ProgressShards;
import batchpipe.common.table.TableKeys;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Counts the requests and request units a run used, from its records and the way the code makes its
 * calls (see docs/COST.md for each rule). These are counts of what the code does per task, per batch
 * and per run; retries, redeliveries and conditional-check failures are not in the records and are
 * left out.
 */
public final class UsageModel {
    /** pk, sk, planned and the status counters of a progress shard item, before its set of task ids. */
    public static final long PROGRESS_ITEM_BASE_BYTES = 100;
    /** SendMessageBatch and the event source mapping's ReceiveMessage take at most 10 messages. */
    public static final int MESSAGES_PER_BATCH = 10;
    /** ListObjectsV2 returns at most 1,000 keys a page. */
    public static final int KEYS_PER_LIST_PAGE = 1_000;

    /** Counts by service, and the figures they came from. */
    public record Usage(List<Quantity> sqsRequests, List<Quantity> writeUnits, List<Quantity> readUnits,
                        List<Quantity> s3GetRequests, List<Quantity> s3ListRequests, Inputs inputs) {
        public static long total(List<Quantity> quantities) {
            return quantities.stream().mapToLong(Quantity::count).sum();
        }
    }

    /** The figures the counts came from, as report.json shows them under {@code cost.usageInputs}. */
    public record Inputs(long plannedTasks, long plannedScanTasks, int scanSources, int shards, long runRecordBytes,
                         long taskRecordBytes, long messageBytes, int workerInvocations, long workerColdStarts) implements JsonWritable {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("plannedTasks", plannedTasks).put("plannedScanTasks", plannedScanTasks)
                    .put("scanSources", scanSources).put("shards", shards).put("runRecordBytes", runRecordBytes)
                    .put("taskRecordBytes", taskRecordBytes).put("messageBytes", messageBytes)
                    .put("workerInvocations", workerInvocations).put("workerColdStarts", workerColdStarts);
        }

        static Inputs fromJson(ReportJson json) {
            return new Inputs(json.longValue("plannedTasks"), json.longValue("plannedScanTasks"), json.intValue("scanSources"),
                    json.intValue("shards"), json.longValue("runRecordBytes"), json.longValue("taskRecordBytes"),
                    json.longValue("messageBytes"), json.intValue("workerInvocations"), json.longValue("workerColdStarts"));
        }
    }

    private UsageModel() {
    }

    /** @param run the run record, or null when there is none */
    public static Usage measure(RunRecord run, List<TaskRecord> tasks, List<BilledInvocation> invocations,
                                CostAssumptions assumptions, PriceTable prices) {
        return measure(run, TaskTotals.of(tasks, prices.writeUnitBytes()), invocations, assumptions, prices);
    }

    /**
     * From the task records' totals, folded as the records were read.
     *
     * @param run the run record, or null when there is none
     */
    public static Usage measure(RunRecord run, TaskTotals tasks, List<BilledInvocation> invocations,
                                CostAssumptions assumptions, PriceTable prices) {
        long planned = run != null ? run.planned().total() : tasks.tasks();
        long plannedScan = run != null ? run.planned().scan() : tasks.scanTasks();
        // a run record stored without its shard count (0) had the count the planned total gives
        int shards = run != null && run.shards() > 0 ? run.shards() : ProgressShards.shardCount(planned);
        long runBytes = run == null ? 0 : completeRunRecordBytes(run);
        long taskItemBytes = tasks.itemBytes();
        long taskRecordUnits = tasks.recordUnits();
        Set<String> workerFunctions = tasks.workerFunctions();
        List<BilledInvocation> workerInvocations = invocations.stream()
                .filter(i -> i.tasks() > 0 || workerFunctions.contains(i.function())).toList();
        long workerColdStarts = workerInvocations.stream().filter(BilledInvocation::coldStart).count();
        boolean complete = tasks.tasks() >= planned && planned > 0;
        int sources = StoredSpec.of(run).scanSources();
        long m = assumptions.messageBytes();
        long chunk = prices.sqsChunkBytes();

        List<Quantity> sqs = new ArrayList<>();
        long fullBatches = planned / MESSAGES_PER_BATCH;
        long rest = planned % MESSAGES_PER_BATCH;
        long perFull = Numbers.ceilDiv(MESSAGES_PER_BATCH * m, chunk);
        long perRest = rest == 0 ? 0 : Numbers.ceilDiv(rest * m, chunk);
        sqs.add(new Quantity("SendMessageBatch (producer, tasks queue)", fullBatches * perFull + perRest,
                String.format(Locale.ROOT, "floor(%d planned / 10) = %d full batches x ceil(10 x %d B / %d B) = %d, + a last batch of %d: ceil(%d x %d B / %d B) = %d",
                        planned, fullBatches, m, chunk, perFull, rest, rest, m, chunk, perRest)));
        long receives = 0;
        for (BilledInvocation i : workerInvocations) receives += Math.max(1, Numbers.ceilDiv(i.tasks() * m, chunk));
        sqs.add(new Quantity("ReceiveMessage (event source mapping, one per worker batch)", receives,
                String.format(Locale.ROOT, "sum over %d worker invocations of max(1, ceil(tasks x %d B / %d B))", workerInvocations.size(), m, chunk)));
        sqs.add(new Quantity("DeleteMessageBatch (event source mapping, one per worker batch)", workerInvocations.size(),
                workerInvocations.size() + " worker invocations x 1"));
        sqs.add(new Quantity("completion message: send, receive, delete", complete ? 3 : 0,
                complete ? "1 run x 3" : "run incomplete: no completion message"));

        List<Quantity> writes = new ArrayList<>();
        long hashes = tasks.hashes();
        writes.add(new Quantity("hash items (BatchWriteItem)", hashes, hashes + " hashes x 1 WRU (items of about 150 B)"));
        writes.add(new Quantity("task records (conditional PutItem)", taskRecordUnits,
                "sum over " + tasks.tasks() + " tasks of ceil(itemBytes / " + prices.writeUnitBytes() + " B)"));
        long progressUnits = tasks.progressUpdateUnits(shards, prices.writeUnitBytes());
        writes.add(new Quantity("progress shard updates (one per task)", progressUnits,
                "per shard, the k-th task finished writes ceil((" + PROGRESS_ITEM_BASE_BYTES
                        + " B + bytes of the first k task ids) / " + prices.writeUnitBytes() + " B)"));
        long runUnitsW = Numbers.ceilDiv(runBytes, prices.writeUnitBytes());
        long runWrites = run == null ? 0 : 3L + shards;
        writes.add(new Quantity("run record writes (create, enqueued, one per completed shard, complete)", runWrites * runUnitsW,
                String.format(Locale.ROOT, "(3 + %d shards) x ceil(%d B / %d B)", shards, runBytes, prices.writeUnitBytes())));
        writes.add(new Quantity("progress shard items created", run == null ? 0 : shards, shards + " shards x 1 WRU"));

        List<Quantity> reads = new ArrayList<>();
        reads.add(new Quantity("task record checks before running (consistent GetItem)", tasks.tasks(), tasks.tasks() + " tasks x 1 RRU"));
        long runUnitsR = Numbers.ceilDiv(runBytes, prices.readUnitBytes());
        reads.add(new Quantity("run record reads by new worker instances", workerColdStarts * runUnitsR,
                String.format(Locale.ROOT, "%d worker cold starts x ceil(%d B / %d B)", workerColdStarts, runBytes, prices.readUnitBytes())));
        long queryUnits = (run == null ? 0 : runUnitsR) + Numbers.ceilDiv(taskItemBytes, prices.readUnitBytes());
        reads.add(new Quantity("aggregator Query of the run (consistent)", queryUnits,
                String.format(Locale.ROOT, "ceil(%d B / %d B) + ceil(%d B of task records / %d B)", runBytes, prices.readUnitBytes(),
                        taskItemBytes, prices.readUnitBytes())));

        long scanRecords = tasks.scanTasks();
        List<Quantity> gets = List.of(new Quantity("GetObject (one per scan task)", scanRecords, scanRecords + " scan task records x 1"));
        long listPages = sources == 0 ? 0 : Math.max(sources, Numbers.ceilDiv(plannedScan, KEYS_PER_LIST_PAGE));
        List<Quantity> lists = List.of(new Quantity("ListObjectsV2 pages (producer)", listPages,
                String.format(Locale.ROOT, "max(%d scan sources, ceil(%d planned scan tasks / %d keys a page))", sources, plannedScan, KEYS_PER_LIST_PAGE)));

        Inputs inputs = new Inputs(planned, plannedScan, sources, shards, runBytes, taskItemBytes, m, workerInvocations.size(),
                workerColdStarts);
        return new Usage(sqs, writes, reads, gets, lists, inputs);
    }

    /**
     * Each finished task adds its id to its shard's set, so the k-th update of a shard writes an item of
     * the base plus the first k ids; tasks are taken in the order they finished. A task's shard is the one
     * its record names (the page's shard, in a run planned page by page), else its id's hash over
     * {@code shards} ({@link TaskRecord#progressShardOr}).
     */
    static long progressUpdateUnits(List<TaskRecord> tasks, int shards, long unitBytes) {
        Map<Integer, List<TaskRecord>> byShard = new TreeMap<>();
        for (TaskRecord t : tasks) {
            byShard.computeIfAbsent(t.progressShardOr(shards), s -> new ArrayList<>()).add(t);
        }
        long units = 0;
        for (List<TaskRecord> shard : byShard.values()) {
            shard.sort(Comparator.comparingLong(TaskRecord::finishedAt).thenComparing(TaskRecord::taskId, TableKeys.SORT_KEY_ORDER));
            long bytes = PROGRESS_ITEM_BASE_BYTES;
            for (TaskRecord t : shard) {
                bytes += ItemSize.valueSize(t.taskId());
                units += Numbers.ceilDiv(bytes, unitBytes);
            }
        }
        return units;
    }

    /**
     * The run record's size once complete: the aggregator itself turns its status from "running" to
     * "complete", and a second report must count the same bytes as the first.
     */
    static long completeRunRecordBytes(RunRecord run) {
        RunRecord complete = new RunRecord(run.runId(), run.label(), run.spec(), run.planned(), run.hashesPlanned(), run.createdAt(),
                "complete", run.shards(), run.enqueued(), run.enqueueError(), run.completeShards(), run.completionSentBy(),
                run.completionSentAt());
        return ItemSize.of(complete.toItem());
    }

}
