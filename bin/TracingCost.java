import batchpipe.common.trace.Tracing;

import java.lang.management.ManagementFactory;

/**
 * One measurement of what tracing adds, in a fresh JVM, for bin/tracing-cost: MODE is none (baseline),
 * ours (batchpipe.common.trace.Tracing) or sdk (the X-Ray SDK's recorder, aws-xray-recorder-sdk-core).
 * Prints one line: mode, milliseconds from main() to the first subsegment sent (class loading and the
 * tracer's set-up included), classes loaded for it, and microseconds per subsegment once warm (begin,
 * end, one UDP datagram to the daemon address), over WARM subsegments after as many for warm-up.
 */
public final class TracingCost {
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int warm = Integer.parseInt(args[1]);
        long classesBefore = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
        long start = System.nanoTime();
        Runnable one = switch (mode) {
            case "none" -> () -> { };
            case "ours" -> () -> Tracing.current().trace("scan", () -> null);
            case "sdk" -> () -> {
                com.amazonaws.xray.AWSXRay.beginSubsegment("scan");
                com.amazonaws.xray.AWSXRay.endSubsegment();
            };
            default -> throw new IllegalArgumentException("mode: none, ours or sdk");
        };
        one.run();
        double firstMs = (System.nanoTime() - start) / 1e6;
        long classes = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount() - classesBefore;
        for (int i = 0; i < warm; i++) one.run();
        long t0 = System.nanoTime();
        for (int i = 0; i < warm; i++) one.run();
        double warmUs = (System.nanoTime() - t0) / 1e3 / warm;
        System.out.printf(java.util.Locale.ROOT, "%s first_ms=%.1f classes=%d warm_us=%.2f%n", mode, firstMs, classes, warmUs);
    }
}
