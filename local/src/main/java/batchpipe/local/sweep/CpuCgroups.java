package batchpipe.local.sweep;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The kernel's CPU quota for this process's children: where this machine lets us create cgroups, and
 * how to cap one. Lambda gives an instance CPU in proportion to its memory; threads alone cannot imitate
 * that, a cgroup's CFS quota can ({@code cpu.cfs_quota_us} over {@code cpu.cfs_period_us} in cgroup v1,
 * {@code cpu.max} in v2).
 *
 * <p>Child cgroups are always made under this process's own cgroup (read from {@code /proc/self/cgroup}),
 * at the mount point {@code /proc/mounts} gives for the controller, never at a hierarchy's root: that
 * keeps them inside whatever limits this process already has, and leaves the machine's own layout alone.
 */
public final class CpuCgroups {
    /** The CFS period every cap uses: 100 ms, the kernel's default. */
    static final long PERIOD_US = 100_000;

    /**
     * Where caps can be made, or why they cannot.
     *
     * @param version    1 or 2; 0 when unavailable
     * @param cpuDir     this process's own cgroup folder for the cpu controller (v2: its unified cgroup)
     * @param memoryDir  v1: its own cgroup folder for the memory controller, null when that is not mounted;
     *                   v2: the same folder as {@code cpuDir}, or null when memory is not enabled there
     * @param unavailable why no cap can be made (null when one can)
     */
    public record Support(int version, Path cpuDir, Path memoryDir, String unavailable) {
        static Support unavailable(String why) {
            return new Support(0, null, null, why);
        }

        public boolean available() {
            return unavailable == null;
        }

        /** For the sweep's first line and its reports. */
        public String describe() {
            if (!available()) return "CPU not capped: " + unavailable;
            return "cgroup v" + version + " CPU quota under " + cpuDir + (memoryDir == null ? " (no memory limit: the memory controller is not available)"
                    : version == 1 ? ", memory limit under " + memoryDir : ", memory limit in the same cgroup");
        }

        /**
         * Makes a child cgroup {@code name} with a CPU quota of {@code cpus} (e.g. 0.5 for half a CPU) and
         * a memory limit, ready for processes to be placed in it.
         */
        public Cap create(String name, double cpus, long memoryBytes) throws IOException {
            if (!available()) throw new IllegalStateException("no cgroups: " + unavailable);
            if (!name.matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")) {
                throw new IllegalArgumentException("cgroup name '" + name + "' is not a plain folder name (a letter or digit, then up to 99 of [A-Za-z0-9_.-])");
            }
            if (!(cpus > 0)) throw new IllegalArgumentException("a CPU quota must be positive, got " + cpus);
            long quotaUs = Math.max(1_000, Math.round(cpus * PERIOD_US));
            List<Path> created = new ArrayList<>();
            try {
                Path cpu = Files.createDirectory(cpuDir.resolve(name));
                created.add(cpu);
                if (version == 1) {
                    write(cpu.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_US));
                    write(cpu.resolve("cpu.cfs_quota_us"), Long.toString(quotaUs));
                } else {
                    write(cpu.resolve("cpu.max"), quotaUs + " " + PERIOD_US);
                }
                Path memory = null;
                if (memoryDir != null) {
                    if (version == 1) {
                        memory = Files.createDirectory(memoryDir.resolve(name));
                        created.add(memory);
                        write(memory.resolve("memory.limit_in_bytes"), Long.toString(memoryBytes));
                    } else {
                        memory = cpu;
                        write(memory.resolve("memory.max"), Long.toString(memoryBytes));
                    }
                }
                return new Cap(version, cpu, memory, quotaUs, PERIOD_US, memoryBytes);
            } catch (IOException | RuntimeException e) {
                for (int i = created.size() - 1; i >= 0; i--) Files.deleteIfExists(created.get(i));
                throw e;
            }
        }
    }

    /**
     * The kernel's own count of a cap's CFS periods (cpu.stat): how many periods had runnable work, how
     * many of them ran out of quota, and how long the group was held back.
     */
    public record Throttling(long periods, long throttledPeriods, double throttledSeconds) {
        public static final Throttling NONE = new Throttling(0, 0, 0);

        public Throttling plus(Throttling other) {
            return new Throttling(periods + other.periods, throttledPeriods + other.throttledPeriods, throttledSeconds + other.throttledSeconds);
        }

        /** cpu.stat of either version: v1 says throttled_time in ns, v2 throttled_usec. */
        static Throttling parse(String cpuStat) {
            long periods = 0, throttled = 0;
            double seconds = 0;
            for (String line : cpuStat.split("\n")) {
                String[] parts = line.trim().split("\\s+");
                if (parts.length != 2) continue;
                long value;
                try {
                    value = Long.parseLong(parts[1]);
                } catch (NumberFormatException e) {
                    continue;
                }
                switch (parts[0]) {
                    case "nr_periods" -> periods = value;
                    case "nr_throttled" -> throttled = value;
                    case "throttled_time" -> seconds = value / 1e9;
                    case "throttled_usec" -> seconds = value / 1e6;
                    default -> { }
                }
            }
            return new Throttling(periods, throttled, seconds);
        }
    }

    /**
     * One child cgroup (a folder per controller in v1, one folder in v2). Processes are placed in it by
     * the launcher command of {@link #launcher()}, which joins the cgroup before the JVM starts, so the
     * JVM sees its quota from its first instruction (its availableProcessors() reads it).
     */
    public static final class Cap implements AutoCloseable {
        private final int version;
        private final Path cpuDir;
        private final Path memoryDir;
        private final long quotaUs;
        private final long periodUs;
        private final long memoryBytes;

        Cap(int version, Path cpuDir, Path memoryDir, long quotaUs, long periodUs, long memoryBytes) {
            this.version = version;
            this.cpuDir = cpuDir;
            this.memoryDir = memoryDir;
            this.quotaUs = quotaUs;
            this.periodUs = periodUs;
            this.memoryBytes = memoryBytes;
        }

        public Path cpuDir() {
            return cpuDir;
        }

        public long quotaUs() {
            return quotaUs;
        }

        public long periodUs() {
            return periodUs;
        }

        public long memoryBytes() {
            return memoryBytes;
        }

        /** The cgroup.procs files a process must join: the cpu cgroup's, and in v1 the memory cgroup's too. */
        public List<Path> procsFiles() {
            List<Path> files = new ArrayList<>();
            files.add(cpuDir.resolve("cgroup.procs"));
            if (memoryDir != null && !memoryDir.equals(cpuDir)) files.add(memoryDir.resolve("cgroup.procs"));
            return files;
        }

        /**
         * A command prefix that moves the shell into this cgroup and then execs the real command in its
         * place: {@code sh -c '...' sh N procs... command...}. The process is in the cgroup before the
         * command's first instruction, with no window in which it runs uncapped.
         */
        public List<String> launcher() {
            List<String> files = procsFiles().stream().map(Path::toString).toList();
            List<String> prefix = new ArrayList<>(Arrays.asList("/bin/sh", "-c",
                    "n=$1; shift; while [ \"$n\" -gt 0 ]; do echo $$ > \"$1\" || exit 97; shift; n=$((n-1)); done; exec \"$@\"",
                    "batchpipe-cgroup", Integer.toString(files.size())));
            prefix.addAll(files);
            return prefix;
        }

        /** The kernel's cpu.stat for this cgroup so far. */
        public Throttling throttling() throws IOException {
            return Throttling.parse(Files.readString(cpuDir.resolve("cpu.stat"), StandardCharsets.UTF_8));
        }

        /** Removes the cgroup; its processes must have ended (the kernel refuses to remove a busy one, so this retries briefly). */
        @Override
        public void close() throws IOException {
            IOException last = null;
            for (Path dir : memoryDir == null || memoryDir.equals(cpuDir) ? List.of(cpuDir) : List.of(cpuDir, memoryDir)) {
                for (int attempt = 0; attempt < 50; attempt++) {
                    try {
                        removeCgroup(dir);
                        last = null;
                        break;
                    } catch (IOException e) {
                        last = e;
                        try {
                            Thread.sleep(100);
                        } catch (InterruptedException interrupted) {
                            Thread.currentThread().interrupt();
                            break;
                        }
                    }
                }
            }
            if (last != null) throw last;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s (quota %d/%d us)", cpuDir, quotaUs, periodUs);
        }
    }

    private CpuCgroups() {
    }

    /** This machine's: {@code /proc/self/cgroup} and {@code /proc/mounts}. */
    public static Support detect() {
        return detect(Path.of("/proc/self/cgroup"), Path.of("/proc/mounts"));
    }

    /**
     * Reads where this process's cgroups are. A v1 hierarchy with the cpu controller wins (where both
     * exist, the v2 hierarchy has no cpu controller: a controller lives in one hierarchy only); else a
     * v2 hierarchy whose own cgroup offers cpu.
     */
    public static Support detect(Path selfCgroup, Path mounts) {
        String cgroups, mountTable;
        try {
            cgroups = Files.readString(selfCgroup, StandardCharsets.UTF_8);
            mountTable = Files.readString(mounts, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return Support.unavailable("cannot read " + selfCgroup + " or " + mounts + " (" + e.getMessage() + "): not Linux?");
        }
        Optional<Path> v1Cpu = v1Mount(mountTable, "cpu");
        if (v1Cpu.isPresent()) {
            Optional<String> own = v1OwnPath(cgroups, "cpu");
            if (own.isEmpty()) return Support.unavailable(selfCgroup + " names no cgroup of the cpu controller mounted at " + v1Cpu.get());
            Path cpuDir = under(v1Cpu.get(), own.get());
            Path memoryDir = v1Mount(mountTable, "memory").flatMap(m -> v1OwnPath(cgroups, "memory").map(o -> under(m, o))).orElse(null);
            if (memoryDir != null && !Files.isWritable(memoryDir)) memoryDir = null;
            if (!Files.isDirectory(cpuDir) || !Files.isWritable(cpuDir)) {
                return Support.unavailable("this process's cpu cgroup " + cpuDir + " is not writable (creating cgroups needs root or a delegated cgroup)");
            }
            return new Support(1, cpuDir, memoryDir, null);
        }
        Optional<Path> v2 = mountsOfType(mountTable, "cgroup2").stream().findFirst().map(line -> Path.of(unescape(line[1])));
        if (v2.isEmpty()) return Support.unavailable(mounts + " shows no cgroup hierarchy with the cpu controller (neither a cgroup v1 cpu mount nor cgroup2)");
        Optional<String> own = cgroups.lines().filter(l -> l.startsWith("0::")).map(l -> l.substring(3)).findFirst();
        if (own.isEmpty()) return Support.unavailable(selfCgroup + " names no cgroup v2 path (no \"0::\" line)");
        Path dir = under(v2.get(), own.get());
        List<String> controllers = words(dir.resolve("cgroup.controllers"));
        if (!controllers.contains("cpu")) {
            return Support.unavailable("the cgroup v2 hierarchy at " + v2.get() + " offers no cpu controller to " + dir);
        }
        if (!Files.isWritable(dir)) return Support.unavailable("this process's cgroup " + dir + " is not writable (creating cgroups needs root or a delegated cgroup)");
        List<String> enabled = words(dir.resolve("cgroup.subtree_control"));
        if (!enabled.contains("cpu")) {
            try {
                // Children get a controller only when the parent enables it for its subtree.
                write(dir.resolve("cgroup.subtree_control"), controllers.contains("memory") && !enabled.contains("memory") ? "+cpu +memory" : "+cpu");
            } catch (IOException e) {
                return Support.unavailable("cannot enable the cpu controller for " + dir + "'s children (" + e.getMessage()
                        + "); cgroup v2 allows that only in a cgroup with no processes of its own");
            }
            enabled = words(dir.resolve("cgroup.subtree_control"));
        }
        return new Support(2, dir, enabled.contains("memory") ? dir : null, null);
    }

    private static Optional<Path> v1Mount(String mountTable, String controller) {
        return mountsOfType(mountTable, "cgroup").stream()
                .filter(fields -> Arrays.asList(fields[3].split(",")).contains(controller))
                .map(fields -> Path.of(unescape(fields[1]))).findFirst();
    }

    private static List<String[]> mountsOfType(String mountTable, String type) {
        List<String[]> found = new ArrayList<>();
        for (String line : mountTable.split("\n")) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length >= 4 && fields[2].equals(type)) found.add(fields);
        }
        return found;
    }

    /** The path of the hierarchy line {@code id:controllers:path} whose controller list names {@code controller}. */
    private static Optional<String> v1OwnPath(String cgroups, String controller) {
        for (String line : cgroups.split("\n")) {
            String[] parts = line.split(":", 3);
            if (parts.length == 3 && Arrays.asList(parts[1].split(",")).contains(controller)) return Optional.of(parts[2].trim());
        }
        return Optional.empty();
    }

    private static Path under(Path mount, String ownPath) {
        String relative = ownPath.startsWith("/") ? ownPath.substring(1) : ownPath;
        return relative.isEmpty() ? mount : mount.resolve(relative);
    }

    /** /proc/mounts escapes a space, tab, newline and backslash in a path as octal. */
    private static String unescape(String field) {
        return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
    }

    private static List<String> words(Path file) {
        try {
            return List.of(Files.readString(file, StandardCharsets.UTF_8).trim().split("\\s+"));
        } catch (IOException e) {
            return List.of();
        }
    }

    private static void write(Path file, String value) throws IOException {
        Files.writeString(file, value, StandardCharsets.UTF_8);
    }

    /**
     * Removes a cgroup folder. A real cgroup's files are the kernel's and go with rmdir; a folder that
     * is not a cgroup (the tests' fake hierarchy) holds the files this class wrote, which go first.
     */
    private static void removeCgroup(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        if (!Files.exists(dir.resolve("tasks")) && !Files.exists(dir.resolve("cgroup.events"))) {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) Files.deleteIfExists(f);
            }
        }
        Files.delete(dir);
    }
}
