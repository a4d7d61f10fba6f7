package batchpipe.worker.pool;

import batchpipe.common.config.FunctionEnvironment;

import java.util.Map;

/**
 * How many threads the worker's ForkJoin pool gets.
 *
 * <p>Lambda gives CPU in proportion to memory: 1,769 MB is one full vCPU and 10,240 MB is six. But the
 * JVM sees at least two processors even at 128 MB, so {@code availableProcessors()} alone over-states
 * what a small function can use, and extra threads there only add contention. The rule:
 * <ul>
 *   <li>{@code WORKER_COUNT} when set (1 to 256), for measurements and for users who know better;</li>
 *   <li>else {@code ceil(memoryMb / 1769)} (the vCPUs the memory pays for), capped at the visible
 *       processors and at least 1. Without {@code AWS_LAMBDA_FUNCTION_MEMORY_SIZE} (a laptop, the CLI)
 *       the visible processors.</li>
 * </ul>
 *
 * @param threads  the pool's parallelism
 * @param vcpuShare the CPU share the memory size buys ({@code memoryMb / 1769}, at most 6), or the
 *                 visible processors when the memory size is unknown
 */
public record PoolSize(int threads, double vcpuShare) {
    public static final int MB_PER_VCPU = 1_769;
    public static final int MAX_LAMBDA_VCPUS = 6;

    public static PoolSize from(Map<String, String> env, int availableProcessors) {
        String memory = env.get("AWS_LAMBDA_FUNCTION_MEMORY_SIZE");
        double share = memory == null || memory.isBlank()
                ? availableProcessors
                : Math.min(MAX_LAMBDA_VCPUS, FunctionEnvironment.intValue(env, "AWS_LAMBDA_FUNCTION_MEMORY_SIZE", 0, 128, 10_240) / (double) MB_PER_VCPU);
        int threads;
        if (env.get("WORKER_COUNT") != null && !env.get("WORKER_COUNT").isBlank()) {
            threads = FunctionEnvironment.intValue(env, "WORKER_COUNT", 1, 1, 256);
        } else {
            threads = Math.max(1, Math.min(availableProcessors, (int) Math.ceil(share - 1e-9)));
        }
        return new PoolSize(threads, Math.round(share * 1000) / 1000.0);
    }
}
