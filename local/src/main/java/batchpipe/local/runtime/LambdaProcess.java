package batchpipe.local.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One function under the open-source Lambda Java runtime, in its own JVM, started the way Lambda
 * starts it: the runtime's jars on the class path, {@code AWSLambda} as the main class with the
 * handler as its argument, the working directory at the function's folder (the runtime loads the
 * function from there: classes at the root, jars in lib/), Lambda's reserved variables and the
 * function's own. Everything it prints goes to a log file. The deploy tests run the built functions
 * this way, and {@code ./batchpipe bench} times their cold starts with it.
 */
public final class LambdaProcess implements AutoCloseable {
    public static final String MAIN_CLASS = "com.amazonaws.services.lambda.runtime.api.client.AWSLambda";

    private final Process process;
    private final Path log;
    private final long startedNanos;

    private LambdaProcess(Process process, Path log, long startedNanos) {
        this.process = process;
        this.log = log;
        this.startedNanos = startedNanos;
    }

    /**
     * @param memoryMb    the function's MemorySize: the heap limit and AWS_LAMBDA_FUNCTION_MEMORY_SIZE
     * @param environment the function's variables and the endpoints of the stack it talks to
     * @param snapStart   true: init as SnapStart does for a published version (before-checkpoint hooks,
     *                    {@code restore/next}, after-restore hooks); false: an on-demand cold start
     */
    public static LambdaProcess start(Path functionDir, Path runtimeDir, String functionName, String handler, int memoryMb,
                                      Map<String, String> environment, String runtimeApi, boolean snapStart, Path log) throws IOException {
        return start(functionDir, runtimeDir, functionName, handler, memoryMb, environment, runtimeApi, snapStart, log, List.of());
    }

    /**
     * {@link #start} through a launcher: a command prefix that prepares the process and then execs the
     * java command (the sweep's places it in a CPU-capped cgroup before the JVM starts).
     */
    public static LambdaProcess start(Path functionDir, Path runtimeDir, String functionName, String handler, int memoryMb,
                                      Map<String, String> environment, String runtimeApi, boolean snapStart, Path log,
                                      List<String> launcher) throws IOException {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(command(runtimeDir, handler, memoryMb, environment));

        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        env.put("LANG", "en_US.UTF-8");
        env.put("TZ", ":UTC");
        env.put("AWS_EXECUTION_ENV", "AWS_Lambda_java21");
        env.put("AWS_LAMBDA_RUNTIME_API", runtimeApi);
        env.put("_HANDLER", handler);
        env.put("LAMBDA_TASK_ROOT", functionDir.toAbsolutePath().toString());
        env.put("LAMBDA_RUNTIME_DIR", runtimeDir.toAbsolutePath().toString());
        env.put("AWS_LAMBDA_FUNCTION_NAME", functionName);
        env.put("AWS_LAMBDA_FUNCTION_VERSION", snapStart ? "1" : "$LATEST");
        env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", Integer.toString(memoryMb));
        env.put("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/" + functionName);
        env.put("AWS_LAMBDA_LOG_STREAM_NAME", "2026/01/01/[1]ric-test");
        // As Lambda sets it: snap-start for a published version's snapshot, on-demand for an ordinary init.
        env.put("AWS_LAMBDA_INITIALIZATION_TYPE", snapStart ? "snap-start" : "on-demand");
        env.putAll(environment);

        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(functionDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().clear();
        builder.environment().putAll(env);
        Files.createDirectories(log.toAbsolutePath().getParent());
        long startedNanos = System.nanoTime();
        return new LambdaProcess(builder.start(), log, startedNanos);
    }

    /**
     * The java command line Lambda's Java 21 runtime starts a function with: the runtime's own JVM flags
     * (heap from the memory size, serial GC, class data sharing, C1 only unless the function's
     * JAVA_TOOL_OPTIONS names a level) and the runtime interface client as the main class. The JVM also
     * picks up JAVA_TOOL_OPTIONS from the environment, as on Lambda.
     */
    public static List<String> command(Path runtimeDir, String handler, int memoryMb, Map<String, String> environment) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:MaxHeapSize=" + (memoryMb * 85 / 100) + "m");
        command.add("-XX:+UseSerialGC");
        command.add("-Xshare:auto");
        command.add("-XX:+ErrorFileToStderr");
        command.add("-Djava.net.preferIPv4Stack=true");
        // Lambda's runtime runs org.crac resources through its own CRaC context.
        command.add("-Dorg.crac.Core.Compat=com.amazonaws.services.lambda.crac");
        command.add("--add-opens=java.base/java.io=ALL-UNNAMED");
        // Lambda's Java 17 and 21 runtimes stop at C1 unless the function's JAVA_TOOL_OPTIONS says otherwise.
        if (!environment.getOrDefault("JAVA_TOOL_OPTIONS", "").contains("TieredStopAtLevel")) {
            command.add("-XX:+TieredCompilation");
            command.add("-XX:TieredStopAtLevel=1");
        }
        int feature = Runtime.version().feature();
        if (feature >= 22) {
            command.add("--enable-native-access=ALL-UNNAMED"); // the runtime's JNI client, zstd-jni
        }
        if (feature >= 24) {
            command.add("--sun-misc-unsafe-memory-access=allow"); // the runtime's UnsafeUtil
        }
        command.add("-cp");
        command.add(runtimeDir.toAbsolutePath() + "/*");
        command.add(MAIN_CLASS);
        command.add(handler);
        return command;
    }

    /** {@link System#nanoTime()} just before the JVM was spawned. */
    public long startedNanos() {
        return startedNanos;
    }

    /** The operating system's id of the process (of the JVM, once a launcher has exec'd it). */
    public long pid() {
        return process.pid();
    }

    /** CPU time (user + system, every thread) the process has used so far; empty where the OS does not say. */
    public Optional<Duration> cpuTime() {
        return process.toHandle().info().totalCpuDuration();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    /** The last lines of the output, for failure messages. */
    public String outputTail(int lines) {
        List<String> all = output().lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
