package batchpipe.local.cli;

import batchpipe.local.stack.ProjectHome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ./batchpipe script's start-up cache (local/target/cds): `--help` and a usage error record none,
 * since a cache of what they load would stand in for the real command's until the next build; a
 * successful real run records one, scan's included: from the user's own first scan, which prints only its
 * stats. Runs the script as a user does, on the jar this build made.
 */
class StartupCacheIT {
    private static final Path HOME = ProjectHome.find();
    private static final Path CACHE = HOME.resolve("local/target/cds");

    @Test
    void helpAndUsageErrors_recordNoCache_aSuccessfulRunDoes() throws Exception {
        deleteCaches("hash-");

        assertThat(script("hash", "--help").exit()).isZero();
        assertThat(caches("hash-")).as("caches after hash --help").isEmpty();

        Result usageError = script("hash", "--count", "0", "--cost", "4");
        assertThat(usageError.exit()).as(usageError.output()).isEqualTo(2);
        assertThat(caches("hash-")).as("caches after a usage error").isEmpty();

        Result real = script("hash", "--count", "1", "--cost", "4");
        assertThat(real.exit()).as(real.output()).isZero();
        assertThat(caches("hash-")).as("caches after a successful hash").hasSize(1);
    }

    /** A scan cache recorded from this class's two-line file would stand in for a later scan's (the bench's) until the next build. */
    @AfterEach
    void dropTheScanCachesThisClassRecorded() throws IOException {
        deleteCaches("scan-");
    }

    @Test
    void scan_printsOnlyItsStatsWhileRecording_leavesACacheAndNoFilesBehind_andACachedScanPrintsTheSame(@TempDir Path dir) throws Exception {
        deleteCaches("scan-");
        Path log = dir.resolve("app.jsonl");
        Files.writeString(log, "{\"level\":\"info\"}\n{\"level\":\"error\"}\n");

        Result first = script("scan", log.toString(), "--count-by", "level");
        assertThat(first.exit()).as(first.output()).isZero();
        assertThat(first.output().strip()).startsWith("{\"events\":2,").endsWith("\"countBy\":{\"level\":{\"error\":1,\"info\":1}}}");
        assertThat(caches("scan-")).as("caches after a successful scan").hasSize(1);
        try (Stream<Path> files = Files.list(CACHE)) {
            assertThat(files.map(f -> f.getFileName().toString())).as("what the recording left in " + CACHE)
                    .noneMatch(name -> name.endsWith(".config") || name.endsWith(".tmp"));
        }

        Result cached = script("scan", log.toString(), "--count-by", "level");
        assertThat(cached.exit()).isZero();
        assertThat(cached.output()).as("a scan with the cache").isEqualTo(first.output());
    }

    private record Result(int exit, String output) {
    }

    private static Result script(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", HOME.resolve("batchpipe").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(HOME.toFile()).redirectErrorStream(true);
        builder.environment().put("BATCHPIPE_CDS", "1");
        builder.environment().put("BATCHPIPE_CDS_WAIT", "1"); // assemble the cache before returning, not in the background
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        builder.environment().remove("BATCHPIPE_JAVA_OPTS");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(3, TimeUnit.MINUTES)).as("./batchpipe finished").isTrue();
        return new Result(process.exitValue(), output);
    }

    private static List<Path> caches(String prefix) throws IOException {
        if (!Files.isDirectory(CACHE)) return List.of();
        try (Stream<Path> files = Files.list(CACHE)) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)
                    && (f.toString().endsWith(".aot") || f.toString().endsWith(".jsa"))).toList();
        }
    }

    private static void deleteCaches(String prefix) throws IOException {
        for (Path cache : caches(prefix)) Files.delete(cache);
    }
}
