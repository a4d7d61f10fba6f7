package batchpipe.aggregator.cost;

/**
 * What Lambda's REPORT line says about one invocation: the source of billed duration and init time.
 * Locally the in-process runtime records these facts; on AWS they are in the functions' log groups.
 *
 * @param function         the function's name
 * @param architecture     {@code arm64} or {@code x86_64}: the machine the invocation ran on
 * @param billedMs         Billed Duration: the invocation rounded up to the millisecond
 * @param initMs           Init Duration on a cold start, else null
 * @param maxMemoryUsedMb  Max Memory Used, in the MB of the REPORT line; null where it is not known (the
 *                         in-process runtime shares one JVM between functions and cannot tell)
 */
public record ReportLine(String requestId, String function, String architecture, int memoryMb,
                         double durationMs, long billedMs, Double initMs, Integer maxMemoryUsedMb) {

    /** A REPORT line without Max Memory Used. */
    public ReportLine(String requestId, String function, String architecture, int memoryMb,
                      double durationMs, long billedMs, Double initMs) {
        this(requestId, function, architecture, memoryMb, durationMs, billedMs, initMs, null);
    }
}
