package batchpipe.local.chaos;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The template parameters of a chaos run. Faults make messages come back, so a chaos run wants them
 * back within minutes, not the production 720 s; it gets that by shrinking the worker's timeout and
 * deriving the visibility timeout from it as the template's rule says (at least 6 x WorkerTimeout),
 * never by breaking the rule: a visibility timeout shorter than the work lets a message come back
 * while it still runs, use up its receives and reach the dead-letter queue as a done task (the
 * reason 11 of 16 chaos demos once failed their audit). The demo's tasks shrink with the timeout
 * (see DemoCommand), so that a batch fits in it with room to spare on a loaded machine.
 */
public final class ChaosStackSettings {
    /** Seconds: a chaos batch of small tasks takes well under a second; five leaves room for a loaded machine. */
    public static final int WORKER_TIMEOUT_SECONDS = 5;
    /** No new message starts with less than this left of an invocation (the production default is 10 s). */
    public static final int SAFETY_MARGIN_MS = 1_500;
    /** Survives a few injected failures in a row before a task is dead-lettered. */
    public static final int MAX_RECEIVE_COUNT = 5;

    private ChaosStackSettings() {
    }

    /**
     * The parameters for a chaos run: the user's overrides win, the rest are set here, and the result
     * must keep the visibility rule. {@code oneTaskPerBatch}: a forced crash kills its instance, and with
     * it every message of its batch; one message per batch keeps its neighbours out of it.
     */
    public static Map<String, String> parameterOverrides(Map<String, String> userOverrides, boolean oneTaskPerBatch) {
        Map<String, String> parameters = new LinkedHashMap<>(userOverrides);
        parameters.putIfAbsent("WorkerTimeout", Integer.toString(WORKER_TIMEOUT_SECONDS));
        int workerTimeout = positive(parameters, "WorkerTimeout");
        parameters.putIfAbsent("TasksVisibilityTimeout", Integer.toString(6 * workerTimeout));
        parameters.putIfAbsent("WorkerSafetyMarginMs", Integer.toString(Math.min(SAFETY_MARGIN_MS, workerTimeout * 1000 / 3)));
        parameters.putIfAbsent("MaxReceiveCount", Integer.toString(MAX_RECEIVE_COUNT));
        if (oneTaskPerBatch) parameters.putIfAbsent("WorkerBatchSize", "1");
        int visibility = positive(parameters, "TasksVisibilityTimeout");
        if (visibility < 6 * workerTimeout) {
            throw new IllegalArgumentException("TasksVisibilityTimeout=" + visibility + " breaks the template's rule: it must be at least 6 x "
                    + "WorkerTimeout = " + 6 * workerTimeout + " s, or messages come back while still running and reach the dead-letter"
                    + " queue as done tasks; raise it or lower WorkerTimeout");
        }
        if (positive(parameters, "WorkerSafetyMarginMs") >= workerTimeout * 1000) {
            throw new IllegalArgumentException("WorkerSafetyMarginMs=" + parameters.get("WorkerSafetyMarginMs") + " must be below WorkerTimeout ("
                    + workerTimeout * 1000 + " ms), or no task would ever start");
        }
        return parameters;
    }

    private static int positive(Map<String, String> parameters, String name) {
        String value = parameters.get(name);
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 0) return n;
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(name + "=" + value + " is not a whole number of at least 0");
    }
}
