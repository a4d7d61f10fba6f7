package batchpipe.common.log;

import batchpipe.common.json.Json;

import java.io.PrintStream;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One JSON object per line on stdout, which Lambda ships to CloudWatch Logs and Logs Insights can
 * query by field ({@code runId}, {@code taskId}, {@code messageId}). Callers pass identifiers and
 * figures, never task inputs: passwords must not reach a log.
 */
public final class StructuredLog {
    private final String logger;

    private StructuredLog(String logger) {
        this.logger = logger;
    }

    public static StructuredLog of(Class<?> owner) {
        return new StructuredLog(owner.getSimpleName());
    }

    public void info(String message, Object... keyValues) {
        write("INFO", message, null, keyValues);
    }

    public void warn(String message, Object... keyValues) {
        write("WARN", message, null, keyValues);
    }

    public void error(String message, Throwable error, Object... keyValues) {
        write("ERROR", message, error, keyValues);
    }

    private void write(String level, String message, Throwable error, Object... keyValues) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("timestamp", Instant.now().toString());
        line.put("level", level);
        line.put("logger", logger);
        line.put("message", message);
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            line.put(String.valueOf(keyValues[i]), keyValues[i + 1]);
        }
        if (error != null) {
            line.put("error", error.getClass().getSimpleName() + ": " + error.getMessage());
        }
        // Looked up on each line: a host (the local CLI) may redirect a function's stdout.
        PrintStream out = System.out;
        out.println(Json.write(line));
    }
}
