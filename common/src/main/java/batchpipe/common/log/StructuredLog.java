package batchpipe.common.log;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import software.amazon.lambda.powertools.logging.argument.StructuredArguments;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Logging for the functions: SLF4J through Powertools' Log4j JSON layout, so every line is one JSON
 * object with the Lambda context, the MDC (runId, taskId, messageId while a task runs) and the
 * key/value pairs given here. Callers pass identifiers and figures, never task inputs: passwords must
 * not reach a log.
 */
public final class StructuredLog {
    /** Keys the Lambda JSON layout writes itself; a structured argument by these names would be dropped. */
    private static final Set<String> RESERVED = Set.of("level", "message", "error", "timestamp", "service", "cold_start",
            "function_arn", "function_memory_size", "function_name", "function_request_id", "function_version",
            "sampling_rate", "xray_trace_id", "correlation_id");

    /**
     * What a line logged outside an invocation (init, SnapStart hooks) knows of its function: Lambda's
     * variables for the function, under the names Powertools gives them inside an invocation.
     */
    private static final Map<String, String> ENVIRONMENT_FIELDS = environmentFields(System.getenv());

    private final Logger logger;

    private StructuredLog(Logger logger) {
        this.logger = logger;
    }

    public static StructuredLog of(Class<?> owner) {
        return new StructuredLog(LoggerFactory.getLogger(owner));
    }

    public void info(String message, Object... keyValues) {
        if (logger.isInfoEnabled()) withEnvironmentFields(() -> logger.info(message, arguments(keyValues, null)));
    }

    public void warn(String message, Object... keyValues) {
        if (logger.isWarnEnabled()) withEnvironmentFields(() -> logger.warn(message, arguments(keyValues, null)));
    }

    public void error(String message, Throwable error, Object... keyValues) {
        withEnvironmentFields(() -> logger.error(message, arguments(keyValues, error)));
    }

    /**
     * Key/value pairs as structured arguments; a throwable last, as SLF4J expects it. The layout writes
     * the MDC and the arguments side by side, so a pair the MDC already holds is dropped (same value) or
     * renamed {@code <key>Detail} (another value): every key appears once on a line.
     */
    static Object[] arguments(Object[] keyValues, Throwable error) {
        Map<String, String> context = MDC.getCopyOfContextMap();
        List<Object> arguments = new ArrayList<>(keyValues.length / 2 + 1);
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            String key = String.valueOf(keyValues[i]);
            Object value = keyValues[i + 1];
            String inContext = context == null ? null : context.get(key);
            if (inContext != null && inContext.equals(String.valueOf(value))) continue;
            boolean taken = RESERVED.contains(key) || inContext != null;
            arguments.add(StructuredArguments.entry(taken ? key + "Detail" : key, value));
        }
        if (error != null) arguments.add(error);
        return arguments.toArray();
    }

    /** Outside an invocation (no function_name in the MDC), the function's own fields from Lambda's variables. */
    private static void withEnvironmentFields(Runnable log) {
        if (ENVIRONMENT_FIELDS.isEmpty() || MDC.get("function_name") != null) {
            log.run();
            return;
        }
        ENVIRONMENT_FIELDS.forEach(MDC::put);
        try {
            log.run();
        } finally {
            ENVIRONMENT_FIELDS.keySet().forEach(MDC::remove);
        }
    }

    static Map<String, String> environmentFields(Map<String, String> env) {
        Map<String, String> fields = new LinkedHashMap<>();
        if (env.get("AWS_LAMBDA_FUNCTION_NAME") == null) return fields;
        fields.put("function_name", env.get("AWS_LAMBDA_FUNCTION_NAME"));
        if (env.get("AWS_LAMBDA_FUNCTION_VERSION") != null) fields.put("function_version", env.get("AWS_LAMBDA_FUNCTION_VERSION"));
        if (env.get("AWS_LAMBDA_FUNCTION_MEMORY_SIZE") != null) fields.put("function_memory_size", env.get("AWS_LAMBDA_FUNCTION_MEMORY_SIZE"));
        if (env.get("POWERTOOLS_SERVICE_NAME") != null) fields.put("service", env.get("POWERTOOLS_SERVICE_NAME"));
        return Map.copyOf(fields);
    }

    /** Runs {@code work} with the given identifiers on every line it logs (MDC), then restores the previous ones. */
    public static <T> T withContext(Map<String, String> identifiers, Supplier<T> work) {
        Map<String, String> previous = MDC.getCopyOfContextMap();
        identifiers.forEach((k, v) -> {
            if (v != null) MDC.put(k, v);
        });
        try {
            return work.get();
        } finally {
            if (previous == null) MDC.clear();
            else MDC.setContextMap(previous);
        }
    }
}
