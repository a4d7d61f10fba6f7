package batchpipe.common.log;

import com.amazonaws.services.lambda.runtime.Context;
import org.slf4j.MDC;
import software.amazon.lambda.powertools.logging.PowertoolsLogging;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The Lambda context on every line a handler logs during an invocation, through Powertools' functional
 * API, with two fields Powertools gets wrong for us set by this execution environment itself:
 * <ul>
 *   <li>{@code cold_start}: true on the first invocation after this environment's INIT (the invocation
 *   whose REPORT line carries an Init Duration) and on the first one after each SnapStart restore (its
 *   REPORT line carries a Restore Duration); false otherwise, and always under provisioned concurrency,
 *   whose INIT ran before any request. Powertools keeps one JVM-wide flag that it sets from
 *   {@code AWS_LAMBDA_INITIALIZATION_TYPE} ({@code on-demand} only) and clears on the first call in the
 *   JVM, so it is false after every restore and wrong wherever several environments share a JVM (the
 *   local runtime).</li>
 *   <li>{@code service}: the function's {@code POWERTOOLS_SERVICE_NAME} as its handler saw it at init
 *   (Powertools reads the process environment once per JVM).</li>
 * </ul>
 * One instance per handler object, that is per execution environment.
 */
public final class InvocationLog {
    static final String COLD_START = "cold_start";
    static final String SERVICE = "service";

    private final String service;
    private final boolean provisioned;
    private final AtomicBoolean coldPending = new AtomicBoolean(true);

    private InvocationLog(String service, boolean provisioned) {
        this.service = service;
        this.provisioned = provisioned;
    }

    /** For the environment a handler sees at init ({@code FunctionEnvironment.current()}). */
    public static InvocationLog of(Map<String, String> env) {
        String service = env.getOrDefault("POWERTOOLS_SERVICE_NAME", "");
        return new InvocationLog(service.isBlank() ? "batchpipe" : service,
                "provisioned-concurrency".equals(env.get("AWS_LAMBDA_INITIALIZATION_TYPE")));
    }

    /** Runs one invocation's work with the Lambda context on every line it logs, then clears it. */
    public <T> T around(Context context, Supplier<T> work) {
        boolean cold = coldPending.compareAndSet(true, false) && !provisioned;
        if (context == null) { // called directly (a test, a tool), not by a Lambda runtime: no request to describe
            return StructuredLog.withContext(Map.of(COLD_START, Boolean.toString(cold), SERVICE, service), work);
        }
        return PowertoolsLogging.withLogging(context, () -> {
            MDC.put(COLD_START, Boolean.toString(cold));
            MDC.put(SERVICE, service);
            return work.get();
        });
    }

    /** Called after a SnapStart restore: the next invocation is this environment's cold start. */
    public void restored() {
        coldPending.set(true);
    }

    /** Whether the invocation running on this thread is a cold start (as its log lines say). */
    public static boolean coldStart() {
        return Boolean.parseBoolean(MDC.get(COLD_START));
    }
}
