package batchpipe.worker.task;

import batchpipe.common.table.TableCall;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * What one worker invocation did, per run: the tasks it closed, every DynamoDB call it timed, and the
 * runs whose completion it must announce. The announcements wait for the end of the invocation, after
 * its invocation records are written, so that the aggregator never reads a run before they are there
 * (see {@code InvocationBooks}). Filled from the batch's message threads at once.
 */
public final class InvocationLedger {
    /** A run this invocation completed: the task whose count completed it, and the claim the run record held then. */
    public record Completion(String runId, String taskId, String claimedBy, String messageId) {
    }

    private record Timed(String runId, TableCall call, long micros) {
    }

    private final ConcurrentLinkedQueue<Timed> calls = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> tasksClosed = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Completion> completions = new ConcurrentLinkedQueue<>();

    /** The timer of one task of {@code runId}: its own totals, and each call kept here. */
    public WriteStats statsFor(String runId) {
        if (runId == null) return new WriteStats();
        return new WriteStats((call, micros) -> calls.add(new Timed(runId, call, micros)));
    }

    /** A task of the run got its final record (or was counted again) in this invocation. */
    public void taskClosed(String runId) {
        if (runId != null) tasksClosed.add(runId);
    }

    public void runCompleted(Completion completion) {
        completions.add(completion);
    }

    /** The runs this invocation worked for, with the tasks it closed of each (0 when it only made calls). */
    public Map<String, Integer> tasksByRun() {
        Map<String, Integer> tasks = new TreeMap<>();
        calls.forEach(c -> tasks.putIfAbsent(c.runId(), 0));
        tasksClosed.forEach(runId -> tasks.merge(runId, 1, Integer::sum));
        return tasks;
    }

    /** Each call's latency in milliseconds, by call, for one run, in the order they finished. */
    public Map<TableCall, List<Double>> callsOf(String runId) {
        Map<TableCall, List<Double>> byCall = new EnumMap<>(TableCall.class);
        for (Timed t : calls) {
            if (t.runId().equals(runId)) byCall.computeIfAbsent(t.call(), c -> new ArrayList<>()).add(t.micros() / 1000.0);
        }
        return byCall;
    }

    public List<Completion> completions() {
        return List.copyOf(completions);
    }
}
