package batchpipe.worker;

import batchpipe.common.config.FunctionEnvironment;
import batchpipe.common.task.TaskLimits;
import batchpipe.worker.pool.PoolSize;

import java.util.Map;

/**
 * The worker's configuration, read once at init.
 *
 * @param maxReceiveCount the tasks queue's redrive maxReceiveCount: on that receive a transient failure
 *                        is recorded as {@code failed} before the message goes to the dead-letter queue
 * @param safetyMarginMs  no new message starts when less than this remains of the invocation
 * @param metricsNamespace the CloudWatch namespace of the EMF metrics ({@code POWERTOOLS_METRICS_NAMESPACE})
 */
public record WorkerConfig(String tableName, String completionsQueueUrl, int maxReceiveCount, TaskLimits limits,
                           PoolSize poolSize, int memoryMb, String functionName, String functionVersion,
                           long safetyMarginMs, String metricsNamespace, String serviceName) {

    public static WorkerConfig from(Map<String, String> env) {
        return new WorkerConfig(
                FunctionEnvironment.require(env, "TABLE_NAME"),
                FunctionEnvironment.require(env, "COMPLETIONS_QUEUE_URL"),
                FunctionEnvironment.intValue(env, "MAX_RECEIVE_COUNT", 3, 1, 1_000),
                new TaskLimits(FunctionEnvironment.intValue(env, "MAX_HASH_COST", TaskLimits.DEFAULT_MAX_HASH_COST, TaskLimits.MIN_HASH_COST, 31)),
                PoolSize.from(env, Runtime.getRuntime().availableProcessors()),
                FunctionEnvironment.intValue(env, "AWS_LAMBDA_FUNCTION_MEMORY_SIZE", 0, 0, 10_240),
                env.getOrDefault("AWS_LAMBDA_FUNCTION_NAME", "batchpipe-worker"),
                env.getOrDefault("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST"),
                FunctionEnvironment.intValue(env, "SAFETY_MARGIN_MS", 10_000, 0, 900_000),
                env.getOrDefault("POWERTOOLS_METRICS_NAMESPACE", "Batchpipe"),
                env.getOrDefault("POWERTOOLS_SERVICE_NAME", "batchpipe-worker"));
    }
}
