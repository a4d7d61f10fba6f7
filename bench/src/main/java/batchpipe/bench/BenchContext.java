package batchpipe.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What every part of the bench shares: the settings, the process runner, the peers, the findings so far, the terminal. */
record BenchContext(BenchSettings settings, ProcessRunner processes, Peers peers, Findings findings, PrintStream out) {

    /** The JVM this bench runs on, which runs the bench's own Java children too. */
    static String javaExecutable() {
        return ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /**
     * The java command with the flags ./batchpipe passes, for children started without the script.
     * Multi-release jars read as plain ones matter most: zstd-jni then binds through JNI, as it does in
     * the CLI and on Lambda's java21 runtime (its FFM binding is for JDK 22+ only); without the flag a
     * child on JDK 25 paid 0.3-0.5 s of FFM set-up in its first scan that no user's scan pays.
     */
    List<String> javaCommand() {
        List<String> cmd = new ArrayList<>(List.of(javaExecutable(), "-XX:+UseParallelGC", "-Djdk.util.jar.enableMultiRelease=false"));
        int feature = Runtime.version().feature();
        if (feature >= 22) cmd.add("--enable-native-access=ALL-UNNAMED");
        if (feature >= 24) cmd.add("--sun-misc-unsafe-memory-access=allow");
        return cmd;
    }

    /** What ./batchpipe adds for {@code scan} alone (its scan_opts). */
    static final List<String> SCAN_FLAGS = List.of("-XX:-UseOnStackReplacement", "-XX:ThreadPriorityPolicy=1", "-XX:-PrintWarnings",
            "-XX:-UsePerfData");

    /** What ./batchpipe also adds for {@code scan} where the kernel offers transparent huge pages. */
    static final String HUGE_PAGES_FLAG = "-XX:+UseTransparentHugePages";

    /** The file ./batchpipe reads to tell whether the kernel offers transparent huge pages. */
    static final Path HUGE_PAGES_SETTING = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");

    /**
     * Whether {@code setting} (the kernel's {@code enabled} file, e.g. {@code always [madvise] never}) has
     * {@code always} or {@code madvise} selected, as ./batchpipe tests it; false when it cannot be read.
     */
    static boolean hugePagesOffered(Path setting) {
        try {
            String selected = java.nio.file.Files.readString(setting);
            return selected.contains("[always]") || selected.contains("[madvise]");
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    /** The malloc settings ./batchpipe exports for {@code scan} (its scan_malloc, in GLIBC_TUNABLES). */
    static final String SCAN_MALLOC_TUNABLES = "glibc.malloc.arena_max=1:glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864"
            + ":glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456";

    /**
     * What ./batchpipe adds to a scan's environment, given the one it runs in: the malloc settings, followed
     * by a GLIBC_TUNABLES of the user's own, which wins where both set one.
     */
    static Map<String, String> scanEnvironment(Map<String, String> inherited) {
        String own = inherited.get("GLIBC_TUNABLES");
        return Map.of("GLIBC_TUNABLES", own == null || own.isEmpty() ? SCAN_MALLOC_TUNABLES : SCAN_MALLOC_TUNABLES + ":" + own);
    }

    /** {@link #scanEnvironment(Map)} of this process's environment: for children started with {@link #scanJavaCommand()}. */
    Map<String, String> scanEnvironment() {
        return scanEnvironment(System.getenv());
    }

    /** A command started in {@link #scanEnvironment()}, as a shell would run it: the variables, then the command. */
    String scanCommandLine(List<String> command) {
        StringBuilder line = new StringBuilder();
        scanEnvironment().forEach((name, value) -> line.append(name).append('=').append(value).append(' '));
        return line.append(String.join(" ", command)).toString();
    }

    /**
     * {@link #javaCommand()} for a JVM that scans as {@code ./batchpipe scan} does (in {@link #scanEnvironment()}): with the script's scan
     * flags and zstd-jni's library unpacked by the build, so a first pass pays what a user's scan pays.
     */
    List<String> scanJavaCommand() {
        List<String> cmd = javaCommand();
        cmd.addAll(1, SCAN_FLAGS);
        if (hugePagesOffered(HUGE_PAGES_SETTING)) cmd.add(1, HUGE_PAGES_FLAG);
        Path natives = nativeLibraries();
        if (natives != null) cmd.add(1, "-Djava.library.path=" + natives);
        return cmd;
    }

    /** The folder of zstd-jni's library for this platform that ./batchpipe puts on java.library.path, or null. */
    private Path nativeLibraries() {
        if (settings == null) return null;
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        String dir = os.startsWith("linux") ? "linux/" + arch : os.startsWith("mac") ? "darwin/" + (arch.equals("amd64") ? "x86_64" : arch) : null;
        if (dir == null) return null;
        Path path = settings.home().resolve("local/target/native").resolve(dir);
        return java.nio.file.Files.isDirectory(path) ? path : null;
    }

    /** The CLI's jar, which ./batchpipe runs. */
    Path cliJar() {
        return settings.home().resolve("local/target/batchpipe.jar");
    }

    /** This module's jar: the bench's own classes (WarmPasses) on the CLI's class path. */
    Path benchJar() {
        return settings.home().resolve("bench/target/batchpipe-bench.jar");
    }

    String script() {
        return processes.script();
    }
}
