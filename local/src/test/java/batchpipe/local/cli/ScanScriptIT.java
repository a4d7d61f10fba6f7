package batchpipe.local.cli;

import batchpipe.local.stack.ProjectHome;
import com.github.luben.zstd.Zstd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./batchpipe scan} as a user runs it, through the script and the built jar: the path without
 * picocli (CliMain, ScanFastStart), the script's scan flags, and zstd-jni's library loaded from
 * local/target/native rather than copied out of its jar, which nothing else would notice if it silently
 * stopped (the scan still works, ~50 ms slower to start), and the scan's end without {@code System.exit}.
 */
class ScanScriptIT {
    private static final Path HOME = ProjectHome.find();

    private record Result(int exit, String stdout, String stderr) {
    }

    private static Result script(String javaOptions, String... args) throws Exception {
        return script(Map.of(), javaOptions, args);
    }

    private static Result script(Map<String, String> environment, String javaOptions, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", HOME.resolve("batchpipe").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(HOME.toFile());
        builder.environment().put("BATCHPIPE_CDS", "0"); // this test's options would record caches of their own
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        builder.environment().put("BATCHPIPE_JAVA_OPTS", javaOptions);
        builder.environment().remove("GLIBC_TUNABLES");
        builder.environment().putAll(environment);
        Path stderr = Files.createTempFile("scan-script", ".err");
        builder.redirectError(stderr.toFile());
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(3, TimeUnit.MINUTES)).as("./batchpipe finished").isTrue();
        String err = Files.readString(stderr);
        Files.delete(stderr);
        return new Result(process.exitValue(), out, err);
    }

    /** The environment variables a JVM started with, as its JFR recording kept them. */
    private static Map<String, String> environmentOf(Path recording) throws Exception {
        Map<String, String> environment = new HashMap<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            if (event.getEventType().getName().equals("jdk.InitialEnvironmentVariable")) {
                environment.put(event.getString("key"), event.getString("value"));
            }
        }
        assertThat(environment).as("the recording's environment").isNotEmpty();
        return environment;
    }

    /** The folder, under local/target/native, that the script puts on java.library.path on this platform. */
    private static String nativeLibraries() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        if (os.startsWith("linux")) return "linux/" + arch;
        if (os.startsWith("mac")) return "darwin/" + (arch.equals("amd64") ? "x86_64" : arch);
        return null;
    }

    @Test
    void aScanPrintsItsStatsLoadingZstdFromTheUnpackedLibraryAndAUsageErrorStillGetsPicocliSMessage(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("app.jsonl.zst");
        Files.write(log, Zstd.compress("{\"level\":\"info\"}\n{\"level\":\"error\"}\nnot json\n".getBytes(StandardCharsets.UTF_8)));

        Result scan = script("-Xlog:library=info -Xlog:class+load=info", "scan", log.toString(), "--workers", "2", "--count-by", "level");
        assertThat(scan.exit()).as(scan.stderr()).isZero();
        String stats = scan.stdout().lines().filter(line -> line.startsWith("{")).findFirst().orElseThrow();
        assertThat(stats).contains("\"events\":2", "\"malformed\":1", "\"level\":{\"error\":1,\"info\":1}");
        String natives = nativeLibraries();
        if (natives != null) { // the platforms the build unpacks a library for and the script knows
            assertThat(HOME.resolve("local/target/native").resolve(natives)).as("unpacked by the build").isDirectory();
            assertThat(scan.stdout() + scan.stderr()).as("zstd-jni's library from the build's folder")
                    .containsPattern("Loaded library \\S*local/target/native/" + natives + "/libzstd-jni-");
        }

        // Ended without Runtime.exit, whose exit logging looks for a logger backend in every jar of the class
        // path (0.1-0.2 s at the end of every scan): that lookup's class is never loaded
        assertThat(scan.stdout()).contains("batchpipe.local.cli.CliMain").doesNotContain("BootstrapLogger$DetectBackend");

        // and the shutdown hooks still run: a JFR recording asked for on the command line is written at the end
        Path recording = dir.resolve("scan.jfr");
        Result recorded = script("-XX:StartFlightRecording=filename=" + recording, "scan", log.toString());
        assertThat(recorded.exit()).as(recorded.stderr()).isZero();
        assertThat(recording).as("the recording, dumped by its shutdown hook").isNotEmptyFile();

        // the scan's JVM starts with the script's malloc settings (the recording keeps the environment it
        // started in), and a user's own GLIBC_TUNABLES comes after them, so that theirs win
        Matcher malloc = Pattern.compile("(?m)^scan_malloc=\"([^\"]+)\"$").matcher(Files.readString(HOME.resolve("batchpipe")));
        assertThat(malloc.find()).as("./batchpipe's scan_malloc line").isTrue();
        assertThat(environmentOf(recording).get("GLIBC_TUNABLES")).isEqualTo(malloc.group(1));
        Path withOwn = dir.resolve("own-tunables.jfr");
        Result own = script(Map.of("GLIBC_TUNABLES", "glibc.malloc.arena_max=2"), "-XX:StartFlightRecording=filename=" + withOwn,
                "scan", log.toString());
        assertThat(own.exit()).as(own.stderr()).isZero();
        assertThat(environmentOf(withOwn).get("GLIBC_TUNABLES")).isEqualTo(malloc.group(1) + ":glibc.malloc.arena_max=2");

        // a failure found while scanning still reaches stderr, with its exit code
        Path corrupt = dir.resolve("corrupt.jsonl.zst");
        Files.write(corrupt, new byte[] {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 'n', 'o', 't', ' ', 'z', 's', 't', 'd'});
        Result failed = script("", "scan", corrupt.toString());
        assertThat(failed.exit()).isEqualTo(1);
        assertThat(failed.stderr()).contains("zstd data is corrupt or truncated");

        // the pool's low priority takes effect only under ThreadPriorityPolicy=1, and the warning the JVM
        // prints with it for anyone but root (about its own threads) stays off the scan's stderr; no
        // performance-counter file is made (start-up time)
        Result flags = script("-XX:+PrintFlagsFinal", "scan", log.toString());
        assertThat(flags.exit()).as(flags.stderr()).isZero();
        assertThat(flags.stdout()).containsPattern("ThreadPriorityPolicy += 1 .*\\{command line\\}")
                .containsPattern("PrintWarnings += false .*\\{command line\\}")
                .containsPattern("UsePerfData += false .*\\{command line\\}");
        assertThat(flags.stderr()).doesNotContain("warning");

        Result usage = script("", "scan", log.toString(), "--workers", "0");
        assertThat(usage.exit()).isEqualTo(2);
        assertThat(usage.stderr()).contains("--workers must be between 1 and 256, got 0 (see: batchpipe scan --help)");
    }
}
