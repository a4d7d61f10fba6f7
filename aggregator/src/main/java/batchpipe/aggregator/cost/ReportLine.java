package batchpipe.aggregator.cost;

/**
 * What Lambda's REPORT line says about one invocation: the source of billed duration and init time.
 * Locally the in-process runtime records these facts; on AWS they are in the functions' log groups.
 *
 * <p>Each field is what the line says, nothing derived: which part of Billed Duration was spent
 * starting the instance is {@link #startShare()}'s question, answered from these fields as docs/COST.md
 * explains ("Billed duration and cold starts").
 *
 * @param function         the function's name
 * @param architecture     {@code arm64} or {@code x86_64}: the machine the invocation ran on
 * @param durationMs       Duration: the invoke phase
 * @param billedMs         Billed Duration: what Lambda bills for the invocation, in whole milliseconds. Since
 *                         1 August 2025 it includes the INIT phase of a cold start for every function (before,
 *                         only for container images and custom runtimes), and for SnapStart the Billed Restore
 *                         Duration
 * @param initMs           Init Duration on an on-demand cold start, else null
 * @param maxMemoryUsedMb  Max Memory Used, in the MB of the REPORT line; null where it is not known (the
 *                         in-process runtime shares one JVM between functions and cannot tell)
 * @param restoreMs        Restore Duration of a SnapStart cold start (the whole restore, not all of it billed), else null
 * @param billedRestoreMs  Billed Restore Duration of a SnapStart cold start (loading the runtime and the after-restore
 *                         hooks), else null
 */
public record ReportLine(String requestId, String function, String architecture, int memoryMb,
                         double durationMs, long billedMs, Double initMs, Integer maxMemoryUsedMb,
                         Double restoreMs, Long billedRestoreMs) {

    /** A REPORT line of an on-demand (not SnapStart) invocation. */
    public ReportLine(String requestId, String function, String architecture, int memoryMb,
                      double durationMs, long billedMs, Double initMs, Integer maxMemoryUsedMb) {
        this(requestId, function, architecture, memoryMb, durationMs, billedMs, initMs, maxMemoryUsedMb, null, null);
    }

    /** A REPORT line of an on-demand invocation without Max Memory Used. */
    public ReportLine(String requestId, String function, String architecture, int memoryMb,
                      double durationMs, long billedMs, Double initMs) {
        this(requestId, function, architecture, memoryMb, durationMs, billedMs, initMs, null, null, null);
    }

    /**
     * How the instance that ran this invocation was started, and how many of {@link #billedMs} that start took.
     * The share is part of Billed Duration, never an amount to add to it.
     *
     * <ul>
     *   <li>SnapStart restore: Billed Restore Duration, which Lambda includes in Billed Duration
     *       ({@code ceil(Duration + Billed Restore Duration)}).</li>
     *   <li>On-demand INIT, the rule since 1 August 2025: Billed Duration is {@code ceil(Duration + Init Duration)},
     *       so the INIT share is Billed Duration less the invoke phase, {@code ceil(Duration)}.</li>
     *   <li>INIT not billed: a line whose Billed Duration does not hold its Init Duration, as managed runtimes'
     *       ZIP functions were billed before that date: the share is 0.</li>
     * </ul>
     */
    public StartShare startShare() {
        if (billedRestoreMs != null || restoreMs != null) {
            long restore = billedRestoreMs == null ? 0 : Math.max(0, Math.min(billedRestoreMs, billedMs));
            return new StartShare(BilledInvocation.Start.SNAPSTART_RESTORE, restore);
        }
        if (initMs == null) return new StartShare(BilledInvocation.Start.WARM, 0);
        long invokeMs = (long) Math.ceil(durationMs);
        // One millisecond of slack: Lambda rounds the sum once, and Insights may print durations rounded to 2 decimals.
        boolean initInside = billedMs + 1 >= (long) Math.ceil(durationMs + initMs);
        if (!initInside) return new StartShare(BilledInvocation.Start.INIT_NOT_BILLED, 0);
        return new StartShare(BilledInvocation.Start.INIT, Math.max(0, Math.min(billedMs - invokeMs, billedMs)));
    }

    /** How an instance was started, and the milliseconds of Billed Duration that start took. */
    public record StartShare(BilledInvocation.Start start, long billedMs) {
    }
}
