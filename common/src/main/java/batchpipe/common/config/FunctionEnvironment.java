package batchpipe.common.config;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The environment a function sees at init. On Lambda it is the process environment; the local
 * in-process runtime hosts several functions in one JVM, so it lays each function's own variables
 * over the process environment while that function's handler is constructed. Handlers read it once,
 * at init, into configuration records: never from domain code.
 */
public final class FunctionEnvironment {
    private static final ThreadLocal<Map<String, String>> OVERLAY = new ThreadLocal<>();

    private FunctionEnvironment() {
    }

    public static Map<String, String> current() {
        Map<String, String> overlay = OVERLAY.get();
        if (overlay == null) {
            return System.getenv();
        }
        Map<String, String> merged = new HashMap<>(System.getenv());
        merged.putAll(overlay);
        return merged;
    }

    /** Runs {@code init} (a handler's construction) with {@code variables} laid over the process environment. */
    public static <T> T withVariables(Map<String, String> variables, Supplier<T> init) {
        Map<String, String> previous = OVERLAY.get();
        OVERLAY.set(Map.copyOf(variables));
        try {
            return init.get();
        } finally {
            if (previous == null) OVERLAY.remove();
            else OVERLAY.set(previous);
        }
    }

    /** A required variable, or an error that names it and says where it comes from. */
    public static String require(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("environment variable " + name + " is not set; template.yaml sets it on the function"
                    + " (for sam local invoke pass it with --env-vars, see README)");
        }
        return value;
    }

    public static int intValue(Map<String, String> env, String name, int defaultValue, int min, int max) {
        String value = env.get(name);
        if (value == null || value.isBlank()) return defaultValue;
        try {
            int n = Integer.parseInt(value.trim());
            if (n < min || n > max) {
                throw new IllegalStateException("environment variable " + name + " is " + n + "; it must be between " + min + " and " + max);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalStateException("environment variable " + name + " must be a whole number, got '" + value + "'");
        }
    }
}
