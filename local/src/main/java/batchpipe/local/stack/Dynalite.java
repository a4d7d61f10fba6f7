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
    private final Process process;
    private final int port;

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
                Thread drain = new Thread(() -> drain(output), "dynalite-output");
                drain.setDaemon(true);
                drain.start();
                return new Dynalite(process, actual);
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

    private static void drain(BufferedReader output) {
        try {
            while (output.readLine() != null) {
                // dynalite is quiet; anything it says is not needed, but the pipe must not fill up.
            }
        } catch (IOException ignored) {
            // the process ended
        }
    }

    public int port() {
        return port;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(3, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
