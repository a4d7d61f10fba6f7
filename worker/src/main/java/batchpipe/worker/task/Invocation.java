package batchpipe.worker.task;

import batchpipe.common.run.WorkerInvocation;

/**
 * Facts about the invocation a task ran in, stored on its record so the aggregator can break figures
 * down by architecture and memory and tell cold starts apart.
 *
 * @param architecture {@code arm64} or {@code x86_64}: the machine the code really ran on
 * @param initMs       the function's init time, on the first (cold) invocation only
 */
public record Invocation(String requestId, String functionName, String functionVersion, int memoryMb,
                         String architecture, int threads, double vcpuShare, boolean coldStart, Long initMs) {

    /** The invocation as its task records state it. */
    public WorkerInvocation forRecord() {
        return new WorkerInvocation(requestId, functionName, functionVersion, memoryMb, architecture, threads, vcpuShare, coldStart, initMs);
    }

    /** The JVM's os.arch in Lambda's own words. */
    public static String normalizedArchitecture(String osArch) {
        return switch (osArch) {
            case "aarch64", "arm64" -> "arm64";
            case "amd64", "x86_64", "x86-64" -> "x86_64";
            default -> osArch;
        };
    }
}
