package batchpipe.common.log;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import software.amazon.lambda.powertools.logging.argument.StructuredArgument;
import software.amazon.lambda.powertools.logging.argument.StructuredArguments;

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

    private final Logger logger;

    private StructuredLog(Logger logger) {
        this.logger = logger;
    }

    public static StructuredLog of(Class<?> owner) {
        return new StructuredLog(LoggerFactory.getLogger(owner));
    }

    public void info(String message, Object... keyValues) {
        if (logger.isInfoEnabled()) logger.info(message, (Object[]) arguments(keyValues, null));
    }

    public void warn(String message, Object... keyValues) {
        if (logger.isWarnEnabled()) logger.warn(message, (Object[]) arguments(keyValues, null));
    }

    public void error(String message, Throwable error, Object... keyValues) {
        logger.error(message, arguments(keyValues, error));
    }

    /** Key/value pairs as structured arguments; a throwable last, as SLF4J expects it. */
    private static Object[] arguments(Object[] keyValues, Throwable error) {
        Object[] arguments = new Object[keyValues.length / 2 + (error == null ? 0 : 1)];
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            String key = String.valueOf(keyValues[i]);
            StructuredArgument entry = StructuredArguments.entry(RESERVED.contains(key) ? key + "Detail" : key, keyValues[i + 1]);
            arguments[i / 2] = entry;
        }
        if (error != null) arguments[arguments.length - 1] = error;
        return arguments;
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
