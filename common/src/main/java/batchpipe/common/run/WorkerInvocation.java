package batchpipe.common.run;

/**
 * The worker invocation that wrote a task record: what Lambda ran it on. Every field is null 
 * on a record written by the dead-letter recorder, which ran no task.
 *
 * @param memoryMb   the function's memory size
 * @param threads    the worker threads the task could use
 * @param vcpuShare  vCPUs Lambda gives that memory size (memory / 1769 MB)
 * @param coldStart  whether this invocation initialised the instance
 * @param initMs     the instance's init time, on a cold start
 */
public record WorkerInvocation(String requestId, String functionName, String functionVersion, Integer memoryMb,
                               String architecture, Integer threads, Double vcpuShare, Boolean coldStart, Long initMs) {
    public static final WorkerInvocation NONE = new WorkerInvocation(null, null, null, null, null, null, null, null, null);

    /** Whether this invocation initialised the instance (false when not known). */
    public boolean cold() {
        return Boolean.TRUE.equals(coldStart);
    }

    void writeTo(ItemWriter item) {
        item.put("requestId", requestId).put("functionName", functionName).put("functionVersion", functionVersion)
                .put("memoryMb", memoryMb).put("architecture", architecture).put("threads", threads)
                .put("vcpuShare", vcpuShare).put("coldStart", coldStart).put("initMs", initMs);
    }

    static WorkerInvocation readFrom(ItemReader item) {
        return new WorkerInvocation(item.string("requestId"), item.string("functionName"), item.string("functionVersion"),
                item.intOrNull("memoryMb"), item.string("architecture"), item.intOrNull("threads"), item.doubleOrNull("vcpuShare"),
                item.bool("coldStart"), item.longOrNull("initMs"));
    }
}
