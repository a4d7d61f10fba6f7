package batchpipe.aggregator.cost;

import batchpipe.aggregator.report.ReportJson;
import batchpipe.common.json.JsonFields;
import batchpipe.common.json.JsonWritable;

import java.util.Locale;

/**
 * One Lambda invocation as the cost model prices it.
 *
 * @param billedMs     billed milliseconds of the invocation, the start of a cold instance included (Billed Duration
 *                     of its REPORT line)
 * @param initBilledMs the part of {@code billedMs} that started the instance: the INIT phase of an on-demand cold
 *                     start, or the Billed Restore Duration of a SnapStart restore; 0 when warm or when the INIT was
 *                     not billed. Never an amount to add to {@code billedMs}
 * @param tasks        task records written by this invocation (0 for the producer, the aggregator, or a
 *                     worker invocation whose tasks all failed and came back)
 * @param source       {@link #FROM_REPORT_LINE} or {@link #FROM_TASK_RECORDS}
 * @param maxMemoryUsedMb Max Memory Used from the REPORT line; null where no REPORT line says it
 * @param start        how the instance that ran it was started
 */
public record BilledInvocation(String requestId, String function, String architecture, int memoryMb,
                               long billedMs, long initBilledMs, int tasks, String source, Integer maxMemoryUsedMb,
                               Start start)
        implements JsonWritable {
    public static final String FROM_REPORT_LINE = "REPORT line";
    /** No REPORT line: last finishedAt - first startedAt of the invocation's tasks, a lower bound. */
    public static final String FROM_TASK_RECORDS = "task records";

    /** How the instance that ran an invocation was started, as its REPORT line (or task records) tell. */
    public enum Start {
        /** An instance that had served an invocation before. */
        WARM,
        /** An on-demand cold start whose INIT phase is inside Billed Duration (Lambda's rule since 1 August 2025). */
        INIT,
        /** A cold start whose INIT was not billed (managed runtimes' ZIP functions before 1 August 2025). */
        INIT_NOT_BILLED,
        /** A SnapStart instance restored from its snapshot; Billed Restore Duration is inside Billed Duration. */
        SNAPSTART_RESTORE;

        public boolean cold() {
            return this != WARM;
        }

        public String jsonName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        static Start fromJson(String name) {
            for (Start s : values()) if (s.jsonName().equals(name)) return s;
            throw new IllegalArgumentException("unknown invocation start \"" + name + "\"; expected one of warm, init,"
                    + " init-not-billed, snapstart-restore");
        }
    }

    /** An on-demand invocation: cold when some of its billed time was INIT. */
    public BilledInvocation(String requestId, String function, String architecture, int memoryMb,
                            long billedMs, long initBilledMs, int tasks, String source, Integer maxMemoryUsedMb) {
        this(requestId, function, architecture, memoryMb, billedMs, initBilledMs, tasks, source, maxMemoryUsedMb,
                initBilledMs > 0 ? Start.INIT : Start.WARM);
    }

    /** An on-demand invocation whose Max Memory Used is not known. */
    public BilledInvocation(String requestId, String function, String architecture, int memoryMb,
                            long billedMs, long initBilledMs, int tasks, String source) {
        this(requestId, function, architecture, memoryMb, billedMs, initBilledMs, tasks, source, null);
    }

    public boolean coldStart() {
        return start.cold();
    }

    @Override
    public Object toJsonValue() {
        return new JsonFields().put("requestId", requestId).put("function", function).put("architecture", architecture)
                .put("memoryMb", memoryMb).put("billedMs", billedMs).put("initBilledMs", initBilledMs).put("tasks", tasks)
                .put("source", source).putPresent("maxMemoryUsedMb", maxMemoryUsedMb).put("start", start.jsonName());
    }

    /**
     * Reads an invocation back. Reports written before INIT was read as part of Billed Duration have no {@code start}:
     * their {@code initBilledMs} was priced on top of {@code billedMs}, and their cost figures were computed so; they
     * are read as written (docs/COST.md says how to tell them apart).
     */
    public static BilledInvocation fromJson(ReportJson json) {
        long init = json.longValue("initBilledMs");
        String start = json.optString("start");
        return new BilledInvocation(json.string("requestId"), json.string("function"), json.string("architecture"),
                json.intValue("memoryMb"), json.longValue("billedMs"), init, json.intValue("tasks"),
                json.string("source"), json.optInt("maxMemoryUsedMb"),
                start != null ? Start.fromJson(start) : init > 0 ? Start.INIT : Start.WARM);
    }
}
