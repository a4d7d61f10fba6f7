package batchpipe.local.bench;

import batchpipe.common.json.Json;
import batchpipe.local.sample.SampleLogs;
import com.github.luben.zstd.ZstdOutputStream;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZonedDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./batchpipe bench}: the Performance issue's targets, measured side by side in one run against the
 * peers installed on this machine. Every figure is the median of several whole-process runs, taken in
 * rotation (java, node, python, zstd, java, ...) so that load from other work on the machine spreads over
 * all of them; only ratios of figures from the same run are compared.
 */
public final class Bench {
    /** The parts of the bench, by the names {@code --only} takes. */
    public static final List<String> SECTIONS = List.of("scan", "warm", "hash", "memory", "demo", "cold-start");

    /** @param only the {@link #SECTIONS} to run; empty runs them all */
    public record Settings(boolean quick, int runs, Path workDir, Path markdown, Path home, Set<String> only) {
        public Settings {
            only = Set.copyOf(only);
            for (String section : only) {
                if (!SECTIONS.contains(section)) {
                    throw new IllegalArgumentException("unknown bench section '" + section + "'; the sections are " + String.join(", ", SECTIONS));
                }
            }
        }

        boolean runs(String section) {
            return only.isEmpty() || only.contains(section);
        }
    }

    /** One finished child process: wall seconds, exit code, stdout, stderr. */
    record Run(double seconds, int exit, String stdout, String stderr) {
        boolean ok() {
            return exit == 0;
        }
    }

    static final long SEED = 42;
    static final long FULL_LINES = 4_200_000;   // ~1 GB uncompressed: the scan file (>= 500 MB) and the memory target
    static final long QUICK_LINES = 420_000;    // ~100 MB
    static final int DEMO_OBJECTS = 24, DEMO_LINES = 20_000, DEMO_HASHES = 8 * 25, HASH_COST = 10;
    /**
     * Hashes per hash run. 240 at cost 10 is about 17 s on one worker and 9 s on two: the rate of the
     * hashing itself. With 40 (3 s and 1.6 s) the JIT's compilation, which a single worker leaves to the
     * idle core but two workers must share their cores with, cut the two-worker figure to 1.80-1.87x of
     * one (240: 1.96x, side by side).
     */
    static final int HASH_COUNT = 240;

    private final Settings settings;
    private final PrintStream out;
    private final List<Target> targets = new ArrayList<>();
    private final List<MarkdownReport.Figure> figures = new ArrayList<>();
    private final List<String> commands = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final Path jar;
    private final String java;

    /** Subcommands whose start-up cache an untimed run has written. */
    private final Set<String> primedSubcommands = new HashSet<>();

    public Bench(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
        this.jar = settings.home().resolve("local/target/batchpipe.jar");
        this.java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    public List<Target> run() throws Exception {
        Files.createDirectories(settings.workDir());
        if (settings.runs("scan") || settings.runs("warm") || settings.runs("memory")) {
            Path scanFile = scanInput();
            long bytes = Long.parseLong(Files.readString(sidecar(scanFile)).trim());
            out.printf(Locale.ROOT, "bench: input %s, %.0f MB uncompressed, %.0f MB compressed; %d runs each, medians%n",
                    scanFile, bytes / 1e6, Files.size(scanFile) / 1e6, settings.runs());
            if (settings.runs("scan")) scan(scanFile, bytes);
            if (settings.runs("warm")) warmPasses(scanFile, bytes);
            if (settings.runs("hash")) hash();
            if (settings.runs("memory")) memory(scanFile, bytes);
        } else if (settings.runs("hash")) {
            hash();
        }
        if (settings.runs("demo")) demo();
        if (settings.runs("cold-start")) coldStart();
        notes.add("JMH benchmarks of the kernels (line splitting, parsing, chunk merging, hashing) are not part of this bench: "
                + "they are for profiling, in bench-jmh (\"JMH kernels\" in docs/BENCHMARKS.md).");
        notes.add("On a 2-core machine absolute figures are noisy (see the load averages noted above and the run lists): "
                + "only ratios of figures measured side by side in the same run are compared, each the median of the runs, taken in rotation.");
        printTable();
        if (settings.markdown() != null) {
            Files.writeString(settings.markdown(), markdown());
            out.println("bench: wrote " + settings.markdown());
        }
        return targets;
    }

    // ---------------------------------------------------------------- inputs

    private Path scanInput() throws IOException {
        long lines = settings.quick() ? QUICK_LINES : FULL_LINES;
        Path file = settings.workDir().resolve("scan-" + lines + "-seed" + SEED + ".jsonl.zst");
        if (Files.isRegularFile(file) && Files.isRegularFile(sidecar(file))) return file;
        out.printf(Locale.ROOT, "bench: generating %,d seeded lines into %s ...%n", lines, file);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        long[] count = {0};
        SampleLogs logs = new SampleLogs(SEED, 2_000);
        try (OutputStream fileOut = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20);
             OutputStream zstd = new ZstdOutputStream(fileOut, 3);
             OutputStream counting = new FilterOutputStream(zstd) {
                 @Override
                 public void write(byte[] b, int off, int len) throws IOException {
                     count[0] += len;
                     out.write(b, off, len);
                 }
             }) {
            int part = 0; // the same parts of one million lines as `batchpipe sample`, so the bytes match it
            for (long written = 0; written < lines; written += 1_000_000, part++) {
                logs.write(part, (int) Math.min(1_000_000, lines - written), counting);
            }
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(sidecar(file), Long.toString(count[0]));
        commands.add("# input: the same bytes as ./batchpipe sample --out " + file.getFileName() + " --lines " + lines + " --seed " + SEED);
        return file;
    }

    private static Path sidecar(Path file) {
        return file.resolveSibling(file.getFileName() + ".bytes");
    }

    // ---------------------------------------------------------------- scan

    private void scan(Path file, long bytes) throws Exception {
        Path scripts = settings.workDir().resolve("peers");
        Files.createDirectories(scripts);
        Path js = extract("scan.js", scripts), py = extract("scan.py", scripts);
        boolean zstd = onPath("zstd"), node = onPath("node"), python = onPath("python3");
        Map<String, List<String>> cmds = new LinkedHashMap<>();
        cmds.put("java", List.of(script(), "scan", file.toString(), "--workers", "2", "--count-by", "level,status"));
        if (zstd && node) cmds.put("node", bash("zstd -dc " + q(file) + " | node " + q(js)));
        if (zstd && python) cmds.put("python", bash("zstd -dc " + q(file) + " | python3 " + q(py)));
        if (zstd) cmds.put("zstd", bash("zstd -dc " + q(file) + " > /dev/null"));
        for (String peer : List.of("zstd", "node", "python3")) {
            if (!onPath(peer)) notes.add("Peer missing: `" + peer + "` is not on PATH; the targets that need it are skipped.");
        }
        cmds.values().forEach(c -> commands.add(String.join(" ", c.size() == 3 && c.get(0).equals("bash") ? List.of(c.get(2)) : c)));

        Map<String, List<Double>> times = new LinkedHashMap<>();
        Map<String, String> firstOutput = new LinkedHashMap<>();
        for (int r = 0; r < settings.runs(); r++) {
            for (Map.Entry<String, List<String>> e : cmds.entrySet()) {
                out.printf(Locale.ROOT, "bench: scan %s, run %d/%d ... ", e.getKey(), r + 1, settings.runs());
                Run run = exec(e.getValue());
                if (!run.ok()) throw new IllegalStateException(e.getKey() + " scan failed (exit " + run.exit() + "): " + tail(run.stderr()));
                out.printf(Locale.ROOT, "%.2f s%n", run.seconds());
                times.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(run.seconds());
                firstOutput.putIfAbsent(e.getKey(), run.stdout());
            }
        }
        // The peers must have done the same work: the same events and malformed lines.
        Map<String, Object> javaResult = Json.parseObject(firstOutput.get("java").trim());
        for (String peer : List.of("node", "python")) {
            if (!firstOutput.containsKey(peer)) continue;
            Map<String, Object> r = Json.parseObject(firstOutput.get(peer).trim());
            if (!String.valueOf(r.get("events")).equals(String.valueOf(javaResult.get("events")))
                    || !String.valueOf(r.get("malformed")).equals(String.valueOf(javaResult.get("malformed")))) {
                notes.add(String.format(Locale.ROOT, "Check: %s counted %s events / %s malformed, Java %s / %s.",
                        peer, r.get("events"), r.get("malformed"), javaResult.get("events"), javaResult.get("malformed")));
            }
        }
        notes.add(String.format(Locale.ROOT, "Scan check: the Java scanner and the peers counted the same events (%s) and malformed lines (%s) unless noted.",
                javaResult.get("events"), javaResult.get("malformed")));

        Map<String, Double> median = new LinkedHashMap<>();
        times.forEach((k, v) -> {
            median.put(k, Stats.median(v));
            figures.add(new MarkdownReport.Figure("scan, " + k + " (whole process)",
                    String.format(Locale.ROOT, "%.2f s = %.0f MB/s", Stats.median(v), bytes / 1e6 / Stats.median(v)), secondsList(v)));
        });
        double j = median.get("java");
        String javaRate = String.format(Locale.ROOT, "%.0f MB/s", bytes / 1e6 / j);
        scanTarget("Scan: java --workers 2 vs zstd -dc | node JSON.parse", median, "node", j, javaRate, bytes, 2.5);
        scanTarget("Scan: java --workers 2 vs zstd -dc | python3 json.loads", median, "python", j, javaRate, bytes, 8.0);
        scanTarget("Scan: java --workers 2 vs zstd -dc > /dev/null", median, "zstd", j, javaRate, bytes, 0.4);
    }

    private void scanTarget(String name, Map<String, Double> median, String peer, double javaSeconds, String javaRate, long bytes, double limit) {
        Double p = median.get(peer);
        if (p == null) {
            targets.add(Target.skipped(name, Target.Bound.AT_LEAST, limit, "skipped: peer missing"));
            return;
        }
        targets.add(Target.atLeast(name, String.format(Locale.ROOT, "%s vs %.0f MB/s", javaRate, bytes / 1e6 / p), p / javaSeconds, limit));
    }

    private void warmPasses(Path file, long bytes) throws Exception {
        List<String> cmd = new ArrayList<>(javaCommand());
        cmd.addAll(List.of("-cp", jar.toString(), WarmPasses.class.getName(), file.toString(), "3", "2"));
        commands.add(String.join(" ", cmd));
        List<Double> ratios = new ArrayList<>(), first = new ArrayList<>(), warm = new ArrayList<>();
        for (int r = 0; r < settings.runs(); r++) {
            out.printf(Locale.ROOT, "bench: 3 scan passes in one JVM, run %d/%d ... ", r + 1, settings.runs());
            Run run = exec(cmd);
            if (!run.ok()) throw new IllegalStateException("warm passes failed: " + tail(run.stderr()));
            List<Double> passes = parseNumbers(run.stdout());
            double best = Stats.min(passes.subList(1, passes.size()));
            first.add(passes.get(0));
            warm.add(best);
            ratios.add(best / passes.get(0));
            out.println(passes);
        }
        double f = Stats.median(first), w = Stats.median(warm);
        figures.add(new MarkdownReport.Figure("scan in one JVM, pass 1", rate(f, bytes), secondsList(first)));
        figures.add(new MarkdownReport.Figure("scan in one JVM, best of passes 2-3", rate(w, bytes), secondsList(warm)));
        targets.add(Target.atLeast("Scan: first pass vs best warm pass (same JVM)",
                String.format(Locale.ROOT, "%.0f vs %.0f MB/s", bytes / 1e6 / f, bytes / 1e6 / w), Stats.median(ratios), 0.5));
    }

    // ---------------------------------------------------------------- hash

    private void hash() throws Exception {
        List<String> one = List.of(script(), "hash", "--count", "" + HASH_COUNT, "--cost", "" + HASH_COST, "--workers", "1");
        List<String> two = List.of(script(), "hash", "--count", "" + HASH_COUNT, "--cost", "" + HASH_COST, "--workers", "2");
        List<String> c = null;
        String cName = null;
        Path debPython = Path.of("/usr/bin/python3");
        if (Files.isExecutable(debPython) && exec(List.of(debPython.toString(), "-c", "import bcrypt")).ok()) {
            c = List.of(debPython.toString(), "-c", "import bcrypt,time\nt=time.perf_counter()\n"
                    + "for i in range(" + HASH_COUNT + "): bcrypt.hashpw(b'password_%06d' % (i+1), bcrypt.gensalt(" + HASH_COST + "))\n"
                    + "print((time.perf_counter()-t)*1000/" + HASH_COUNT + ")");
            cName = "C bcrypt (Debian python3-bcrypt)";
        } else if (onPath("htpasswd")) {
            c = bash("s=$(date +%s%N); for i in $(seq 1 10); do htpasswd -nbB -C " + HASH_COST
                    + " u password_$i >/dev/null; done; echo $(( ($(date +%s%N) - s) / 10000000 ))");
            cName = "C bcrypt (htpasswd -B, whole processes)";
        } else {
            notes.add("Peer missing: neither Debian's python3-bcrypt (/usr/bin/python3 -c 'import bcrypt') nor htpasswd (apache2-utils); the C bcrypt comparison is skipped.");
        }
        commands.add(String.join(" ", one));
        commands.add(String.join(" ", two));
        if (c != null) commands.add(c.get(0).equals("bash") ? c.get(2) : c.get(0) + " -c \"" + c.get(2).replace("\n", "; ") + "\"");
        // The machine's own limit on two-core scaling: the C peer, two processes at once.
        List<String> cTwice = c == null || !c.get(0).equals(debPython.toString()) ? null
                : bash(q(c.get(0)) + " -c " + q(c.get(2)) + " & " + q(c.get(0)) + " -c " + q(c.get(2)) + " & wait");
        if (cTwice != null) commands.add(cTwice.get(2));
        List<Double> ms1 = new ArrayList<>(), rate1 = new ArrayList<>(), rate2 = new ArrayList<>(), msC = new ArrayList<>(),
                scalingC = new ArrayList<>();
        for (int r = 0; r < settings.runs(); r++) {
            out.printf(Locale.ROOT, "bench: hash, run %d/%d ... ", r + 1, settings.runs());
            Map<String, Object> j1 = Json.parseObject(must(exec(one), "hash --workers 1").stdout().trim());
            Map<String, Object> j2 = Json.parseObject(must(exec(two), "hash --workers 2").stdout().trim());
            ms1.add(((Number) j1.get("msPerHash")).doubleValue());
            rate1.add(((Number) j1.get("hashesPerSecond")).doubleValue());
            rate2.add(((Number) j2.get("hashesPerSecond")).doubleValue());
            if (c != null) msC.add(parseNumbers(must(exec(c), cName).stdout()).get(0));
            if (cTwice != null) {
                List<Double> both = parseNumbers(must(exec(cTwice), cName + ", two at once").stdout());
                scalingC.add((1000 / both.get(0) + 1000 / both.get(1)) / (1000 / msC.get(r)));
            }
            out.printf(Locale.ROOT, "java 1w %.1f ms/hash, 2w %.1f hashes/s%s%n", ms1.get(r), rate2.get(r),
                    c == null ? "" : String.format(Locale.ROOT, ", C %.1f ms/hash", msC.get(r)));
        }
        figures.add(new MarkdownReport.Figure("hash cost 10, java 1 worker (ms/hash, in-process timing)", fmt(Stats.median(ms1)) + " ms", list(ms1)));
        figures.add(new MarkdownReport.Figure("hash cost 10, java 2 workers (hashes/s)", fmt(Stats.median(rate2)), list(rate2)));
        if (c != null) {
            figures.add(new MarkdownReport.Figure("hash cost 10, " + cName + " (ms/hash)", fmt(Stats.median(msC)) + " ms", list(msC)));
            targets.add(Target.atMost("Hash: java 1-worker ms/hash vs C bcrypt",
                    fmt(Stats.median(ms1)) + " vs " + fmt(Stats.median(msC)) + " ms", Stats.median(ms1) / Stats.median(msC), 1.15));
        } else {
            targets.add(Target.skipped("Hash: java 1-worker ms/hash vs C bcrypt", Target.Bound.AT_MOST, 1.15, "skipped: no C bcrypt installed"));
        }
        targets.add(Target.atLeast("Hash: 2 workers vs 1 worker rate",
                fmt(Stats.median(rate2)) + " vs " + fmt(Stats.median(rate1)) + " hashes/s", Stats.median(rate2) / Stats.median(rate1), 1.9));
        if (!scalingC.isEmpty()) {
            figures.add(new MarkdownReport.Figure("hash cost 10, " + cName + ", two processes at once vs one (rate ratio)",
                    fmt(Stats.median(scalingC)) + "x", list(scalingC)));
            notes.add(String.format(Locale.ROOT, "Two-core scaling of this machine itself: the C peer run as two processes at once hashes %sx"
                    + " the rate of one (median), against Java's %sx with two workers in one process.", fmt(Stats.median(scalingC)),
                    fmt(Stats.median(rate2) / Stats.median(rate1))));
        }
    }

    // ---------------------------------------------------------------- memory

    private void memory(Path file, long bytes) throws Exception {
        List<String> cmd = new ArrayList<>();
        boolean time = Files.isExecutable(Path.of("/usr/bin/time"));
        if (time) cmd.addAll(List.of("/usr/bin/time", "-v"));
        cmd.addAll(javaCommand());
        cmd.add(1 + (time ? 2 : 0), "-Xmx128m");
        cmd.addAll(List.of("-jar", jar.toString(), "scan", file.toString(), "--workers", "2", "--count-by", "level,status"));
        commands.add(String.join(" ", cmd));
        out.print("bench: scan with -Xmx128m ... ");
        Run run;
        long peakKb;
        if (time) {
            run = exec(cmd);
            Matcher m = Pattern.compile("Maximum resident set size \\(kbytes\\): (\\d+)").matcher(run.stderr());
            peakKb = m.find() ? Long.parseLong(m.group(1)) : -1;
        } else {
            long[] peak = {0};
            run = exec(cmd, pid -> {
                try {
                    for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                        if (l.startsWith("VmHWM:")) peak[0] = Math.max(peak[0], Long.parseLong(l.replaceAll("\\D", "")));
                    }
                } catch (IOException | NumberFormatException ignored) {
                    // the process has ended between two polls
                }
                return null;
            });
            peakKb = peak[0];
        }
        out.printf(Locale.ROOT, "exit %d, peak RSS %d MB, %.2f s%n", run.exit(), peakKb / 1024, run.seconds());
        String measured = String.format(Locale.ROOT, "%s; peak RSS %d MB (%s); %.0f MB uncompressed in %.2f s",
                run.ok() ? "succeeded" : "failed (exit " + run.exit() + ")", peakKb / 1024, time ? "/usr/bin/time -v" : "VmHWM polled",
                bytes / 1e6, run.seconds());
        String size = settings.quick() ? " (--quick: ~100 MB file, not 1 GB)" : "";
        targets.add(Target.check("Memory: scan ~" + Math.round(bytes / 1e9 * 10) / 10.0 + " GB uncompressed with -Xmx128m" + size,
                measured, run.ok(), "succeeds"));
    }

    // ---------------------------------------------------------------- demo

    @SuppressWarnings("unchecked")
    private void demo() throws Exception {
        Path objects = settings.workDir().resolve("demo-objects");
        Files.createDirectories(objects);
        SampleLogs logs = new SampleLogs(SEED, 2_000); // the objects `demo` puts in its bucket (SampleData.seed)
        List<String> scan = new ArrayList<>(List.of(script(), "scan"));
        for (int i = 0; i < DEMO_OBJECTS; i++) {
            Path o = objects.resolve(String.format(Locale.ROOT, "app-%03d.jsonl.zst", i));
            if (!Files.isRegularFile(o)) Files.write(o, logs.zstdObject(i, DEMO_LINES));
            scan.add(o.toString());
        }
        scan.addAll(List.of("--workers", "2", "--count-by", "level,status,service"));
        List<String> hash = List.of(script(), "hash", "--count", "" + DEMO_HASHES, "--cost", "" + HASH_COST, "--workers", "2");
        commands.add("./batchpipe scan " + objects + "/app-0{00..23}.jsonl.zst --workers 2 --count-by level,status,service");
        commands.add(String.join(" ", hash));
        commands.add(script() + " demo --out " + settings.workDir().resolve("demo-out-N"));
        List<Double> alone = new ArrayList<>(), demo = new ArrayList<>(), window = new ArrayList<>();
        Map<String, Object> lastReport = null;
        String lastTimeLine = null;
        for (int r = 0; r < settings.runs(); r++) {
            out.printf(Locale.ROOT, "bench: demo vs scan+hash alone, run %d/%d ... ", r + 1, settings.runs());
            double a = must(exec(scan), "scan of the demo objects").seconds() + must(exec(hash), "hash of the demo passwords").seconds();
            Path outDir = settings.workDir().resolve("demo-out-" + (r + 1));
            Run d = must(exec(List.of(script(), "demo", "--out", outDir.toString())), "demo");
            alone.add(a);
            demo.add(d.seconds());
            lastTimeLine = d.stdout().lines().map(String::strip).filter(l -> l.startsWith("time:")).findFirst().orElse(lastTimeLine);
            Path reportFile = outDir.resolve("report.json");
            if (Files.isRegularFile(reportFile)) {
                lastReport = Json.parseObject(Files.readString(reportFile));
                window.add(((Number) ((Map<String, Object>) lastReport.get("window")).get("seconds")).doubleValue());
            }
            out.printf(Locale.ROOT, "demo %.2f s, alone %.2f s%n", d.seconds(), a);
        }
        double dm = Stats.median(demo), am = Stats.median(alone);
        figures.add(new MarkdownReport.Figure("demo, whole process (stack start, seeding, run, report)", fmt(dm) + " s", secondsList(demo)));
        figures.add(new MarkdownReport.Figure("same scans + hashes via scan/hash, whole processes", fmt(am) + " s", secondsList(alone)));
        targets.add(Target.atMost("Pipeline: demo wall time vs the same scans and hashes alone",
                fmt(dm) + " vs " + fmt(am) + " s", dm / am, 1.3));
        if (!window.isEmpty()) {
            double wm = Stats.median(window);
            figures.add(new MarkdownReport.Figure("demo run window (report.json: run created to last task finished)", fmt(wm) + " s", secondsList(window)));
            Map<String, Object> overall = (Map<String, Object>) lastReport.get("overall");
            Map<String, Object> latency = (Map<String, Object>) overall.get("latency");
            notes.add(String.format(Locale.ROOT, "Where the demo's time goes (medians): %.1f s of %.1f s is outside the run window "
                            + "(JVM start, starting ElasticMQ/S3Proxy/dynalite, seeding the bucket, the report); the run window itself is %.1f s "
                            + "vs %.1f s for the scans and hashes alone. Last run's report.json: task duration ms %s, queue wait ms %s, "
                            + "cold starts %s, DynamoDB %s.", dm - wm, dm, wm, am, compact(latency.get("taskDurationMs")),
                    compact(latency.get("queueWaitMs")), compact(overall.get("coldStarts")), compact(overall.get("dynamoDb"))));
        }
        if (lastTimeLine != null) {
            notes.add("The last demo's own account of its wall time: " + lastTimeLine.substring("time:".length()).strip() + ".");
        }
    }

    // ---------------------------------------------------------------- cold start

    private void coldStart() throws Exception {
        ColdStart.Result result = new ColdStart(settings.home(), settings.workDir(), settings.runs(), out).measure();
        targets.add(result.target());
        figures.addAll(result.figures());
        commands.addAll(result.commands());
        notes.addAll(result.notes());
    }

    // ---------------------------------------------------------------- output

    private void printTable() {
        out.println();
        out.println("Figures are medians of " + settings.runs() + " runs; absolute figures are noisy, compare the ratios (measured side by side in this run).");
        out.printf(Locale.ROOT, "%-72s %-44s %8s %9s %-8s %s%n", "TARGET", "MEASURED", "RATIO", "GOAL", "RESULT", "MARGIN");
        for (Target t : targets) {
            out.printf(Locale.ROOT, "%-72s %-44s %8s %9s %-8s %s%n", t.name(), abbreviate(t.measured(), 44), t.ratioText(), t.goal(), t.result(), t.margin());
        }
        out.println();
        for (MarkdownReport.Figure f : figures) out.printf(Locale.ROOT, "  %-75s %s   [%s]%n", f.name(), f.median(), f.runs());
        for (String n : notes) out.println("  note: " + n);
    }

    private String markdown() throws IOException, InterruptedException {
        Map<String, String> machine = new LinkedHashMap<>();
        machine.put("Date", ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        machine.put("CPUs (nproc)", exec(List.of("nproc")).stdout().trim());
        String cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("unknown");
        machine.put("CPU model", cpu);
        machine.put("JDK", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " (" + java + ")");
        machine.put("Peers", peerVersions());
        machine.put("Bench", "./batchpipe bench" + (settings.quick() ? " --quick" : "") + " --runs " + settings.runs()
                + (settings.only().isEmpty() ? "" : " --only " + String.join(",", SECTIONS.stream().filter(settings.only()::contains).toList()))
                + (settings.quick() ? " (quick: ~100 MB input)" : " (full: ~1 GB input)"));
        return MarkdownReport.render("Batchpipe benchmarks", machine, targets, figures, commands, notes);
    }

    private String peerVersions() throws IOException, InterruptedException {
        List<String> v = new ArrayList<>();
        if (onPath("node")) v.add("node " + exec(List.of("node", "--version")).stdout().trim());
        if (onPath("python3")) v.add(exec(List.of("python3", "--version")).stdout().trim());
        if (onPath("zstd")) v.add(exec(List.of("zstd", "--version")).stdout().trim().replace("*** ", ""));
        return String.join("; ", v);
    }

    // ---------------------------------------------------------------- helpers

    private List<String> javaCommand() {
        List<String> cmd = new ArrayList<>(List.of(java, "-XX:+UseParallelGC")); // the flags ./batchpipe passes
        int feature = Runtime.version().feature();
        if (feature >= 22) cmd.add("--enable-native-access=ALL-UNNAMED");
        if (feature >= 24) cmd.add("--sun-misc-unsafe-memory-access=allow");
        return cmd;
    }

    private String script() {
        return settings.home().resolve("batchpipe").toString();
    }

    private Path extract(String name, Path dir) throws IOException {
        Path target = dir.resolve(name);
        try (InputStream in = Bench.class.getResourceAsStream("/bench/" + name)) {
            if (in == null) throw new IOException("missing resource /bench/" + name);
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return target;
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) return true;
        }
        return false;
    }

    private static List<String> bash(String script) {
        return List.of("bash", "-c", "set -o pipefail; " + script);
    }

    private static String q(Path p) {
        return q(p.toString());
    }

    private static String q(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    private Run exec(List<String> cmd) throws IOException, InterruptedException {
        return exec(cmd, null);
    }

    private Run exec(List<String> cmd, Function<Long, Void> poll) throws IOException, InterruptedException {
        primeStartupCache(cmd);
        return execTimed(cmd, poll, Map.of());
    }

    /**
     * Runs each `./batchpipe` subcommand once, untimed, before its first timed run: that run writes the
     * subcommand's start-up cache (./batchpipe keeps one per subcommand; an AOT cache on JDK 25+), and
     * waits for it, so every timed run starts as a user's second run of the command does.
     */
    private void primeStartupCache(List<String> cmd) throws IOException, InterruptedException {
        if (cmd.size() < 2 || !cmd.get(0).equals(script()) || !primedSubcommands.add(cmd.get(1))) return;
        out.printf(Locale.ROOT, "bench: one untimed run of `batchpipe %s` writes its start-up cache ...%n", cmd.get(1));
        Run prime = execTimed(cmd, null, Map.of("BATCHPIPE_CDS_WAIT", "1"));
        if (!prime.ok()) throw new IllegalStateException("batchpipe " + cmd.get(1) + " failed (exit " + prime.exit() + "): " + tail(prime.stderr()));
        if (primedSubcommands.size() == 1) {
            notes.add("Each `./batchpipe` subcommand ran once untimed before its timed runs, which writes its start-up cache "
                    + "(the CLI keeps one per subcommand in local/target/cds: an AOT cache on JDK 25+, CDS before), as a user's second run has it.");
        }
    }

    private Run execTimed(List<String> cmd, Function<Long, Void> poll, Map<String, String> env) throws IOException, InterruptedException {
        Path o = Files.createTempFile(settings.workDir(), "out", ".txt"), e = Files.createTempFile(settings.workDir(), "err", ".txt");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(o.toFile()).redirectError(e.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().put("BATCHPIPE_HOME", settings.home().toString());
            pb.environment().putAll(env);
            long start = System.nanoTime();
            Process p = pb.start();
            if (poll != null) {
                while (p.isAlive()) {
                    poll.apply(p.pid());
                    Thread.sleep(20);
                }
            }
            int exit = p.waitFor();
            double seconds = (System.nanoTime() - start) / 1e9;
            return new Run(seconds, exit, Files.readString(o, StandardCharsets.UTF_8), Files.readString(e, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(o);
            Files.deleteIfExists(e);
        }
    }

    private static Run must(Run run, String what) {
        if (!run.ok()) throw new IllegalStateException(what + " failed (exit " + run.exit() + "): " + tail(run.stderr()));
        return run;
    }

    private static String tail(String text) {
        return text.length() <= 600 ? text.strip() : "..." + text.substring(text.length() - 600).strip();
    }

    static List<Double> parseNumbers(String text) {
        List<Double> values = new ArrayList<>();
        Matcher m = Pattern.compile("-?\\d+(\\.\\d+)?").matcher(text);
        while (m.find()) values.add(Double.parseDouble(m.group()));
        return values;
    }

    private static String rate(double seconds, long bytes) {
        return String.format(Locale.ROOT, "%.2f s = %.0f MB/s", seconds, bytes / 1e6 / seconds);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String list(List<Double> values) {
        return String.join(", ", values.stream().map(Bench::fmt).toList());
    }

    private static String secondsList(List<Double> values) {
        return list(values) + " s";
    }

    private static String compact(Object o) {
        return o == null ? "-" : Json.write(o);
    }

    private static String abbreviate(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "…";
    }
}
