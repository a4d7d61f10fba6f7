package batchpipe.bench;

import batchpipe.bench.corpus.Shape;
import batchpipe.common.json.Json;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scan's throughput against the peers: {@code ./batchpipe scan} beside {@code zstd -dc | node},
 * {@code zstd -dc | python3} and plain {@code zstd -dc}, whole processes, in rotation.
 */
final class ScanBench {
    /** The decompression floor each shape must reach: the share of plain {@code zstd -dc}'s speed (issue 19). */
    static final Map<Shape, Double> ZSTD_FLOOR = Map.of(Shape.SHORT, 0.55, Shape.LONG_VALUES, 0.5);

    private final BenchContext context;

    ScanBench(BenchContext context) {
        this.context = context;
    }

    void measure(ScanCorpus corpus) throws Exception {
        Findings findings = context.findings();
        Path scripts = context.settings().workDir().resolve("peers");
        Files.createDirectories(scripts);
        Path js = extract("scan.js", scripts), py = extract("scan.py", scripts);
        Peers peers = context.peers();
        boolean zstd = peers.onPath("zstd"), node = peers.onPath("node"), python = peers.onPath("python3");
        Path file = corpus.file();
        Map<String, List<String>> cmds = new LinkedHashMap<>();
        cmds.put("java", List.of(context.script(), "scan", file.toString(), "--workers", "2", "--count-by", "level,status"));
        if (zstd && node) cmds.put("node", Shell.bash("zstd -dc " + Shell.quote(file) + " | node " + Shell.quote(js)));
        if (zstd && python) cmds.put("python", Shell.bash("zstd -dc " + Shell.quote(file) + " | python3 " + Shell.quote(py)));
        if (zstd) cmds.put("zstd", Shell.bash("zstd -dc " + Shell.quote(file) + " > /dev/null"));
        for (String peer : List.of("zstd", "node", "python3")) {
            if (!peers.onPath(peer)) findings.note("Peer missing: `" + peer + "` is not on PATH; the targets that need it are skipped.");
        }
        cmds.values().forEach(c -> findings.command(Shell.display(c)));

        Map<String, List<Double>> times = new LinkedHashMap<>();
        Map<String, String> firstOutput = new LinkedHashMap<>();
        int runs = context.settings().runs();
        for (int r = 0; r < runs; r++) {
            for (Map.Entry<String, List<String>> e : cmds.entrySet()) {
                context.out().printf(Locale.ROOT, "bench: scan (%s) %s, run %d/%d ... ", corpus.shape().label, e.getKey(), r + 1, runs);
                ProcessRunner.Run run = context.processes().run(e.getValue()).orFail(e.getKey() + " scan");
                context.out().printf(Locale.ROOT, "%.2f s%n", run.seconds());
                times.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(run.seconds());
                firstOutput.putIfAbsent(e.getKey(), run.stdout());
            }
        }
        checkSameWork(corpus.shape(), firstOutput);

        Map<String, Double> median = new LinkedHashMap<>();
        times.forEach((k, v) -> {
            median.put(k, Stats.median(v));
            findings.figure("scan (" + corpus.shape().label + "), " + k + " (whole process)", Format.rate(Stats.median(v), corpus.bytes()), Format.seconds(v));
        });
        double j = median.get("java");
        String javaRate = String.format(Locale.ROOT, "%.0f MB/s", Format.megabytesPerSecond(corpus.bytes(), j));
        String shape = corpus.shape().label;
        target("Scan (" + shape + "): java --workers 2 vs zstd -dc | node JSON.parse", median, "node", j, javaRate, corpus.bytes(), 2.5);
        target("Scan (" + shape + "): java --workers 2 vs zstd -dc | python3 json.loads", median, "python", j, javaRate, corpus.bytes(), 8.0);
        Double floor = ZSTD_FLOOR.get(corpus.shape());
        if (floor != null) {
            target("Scan (" + shape + "): java --workers 2 vs zstd -dc > /dev/null", median, "zstd", j, javaRate, corpus.bytes(), floor);
        } else if (median.containsKey("zstd")) {
            findings.figure("scan (" + shape + "), java vs zstd -dc > /dev/null (no target for this shape)",
                    String.format(Locale.ROOT, "%.2fx", median.get("zstd") / j), "ratio of the medians");
        }
    }

    /** The peers must have done the same work: the same events and malformed lines. */
    private void checkSameWork(Shape shape, Map<String, String> firstOutput) {
        Map<String, Object> javaResult = Json.parseObject(firstOutput.get("java").trim());
        for (String peer : List.of("node", "python")) {
            if (!firstOutput.containsKey(peer)) continue;
            Map<String, Object> r = Json.parseObject(firstOutput.get(peer).trim());
            if (!String.valueOf(r.get("events")).equals(String.valueOf(javaResult.get("events")))
                    || !String.valueOf(r.get("malformed")).equals(String.valueOf(javaResult.get("malformed")))) {
                context.findings().note(String.format(Locale.ROOT, "Check (%s): %s counted %s events / %s malformed, Java %s / %s "
                                + "(the peers are laxer than RFC 8259 and the scan's depth limit: node decodes invalid UTF-8 as U+FFFD, "
                                + "neither peer stops at 512 levels of nesting; the Java scan counts those lines malformed).",
                        shape.label, peer, r.get("events"), r.get("malformed"), javaResult.get("events"), javaResult.get("malformed")));
            }
        }
        context.findings().note(String.format(Locale.ROOT,
                "Scan check (%s): the Java scanner counted %s events and %s malformed lines; the peers the same unless noted.",
                shape.label, javaResult.get("events"), javaResult.get("malformed")));
    }

    private void target(String name, Map<String, Double> median, String peer, double javaSeconds, String javaRate, long bytes, double limit) {
        Double p = median.get(peer);
        if (p == null) {
            context.findings().target(Target.skipped(name, Target.Bound.AT_LEAST, limit, "skipped: peer missing"));
            return;
        }
        context.findings().target(Target.atLeast(name,
                String.format(Locale.ROOT, "%s vs %.0f MB/s", javaRate, Format.megabytesPerSecond(bytes, p)), p / javaSeconds, limit));
    }

    private static Path extract(String name, Path dir) throws IOException {
        Path target = dir.resolve(name);
        try (InputStream in = ScanBench.class.getResourceAsStream("/bench/" + name)) {
            if (in == null) throw new IOException("missing resource /bench/" + name);
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return target;
    }
}
