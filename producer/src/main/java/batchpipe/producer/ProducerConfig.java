package batchpipe.producer;

import batchpipe.common.config.FunctionEnvironment;
import batchpipe.common.task.TaskLimits;

import java.util.Map;

/**
 * The producer's configuration, read once at init.
 *
 * @param workerMaxConcurrency the stack's WorkerMaxConcurrency: the most worker invocations writing a run's items at once,
 *                             which sizes how many partition keys the run is spread over (docs/SCALE.md)
 * @param planningMarginMs     time an invocation keeps back: with less left, it hands planning to a continuation
 * @param planningMaxReceives  receives of a continuation after which a run that still fails to plan is marked enqueue-failed
 * @param recordHost           whether each run record names the machine the run's functions run on
 *                             ({@code BATCHPIPE_RECORD_HOST=true}, which Batchpipe's local runtime sets; never on Lambda)
 */
public record ProducerConfig(String tableName, String tasksQueueUrl, String planningQueueUrl, String completionsQueueUrl,
                             TaskLimits limits, int sendCallsInFlight, int workerMaxConcurrency, int planningMarginMs,
                             int planningMaxReceives, boolean recordHost) {
    /** A configuration that records no host (the producer on Lambda). */
    public ProducerConfig(String tableName, String tasksQueueUrl, String planningQueueUrl, String completionsQueueUrl,
                          TaskLimits limits, int sendCallsInFlight, int workerMaxConcurrency, int planningMarginMs,
                          int planningMaxReceives) {
        this(tableName, tasksQueueUrl, planningQueueUrl, completionsQueueUrl, limits, sendCallsInFlight, workerMaxConcurrency,
                planningMarginMs, planningMaxReceives, false);
    }

    public static ProducerConfig from(Map<String, String> env) {
        return new ProducerConfig(
                FunctionEnvironment.require(env, "TABLE_NAME"),
                FunctionEnvironment.require(env, "TASKS_QUEUE_URL"),
                FunctionEnvironment.require(env, "PLANNING_QUEUE_URL"),
                FunctionEnvironment.require(env, "COMPLETIONS_QUEUE_URL"),
                new TaskLimits(FunctionEnvironment.intValue(env, "MAX_HASH_COST", TaskLimits.DEFAULT_MAX_HASH_COST, TaskLimits.MIN_HASH_COST, 31)),
                FunctionEnvironment.intValue(env, "SEND_CALLS_IN_FLIGHT", 8, 1, 64),
                FunctionEnvironment.intValue(env, "WORKER_MAX_CONCURRENCY", RunPlanner.Settings.DEFAULT_WORKER_MAX_CONCURRENCY, 1, 1000),
                FunctionEnvironment.intValue(env, "PLANNING_MARGIN_MS", (int) RunPlanner.Settings.DEFAULT_PLANNING_MARGIN_MS, 1_000, 600_000),
                FunctionEnvironment.intValue(env, "PLANNING_MAX_RECEIVES", 3, 1, 100),
                "true".equalsIgnoreCase(env.getOrDefault("BATCHPIPE_RECORD_HOST", "").strip()));
    }

    public RunPlanner.Settings plannerSettings() {
        return new RunPlanner.Settings(tableName, tasksQueueUrl, planningQueueUrl, completionsQueueUrl, limits, sendCallsInFlight,
                workerMaxConcurrency, planningMarginMs);
    }
}
