package batchpipe.producer;

import batchpipe.common.config.FunctionEnvironment;
import batchpipe.common.task.TaskLimits;

import java.util.Map;

/**
 * The producer's configuration, read once at init.
 *
 * @param recordHost whether each run record names the machine the run's functions run on
 *                   ({@code BATCHPIPE_RECORD_HOST=true}, which Batchpipe's local runtime sets; never on Lambda)
 */
public record ProducerConfig(String tableName, String tasksQueueUrl, TaskLimits limits, int sendCallsInFlight, boolean recordHost) {
    public ProducerConfig(String tableName, String tasksQueueUrl, TaskLimits limits, int sendCallsInFlight) {
        this(tableName, tasksQueueUrl, limits, sendCallsInFlight, false);
    }

    public static ProducerConfig from(Map<String, String> env) {
        return new ProducerConfig(
                FunctionEnvironment.require(env, "TABLE_NAME"),
                FunctionEnvironment.require(env, "TASKS_QUEUE_URL"),
                new TaskLimits(FunctionEnvironment.intValue(env, "MAX_HASH_COST", TaskLimits.DEFAULT_MAX_HASH_COST, TaskLimits.MIN_HASH_COST, 31)),
                FunctionEnvironment.intValue(env, "SEND_CALLS_IN_FLIGHT", 8, 1, 64),
                "true".equalsIgnoreCase(env.getOrDefault("BATCHPIPE_RECORD_HOST", "").strip()));
    }
}
