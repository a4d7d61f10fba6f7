package batchpipe.bench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class BenchContextTest {

    /** The java_opts lines of ./batchpipe that hold fixed flags (the start-up cache's flags depend on files). */
    private static final Pattern FIXED_OPTS = Pattern.compile("java_opts\\+?=\\(([^\"$)]+)\\)");

    @Test
    void childrenStartedWithoutTheScriptGetEveryFixedFlagTheScriptPasses() throws IOException {
        Path script = Path.of(System.getProperty("user.dir")).getParent().resolve("batchpipe");
        List<String> scriptFlags = new ArrayList<>();
        for (String line : Files.readAllLines(script)) {
            Matcher m = FIXED_OPTS.matcher(line);
            if (m.find()) scriptFlags.addAll(List.of(m.group(1).trim().split("\\s+")));
        }
        assertThat(scriptFlags).contains("-XX:+UseParallelGC", "-Djdk.util.jar.enableMultiRelease=false");

        BenchContext context = new BenchContext(null, null, null, null, System.out);
        List<String> command = context.javaCommand();
        int feature = Runtime.version().feature();
        for (String flag : scriptFlags) {
            boolean forThisJdk = !(flag.equals("--enable-native-access=ALL-UNNAMED") && feature < 22)
                    && !(flag.equals("--sun-misc-unsafe-memory-access=allow") && feature < 24);
            if (forThisJdk) assertThat(command).as("flag %s of ./batchpipe", flag).contains(flag);
        }
    }

    @Test
    void scanningChildrenAlsoGetTheFlagsTheScriptAddsForScan() throws IOException {
        Path script = Path.of(System.getProperty("user.dir")).getParent().resolve("batchpipe");
        List<String> scanFlags = new ArrayList<>();
        for (String line : Files.readAllLines(script)) {
            Matcher m = Pattern.compile("^scan_opts=\\(([^\"$)]+)\\)").matcher(line);
            if (m.find()) scanFlags.addAll(List.of(m.group(1).trim().split("\\s+")));
        }
        assertThat(scanFlags).isNotEmpty().isEqualTo(BenchContext.SCAN_FLAGS);
        List<String> command = new BenchContext(null, null, null, null, System.out).scanJavaCommand();
        assertThat(command).containsAll(scanFlags).containsAll(new BenchContext(null, null, null, null, System.out).javaCommand().subList(1, 3));
    }

    @Test
    void scanningChildrenUseHugePagesExactlyWhereTheScriptDoes(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        String script = Files.readString(Path.of(System.getProperty("user.dir")).getParent().resolve("batchpipe"));
        assertThat(script).contains("scan_opts+=(" + BenchContext.HUGE_PAGES_FLAG + ")")
                .contains(BenchContext.HUGE_PAGES_SETTING.toString());

        Path setting = dir.resolve("enabled");
        Files.writeString(setting, "always [madvise] never\n");
        assertThat(BenchContext.hugePagesOffered(setting)).isTrue();
        Files.writeString(setting, "[always] madvise never\n");
        assertThat(BenchContext.hugePagesOffered(setting)).isTrue();
        Files.writeString(setting, "always madvise [never]\n");
        assertThat(BenchContext.hugePagesOffered(setting)).isFalse();
        assertThat(BenchContext.hugePagesOffered(dir.resolve("absent"))).isFalse();

        List<String> command = new BenchContext(null, null, null, null, System.out).scanJavaCommand();
        if (BenchContext.hugePagesOffered(BenchContext.HUGE_PAGES_SETTING)) {
            assertThat(command).contains(BenchContext.HUGE_PAGES_FLAG);
        } else {
            assertThat(command).doesNotContain(BenchContext.HUGE_PAGES_FLAG);
        }
    }

    @Test
    void scanningChildrenGetTheMallocSettingsTheScriptExportsForScanBeforeAUsersOwn() throws IOException {
        String script = Files.readString(Path.of(System.getProperty("user.dir")).getParent().resolve("batchpipe"));
        Matcher m = Pattern.compile("(?m)^scan_malloc=\"([^\"]+)\"$").matcher(script);
        assertThat(m.find()).as("./batchpipe's scan_malloc line").isTrue();
        assertThat(m.group(1)).isEqualTo(BenchContext.SCAN_MALLOC_TUNABLES);
        assertThat(script).contains("export GLIBC_TUNABLES=\"$scan_malloc${GLIBC_TUNABLES:+:$GLIBC_TUNABLES}\"");

        assertThat(BenchContext.scanEnvironment(Map.of())).isEqualTo(Map.of("GLIBC_TUNABLES", BenchContext.SCAN_MALLOC_TUNABLES));
        assertThat(BenchContext.scanEnvironment(Map.of("GLIBC_TUNABLES", "")))
                .isEqualTo(Map.of("GLIBC_TUNABLES", BenchContext.SCAN_MALLOC_TUNABLES));
        // glibc takes the last setting of a tunable: the user's, after ours
        assertThat(BenchContext.scanEnvironment(Map.of("GLIBC_TUNABLES", "glibc.malloc.arena_max=4")))
                .isEqualTo(Map.of("GLIBC_TUNABLES", BenchContext.SCAN_MALLOC_TUNABLES + ":glibc.malloc.arena_max=4"));
    }
}
