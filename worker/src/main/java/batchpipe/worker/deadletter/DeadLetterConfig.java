package batchpipe.worker.deadletter;

import batchpipe.common.config.FunctionEnvironment;
import batchpipe.common.task.TaskLimits;

import java.util.Map;

/**
 * The dead-letter recorder's configuration, read once at init.
 *
 * @param poisonQueueUrl where messages that are not tasks of a known run go, for a person to read
 */
public record DeadLetterConfig(String tableName, String completionsQueueUrl, String poisonQueueUrl, TaskLimits limits) {

    public static DeadLetterConfig from(Map<String, String> env) {
        return new DeadLetterConfig(
                FunctionEnvironment.require(env, "TABLE_NAME"),
                FunctionEnvironment.require(env, "COMPLETIONS_QUEUE_URL"),
                FunctionEnvironment.require(env, "POISON_QUEUE_URL"),
                new TaskLimits(FunctionEnvironment.intValue(env, "MAX_HASH_COST", TaskLimits.DEFAULT_MAX_HASH_COST, TaskLimits.MIN_HASH_COST, 31)));
    }
}
