package batchpipe.local.stack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * dynalite, the DynamoDB emulator, as a child process. Installed on first use from the pinned lockfile
 * ({@code npm ci} into local/dynalite/node_modules). The child holds our stdin pipe and exits when it
 * closes, so it never outlives this JVM, not even after a crash or {@code kill -9}; a shutdown hook
 * and {@link #close()} stop it sooner in the normal cases.
 */
public final class Dynalite implements AutoCloseable {
    /** How many of dynalite's last output lines are kept, to say why it died if it does. */
    private static final int KEPT_LINES = 40;

    private final Process process;
    private final int port;
    private final java.util.ArrayDeque<String> lastLines = new java.util.ArrayDeque<>();
    private volatile boolean stopping;

    private Dynalite(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    public static Dynalite start(Path projectHome, int port) throws IOException, InterruptedException {
        Path folder = projectHome.resolve("local/dynalite");
        ensureInstalled(folder);
        Process process = new ProcessBuilder("node", folder.resolve("serve.js").toString(), "--port", Integer.toString(port))
                .directory(folder.toFile())
                .redirectErrorStream(true)
                .start();
        Thread hook = new Thread(process::destroy, "dynalite-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        List<String> lines = new ArrayList<>();
        String line;
        while ((line = output.readLine()) != null) {
            lines.add(line);
            if (line.startsWith("dynalite listening on ")) {
                int actual = Integer.parseInt(line.substring("dynalite listening on ".length()).trim());
                Dynalite dynalite = new Dynalite(process, actual);
                Thread drain = new Thread(() -> dynalite.drain(output), "dynalite-output");
                drain.setDaemon(true);
                drain.start();
                return dynalite;
            }
        }
        process.waitFor(5, TimeUnit.SECONDS);
        throw new IOException("dynalite did not start (exit " + (process.isAlive() ? "?" : process.exitValue()) + "): " + String.join(" | ", lines));
    }

    /** npm ci from the committed lockfile, once; a clear message when Node.js is missing. */
    static synchronized void ensureInstalled(Path folder) throws IOException, InterruptedException {
        if (Files.isRegularFile(folder.resolve("node_modules/dynalite/package.json"))) return;
        if (!Files.isRegularFile(folder.resolve("package-lock.json"))) {
            throw new IOException(folder.resolve("package-lock.json") + " is missing; it pins dynalite");
        }
        System.err.println("batchpipe: installing dynalite (DynamoDB emulator) from " + folder.resolve("package-lock.json") + " ...");
        Process npm;
        try {
            npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
                    .directory(folder.toFile())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new IOException("the local stack needs Node.js 20+ and npm on PATH to run dynalite: " + e.getMessage(), e);
        }
        String log = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (npm.waitFor() != 0) {
            throw new IOException("npm ci in " + folder + " failed:\n" + log);
        }
    }

    /**
     * Reads dynalite's output so the pipe never fills, keeping the last lines: should the emulator die
     * while we still use it, every later DynamoDB call fails with "Connection refused", and only these
     * lines say why.
     */
    private void drain(BufferedReader output) {
        try {
            String line;
            while ((line = output.readLine()) != null) {
                synchronized (lastLines) {
                    if (lastLines.size() == KEPT_LINES) lastLines.removeFirst();
                    lastLines.addLast(line);
                }
            }
        } catch (IOException ignored) {
            // the process ended
        }
        try {
            int exit = process.waitFor();
            if (!stopping) {
                synchronized (lastLines) {
                    System.err.println("batchpipe: dynalite (DynamoDB emulator) exited unexpectedly with code " + exit
                            + (lastLines.isEmpty() ? "" : "; its last output:\n  " + String.join("\n  ", lastLines)));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public int port() {
        return port;
    }

    @Override
    public void close() {
        stopping = true;
        process.destroy();
        try {
            if (!process.waitFor(3, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
