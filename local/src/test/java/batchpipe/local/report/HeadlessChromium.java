package batchpipe.local.report;

import batchpipe.local.stack.TempFolders;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Renders a page in headless Chromium, as a person's browser would, and returns what it saw: the DOM
 * after rendering, every console message (Chromium logs them to stderr as {@code :CONSOLE} lines,
 * errors, CSP violations and uncaught exceptions included) and a screenshot.
 */
final class HeadlessChromium {
    static final String MISSING = "headless Chromium is not installed (apt-get install -y chromium, or set CHROMIUM to its path);"
            + " the HTML rendering checks are skipped";
    private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable");

    record Page(String dom, List<String> consoleMessages, BufferedImage screenshot) {
    }

    private final Path executable;

    private HeadlessChromium(Path executable) {
        this.executable = executable;
    }

    /** The browser this renders with, for another tool to use the same one. */
    Path executable() {
        return executable;
    }

    static Optional<HeadlessChromium> find() {
        String configured = System.getenv("CHROMIUM");
        if (configured != null && Files.isExecutable(Path.of(configured))) return Optional.of(new HeadlessChromium(Path.of(configured)));
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            for (String name : NAMES) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) return Optional.of(new HeadlessChromium(candidate));
            }
        }
        return Optional.empty();
    }

    Page render(Path html, Path workDir, int width, int height) throws IOException, InterruptedException {
        Path screenshot = workDir.resolve("screenshot.png");
        Run dom = run(workDir.resolve("profile-dom"), List.of("--dump-dom", html.toUri().toString()));
        Run shot = run(workDir.resolve("profile-shot"), List.of("--window-size=" + width + "," + height, "--hide-scrollbars",
                "--screenshot=" + screenshot, html.toUri().toString()));
        List<String> console = new ArrayList<>(dom.consoleMessages());
        console.addAll(shot.consoleMessages());
        BufferedImage image = Files.isRegularFile(screenshot) ? ImageIO.read(screenshot.toFile()) : null;
        if (image == null) throw new IllegalStateException("Chromium wrote no screenshot; its output:\n" + shot.stderr());
        return new Page(dom.stdout(), console, image);
    }

    private record Run(String stdout, String stderr, List<String> consoleMessages) {
    }

    private Run run(Path profile, List<String> action) throws IOException, InterruptedException {
        Files.createDirectories(profile);
        List<String> command = new ArrayList<>(List.of(executable.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0"));
        command.addAll(action);
        Path out = profile.resolve("stdout.txt");
        Path err = profile.resolve("stderr.txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        // Chromium puts its singleton socket in a folder of TMPDIR, and a headless run leaves it behind: a folder of our
        // own, deleted after the run. Short, under the system's temporary folder: a socket's path has room for ~107
        // bytes, and past that Chromium falls back to /tmp itself.
        Path tmp = Files.createTempDirectory("chromium");
        builder.environment().put("TMPDIR", tmp.toString());
        try {
            Process process = builder.start();
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("Chromium did not finish within 90 s: " + command);
            }
        } finally {
            TempFolders.deleteQuietly(tmp);
        }
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        List<String> console = stderr.lines().filter(line -> line.contains(":CONSOLE")).toList();
        return new Run(Files.readString(out, StandardCharsets.UTF_8), stderr, console);
    }

    /** Pixels close to {@code rgb} (each channel within 40): how much of a chart colour the screenshot shows. */
    static long pixelsNear(BufferedImage image, int rgb) {
        int r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
        long n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int p = image.getRGB(x, y);
                if (Math.abs(((p >> 16) & 0xff) - r) < 40 && Math.abs(((p >> 8) & 0xff) - g) < 40 && Math.abs((p & 0xff) - b) < 40) n++;
            }
        }
        return n;
    }
}
