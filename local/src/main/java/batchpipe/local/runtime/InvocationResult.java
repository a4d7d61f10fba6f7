package batchpipe.local.runtime;
import java.util.Locale;

/**
 * The outcome of one local invocation, with the facts Lambda prints on its REPORT line.
 *
 * @param response     the response JSON, or Lambda's error document when {@code error} is set
 * @param error        the error type ("Runtime.Timeout" for a timeout), or null on success
 * @param billedMs     Billed Duration: ceil(duration + init) on a cold start, as Lambda bills the INIT phase since
 *                     1 August 2025, else ceil(duration)
 * @param initMs       the instance's init (handler construction) time on a cold start, else null
 * @param maxMemoryMb  the peak resident memory of this whole process (emulators included)
 */
public record InvocationResult(String functionLogicalId, String requestId, String response, String error,
                               double durationMs, long billedMs, int memorySizeMb, long maxMemoryMb, Double initMs) {

    public boolean failed() {
        return error != null;
    }

    public boolean timedOut() {
        return "Runtime.Timeout".equals(error);
    }

    /** Lambda's REPORT line. */
    public String reportLine() {
        StringBuilder line = new StringBuilder()
                .append("REPORT RequestId: ").append(requestId)
                .append("\tDuration: ").append(String.format(Locale.ROOT, "%.2f", durationMs)).append(" ms")
                .append("\tBilled Duration: ").append(billedMs).append(" ms")
                .append("\tMemory Size: ").append(memorySizeMb).append(" MB")
                .append("\tMax Memory Used: ").append(maxMemoryMb).append(" MB");
        if (initMs != null) {
            line.append("\tInit Duration: ").append(String.format(Locale.ROOT, "%.2f", initMs)).append(" ms");
        }
        if (timedOut()) {
            line.append("\tStatus: timeout");
        }
        return line.toString();
    }
}
