package batchpipe.local.chaos;

import batchpipe.common.spec.RunSpec;
import batchpipe.common.table.RunPartition;
import batchpipe.common.table.RunPartitions;
import batchpipe.common.table.ProgressShards;
import batchpipe.common.table.TableKeys;
import batchpipe.common.task.HashTask;
import batchpipe.common.task.TaskIds;
import batchpipe.local.stack.LocalStack;
import batchpipe.producer.listing.ObjectLister;
import org.mindrot.jbcrypt.BCrypt;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import batchpipe.local.run.RunWatcher;
import batchpipe.local.runtime.LocalPipeline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Checks a finished run's books the way an auditor would, from the stored items alone:
 * <ol>
 *   <li>every task the spec plans (recomputed from the spec and a fresh listing) has exactly one final
 *       record, and there is no record of a task that was not planned;</li>
 *   <li>the progress shards counted exactly the recorded tasks, once each, and their counters by status
 *       equal the records by status; a record that names its progress shard was counted in that one;</li>
 *   <li>every done hash task has exactly its batch of hash items, indexes start..start+count-1, each
 *       verifying against its password;</li>
 *   <li>every task recorded as failed went through the dead-letter queue (its recorder marked it), and
 *       the dead-letter queue and the poison queue are empty: nothing is left unrecorded;</li>
 *   <li>the aggregator's summary exists.</li>
 * </ol>
 * and says for every planned task where it ended: planned, recorded once, counted once, and its status,
 * with "via dead letter" when the dead-letter recorder closed its books.
 */
public final class Books {
    /** One task's books: planned or not, how many records and counts it has, and where it ended. */
    public record TaskBooks(String taskId, boolean planned, int records, int counted, String status, boolean deadLettered) {
        public String line() {
            return String.format(Locale.ROOT, "%-22s planned %-3s recorded %dx  counted %dx  ended %s", taskId, planned ? "yes" : "NO",
                    records, counted, status == null ? "NOWHERE" : status + (deadLettered ? " (via dead letter)" : ""));
        }
    }

    /** The audit's figures, every task's books, and every discrepancy found (none when the books balance). */
    /**
     * @param partitionKeys how many partition keys hold the run's task items (1 for a run of the single-key layout)
     * @param keysHoldingTasks how many of them hold at least one task record
     */
    public record Audit(long planned, Map<String, Long> recordsByStatus, Map<String, Long> countersByStatus, long counted,
                        long hashItems, long deadLetters, List<TaskBooks> tasks, List<String> problems, int partitionKeys,
                        int keysHoldingTasks) {
        public boolean balanced() {
            return problems.isEmpty();
        }

        public String summary() {
            return String.format(Locale.ROOT, "planned %d, records %s, counters %s, counted %d, hash items %d, closed via dead letter %d,"
                            + " task records on %d of %d partition keys: %s",
                    planned, recordsByStatus, countersByStatus, counted, hashItems, deadLetters, keysHoldingTasks, partitionKeys,
                    balanced() ? "the books balance" : problems.size() + " problems: " + problems);
        }
    }

    private Books() {
    }

    /**
     * Waits until nothing of a live pipeline is in flight, before its books are audited: no handler runs
     * (not even one the runtime stopped waiting for) and the tasks queue and its dead-letter queue are empty,
     * three checks in a row, for at most one visibility timeout and 30 s (a returning message, a delete that
     * failed or a late duplicate, shows up within one visibility timeout). Returns the seconds waited.
     */
    public static double settle(LocalPipeline pipeline) throws InterruptedException {
        LocalStack stack = pipeline.stack();
        int visibility = Integer.parseInt(stack.sqs().getQueueAttributes(b -> b.queueUrl(stack.ref("TasksQueue"))
                .attributeNamesWithStrings("VisibilityTimeout")).attributesAsStrings().get("VisibilityTimeout"));
        long start = System.nanoTime();
        long deadline = start + Duration.ofSeconds(visibility + 30L).toNanos();
        int quiet = 0;
        while (quiet < 3 && System.nanoTime() < deadline) {
            boolean idle = pipeline.runtime().handlersRunning() == 0
                    && RunWatcher.queueEmpty(stack.sqs(), stack.ref("TasksQueue"))
                    && RunWatcher.queueEmpty(stack.sqs(), stack.ref("TasksDeadLetterQueue"));
            quiet = idle ? quiet + 1 : 0;
            Thread.sleep(250);
        }
        return (System.nanoTime() - start) / 1e9;
    }

    @SuppressWarnings("unchecked")
    public static Audit audit(LocalStack stack, String runId) {
        String table = stack.ref("RunsTable");
        List<String> problems = new ArrayList<>();
        Map<String, Map<String, AttributeValue>> records = new TreeMap<>();
        Map<String, List<Map<String, AttributeValue>>> hashes = new TreeMap<>();
        Set<String> counted = new HashSet<>();
        Map<String, Integer> countedTimes = new TreeMap<>();
        Map<String, Integer> countedIn = new HashMap<>();
        Map<String, Long> counters = new TreeMap<>();
        Map<String, AttributeValue> run = null;
        boolean summary = false;
        long plannedFromShards = 0;
        RunPartitions layout = RunPartition.layoutOf(stack.dynamoDb(), table, runId);
        for (Map<String, AttributeValue> item : RunPartition.items(stack.dynamoDb(), table, layout, null)) {
            String sk = item.get(TableKeys.SK).s();
            String pk = item.get(TableKeys.PK).s();
            // every item on the key the run's layout gives it, or no reader would find it there
            if ((sk.startsWith(TableKeys.TASK_PREFIX) || sk.startsWith(TableKeys.HASH_PREFIX)) && item.containsKey("taskId")
                    && !pk.equals(layout.taskPk(item.get("taskId").s()))) {
                problems.add(sk + " is on " + pk + ", not on its task's key " + layout.taskPk(item.get("taskId").s()));
            }
            if (sk.equals(TableKeys.RUN_SK)) run = item;
            else if (sk.equals(TableKeys.SUMMARY_SK)) summary = true;
            else if (sk.startsWith(TableKeys.TASK_PREFIX)) records.put(item.get("taskId").s(), item);
            else if (sk.startsWith(TableKeys.HASH_PREFIX)) hashes.computeIfAbsent(item.get("taskId").s(), k -> new ArrayList<>()).add(item);
            else if (sk.startsWith(TableKeys.PROGRESS_PREFIX)) {
                ProgressShards.Shard shard = ProgressShards.Shard.fromItem(item);
                plannedFromShards += shard.planned();
                int shardNumber = Integer.parseInt(sk.substring(TableKeys.PROGRESS_PREFIX.length()));
                for (String id : shard.counted()) {
                    countedTimes.merge(id, 1, Integer::sum);
                    countedIn.put(id, shardNumber);
                    if (!counted.add(id)) problems.add("task " + id + " counted in two shards");
                }
                shard.byStatus().forEach((status, n) -> counters.merge(status.wireName(), n, Long::sum));
            }
        }
        if (run == null) {
            return new Audit(0, Map.of(), counters, counted.size(), 0, 0, List.of(), List.of("run " + runId + " has no run record"),
                    layout.itemPks().size(), 0);
        }
        RunSpec spec = RunSpec.fromJson(run.get("spec").s());
        Map<String, HashTask> plannedHashTasks = new LinkedHashMap<>();
        Set<String> planned = plannedTaskIds(stack, runId, spec, plannedHashTasks);
        if (planned.size() != plannedFromShards) {
            problems.add("the spec plans " + planned.size() + " tasks but the progress shards planned " + plannedFromShards);
        }
        for (String id : planned) {
            if (!records.containsKey(id)) problems.add("planned task " + id + " has no final record");
        }
        for (String id : records.keySet()) {
            if (!planned.contains(id)) problems.add("record of task " + id + ", which was not planned");
        }
        Map<String, Long> byStatus = new TreeMap<>();
        records.forEach((id, r) -> byStatus.merge(r.get("status").s(), 1L, Long::sum));
        if (!counted.equals(records.keySet())) {
            Set<String> notCounted = new TreeSet<>(records.keySet());
            notCounted.removeAll(counted);
            Set<String> countedWithoutRecord = new TreeSet<>(counted);
            countedWithoutRecord.removeAll(records.keySet());
            problems.add("counted tasks differ from records: not counted " + notCounted + ", counted without a record " + countedWithoutRecord);
        }
        records.forEach((id, r) -> {
            if (r.containsKey("progressShard") && countedIn.containsKey(id)
                    && Integer.parseInt(r.get("progressShard").n()) != countedIn.get(id)) {
                problems.add("record of task " + id + " names progress shard " + r.get("progressShard").n() + " but shard "
                        + countedIn.get(id) + " counted it");
            }
        });
        if (!counters.equals(byStatus)) {
            problems.add("counters by status " + counters + " differ from records by status " + byStatus);
        }
        long hashItems = 0;
        for (HashTask batch : plannedHashTasks.values()) {
            Map<String, AttributeValue> record = records.get(batch.taskId());
            List<Map<String, AttributeValue>> items = hashes.getOrDefault(batch.taskId(), List.of());
            hashItems += items.size();
            if (record == null || !"done".equals(record.get("status").s())) continue;
            long start = batch.start();
            Set<Long> indexes = new TreeSet<>();
            for (Map<String, AttributeValue> item : items) {
                long index = Long.parseLong(item.get("index").n());
                if (index < start || index >= start + batch.count() || !indexes.add(index)) {
                    problems.add("hash task " + batch.taskId() + " has a stray or duplicate item at index " + index);
                } else if (!BCrypt.checkpw(batch.input((int) (index - start)), item.get("hash").s())) {
                    problems.add("hash item " + batch.taskId() + "#" + index + " does not verify");
                }
            }
            if (indexes.size() != batch.count()) {
                problems.add("hash task " + batch.taskId() + " is done with " + indexes.size() + " of " + batch.count() + " hash items");
            }
        }
        long deadLettered = 0;
        for (Map.Entry<String, Map<String, AttributeValue>> r : records.entrySet()) {
            boolean marked = r.getValue().containsKey("deadLetteredAt");
            if (marked) deadLettered++;
            if ("failed".equals(r.getValue().get("status").s()) && !marked) {
                problems.add("task " + r.getKey() + " is recorded failed but never went through the dead-letter queue");
            }
        }
        leftIn(stack, "TasksDeadLetterQueue", "the dead-letter queue still holds %s messages: tasks whose books nobody closed", problems);
        leftIn(stack, "PoisonMessagesQueue", "the poison queue holds %s messages that belong to no run", problems);
        if (!summary) problems.add("no summary item: the aggregator did not report the run");
        Set<String> everyTask = new TreeSet<>(planned);
        everyTask.addAll(records.keySet());
        List<TaskBooks> books = new ArrayList<>();
        for (String id : everyTask) {
            Map<String, AttributeValue> record = records.get(id);
            books.add(new TaskBooks(id, planned.contains(id), record == null ? 0 : 1, countedTimes.getOrDefault(id, 0),
                    record == null ? null : record.get("status").s(), record != null && record.containsKey("deadLetteredAt")));
        }
        return new Audit(planned.size(), byStatus, counters, counted.size(), hashItems, deadLettered, books, problems,
                layout.itemPks().size(), (int) records.values().stream().map(r -> r.get(TableKeys.PK).s()).distinct().count());
    }

    /** Adds a problem when the queue holds any message, visible or in flight. */
    private static void leftIn(LocalStack stack, String queueLogicalId, String problem, List<String> problems) {
        Map<String, String> attributes = stack.sqs().getQueueAttributes(b -> b.queueUrl(stack.ref(queueLogicalId))
                .attributeNamesWithStrings("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings();
        long messages = Long.parseLong(attributes.get("ApproximateNumberOfMessages")) + Long.parseLong(attributes.get("ApproximateNumberOfMessagesNotVisible"));
        if (messages > 0) problems.add(String.format(Locale.ROOT, problem, messages));
    }

    /**
     * The tasks the spec plans, as the producer plans them: each source's objects as its lister gives them (its
     * suffix, no folder markers or empty objects, at most maxObjects), a key that two sources name once, and the
     * hash batches, which go into {@code hashTasks} by task id.
     */
    private static Set<String> plannedTaskIds(LocalStack stack, String runId, RunSpec spec, Map<String, HashTask> hashTasks) {
        Set<String> planned = new TreeSet<>();
        ObjectLister lister = new ObjectLister(stack.s3());
        for (RunSpec.ScanSource source : spec.scan()) {
            lister.forEachScannable(source, object -> planned.add(TaskIds.scanTaskId(runId, source.bucket(), object.key())));
        }
        RunSpec.HashSpec hash = spec.hash();
        for (int batch = 1; hash != null && batch <= hash.batches(); batch++) {
            String taskId = TaskIds.hashTaskId(batch);
            planned.add(taskId);
            hashTasks.put(taskId, new HashTask(runId, taskId, null, hash.cost(), hash.batchSize(), hash.prefix(), hash.firstIndex(batch), null));
        }
        return planned;
    }

}
