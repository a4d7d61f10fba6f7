package batchpipe.aggregator.cost;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One Lambda invocation as the cost model prices it.
 *
 * @param billedMs     billed milliseconds of the invoke phase
 * @param initBilledMs billed milliseconds of the INIT phase: ceil(init duration) on a cold start, else 0
 * @param tasks        task records written by this invocation (0 for the producer, the aggregator, or a
 *                     worker invocation whose tasks all failed and came back)
 * @param source       {@link #FROM_REPORT_LINE} or {@link #FROM_TASK_RECORDS}
 * @param maxMemoryUsedMb Max Memory Used from the REPORT line; null where no REPORT line says it
 */
public record BilledInvocation(String requestId, String function, String architecture, int memoryMb,
                               long billedMs, long initBilledMs, int tasks, String source, Integer maxMemoryUsedMb) {
    public static final String FROM_REPORT_LINE = "REPORT line";
    /** No REPORT line: last finishedAt - first startedAt of the invocation's tasks, a lower bound. */
    public static final String FROM_TASK_RECORDS = "task records";

    /** An invocation whose Max Memory Used is not known. */
    public BilledInvocation(String requestId, String function, String architecture, int memoryMb,
                            long billedMs, long initBilledMs, int tasks, String source) {
        this(requestId, function, architecture, memoryMb, billedMs, initBilledMs, tasks, source, null);
    }

    public boolean coldStart() {
        return initBilledMs > 0;
    }

    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("requestId", requestId);
        json.put("function", function);
        json.put("architecture", architecture);
        json.put("memoryMb", memoryMb);
        json.put("billedMs", billedMs);
        json.put("initBilledMs", initBilledMs);
        json.put("tasks", tasks);
        json.put("source", source);
        if (maxMemoryUsedMb != null) json.put("maxMemoryUsedMb", maxMemoryUsedMb);
        return json;
    }
}
