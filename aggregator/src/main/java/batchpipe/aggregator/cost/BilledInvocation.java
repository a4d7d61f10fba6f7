package batchpipe.aggregator.cost;

import batchpipe.aggregator.report.ReportJson;
import batchpipe.common.json.JsonFields;
import batchpipe.common.json.JsonWritable;

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
                               long billedMs, long initBilledMs, int tasks, String source, Integer maxMemoryUsedMb)
        implements JsonWritable {
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

    @Override
    public Object toJsonValue() {
        return new JsonFields().put("requestId", requestId).put("function", function).put("architecture", architecture)
                .put("memoryMb", memoryMb).put("billedMs", billedMs).put("initBilledMs", initBilledMs).put("tasks", tasks)
                .put("source", source).putPresent("maxMemoryUsedMb", maxMemoryUsedMb);
    }

    public static BilledInvocation fromJson(ReportJson json) {
        return new BilledInvocation(json.string("requestId"), json.string("function"), json.string("architecture"),
                json.intValue("memoryMb"), json.longValue("billedMs"), json.longValue("initBilledMs"), json.intValue("tasks"),
                json.string("source"), json.optInt("maxMemoryUsedMb"));
    }
}
