package batchpipe.bench;

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
                context.out().printf(Locale.ROOT, "bench: scan %s, run %d/%d ... ", e.getKey(), r + 1, runs);
                ProcessRunner.Run run = context.processes().run(e.getValue()).orFail(e.getKey() + " scan");
                context.out().printf(Locale.ROOT, "%.2f s%n", run.seconds());
                times.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(run.seconds());
                firstOutput.putIfAbsent(e.getKey(), run.stdout());
            }
        }
        checkSameWork(firstOutput);

        Map<String, Double> median = new LinkedHashMap<>();
        times.forEach((k, v) -> {
            median.put(k, Stats.median(v));
            findings.figure("scan, " + k + " (whole process)", Format.rate(Stats.median(v), corpus.bytes()), Format.seconds(v));
        });
        double j = median.get("java");
        String javaRate = String.format(Locale.ROOT, "%.0f MB/s", Format.megabytesPerSecond(corpus.bytes(), j));
        target("Scan: java --workers 2 vs zstd -dc | node JSON.parse", median, "node", j, javaRate, corpus.bytes(), 2.5);
        target("Scan: java --workers 2 vs zstd -dc | python3 json.loads", median, "python", j, javaRate, corpus.bytes(), 8.0);
        target("Scan: java --workers 2 vs zstd -dc > /dev/null", median, "zstd", j, javaRate, corpus.bytes(), 0.4);
    }

    /** The peers must have done the same work: the same events and malformed lines. */
    private void checkSameWork(Map<String, String> firstOutput) {
        Map<String, Object> javaResult = Json.parseObject(firstOutput.get("java").trim());
        for (String peer : List.of("node", "python")) {
            if (!firstOutput.containsKey(peer)) continue;
            Map<String, Object> r = Json.parseObject(firstOutput.get(peer).trim());
            if (!String.valueOf(r.get("events")).equals(String.valueOf(javaResult.get("events")))
                    || !String.valueOf(r.get("malformed")).equals(String.valueOf(javaResult.get("malformed")))) {
                context.findings().note(String.format(Locale.ROOT, "Check: %s counted %s events / %s malformed, Java %s / %s.",
                        peer, r.get("events"), r.get("malformed"), javaResult.get("events"), javaResult.get("malformed")));
            }
        }
        context.findings().note(String.format(Locale.ROOT,
                "Scan check: the Java scanner and the peers counted the same events (%s) and malformed lines (%s) unless noted.",
                javaResult.get("events"), javaResult.get("malformed")));
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
