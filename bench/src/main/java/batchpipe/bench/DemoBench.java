package batchpipe.bench;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.stats.RunFigures;
import batchpipe.common.json.Json;
import batchpipe.local.sample.SampleLogs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The demo's whole wall time against the same scans and hashes run alone: what the pipeline itself costs. */
final class DemoBench {
    static final int DEMO_OBJECTS = 24, DEMO_LINES = 20_000, DEMO_HASHES = 8 * 25;
    private final BenchContext context;

    DemoBench(BenchContext context) {
        this.context = context;
    }

    void measure() throws Exception {
        Findings findings = context.findings();
        ProcessRunner processes = context.processes();
        Path workDir = context.settings().workDir();
        Path objects = workDir.resolve("demo-objects");
        Files.createDirectories(objects);
        SampleLogs logs = new SampleLogs(ScanCorpus.SEED, 2_000); // the objects `demo` puts in its bucket (SampleData.seed)
        List<String> scan = new ArrayList<>(List.of(context.script(), "scan"));
        for (int i = 0; i < DEMO_OBJECTS; i++) {
            Path o = objects.resolve(String.format(Locale.ROOT, "app-%03d.jsonl.zst", i));
            if (!Files.isRegularFile(o)) Files.write(o, logs.zstdObject(i, DEMO_LINES));
            scan.add(o.toString());
        }
        scan.addAll(List.of("--workers", "2", "--count-by", "level,status,service"));
        List<String> hash = List.of(context.script(), "hash", "--count", "" + DEMO_HASHES, "--cost", "" + HashBench.HASH_COST, "--workers", "2");
        findings.command("./batchpipe scan " + objects + "/app-0{00..23}.jsonl.zst --workers 2 --count-by level,status,service");
        findings.command(String.join(" ", hash));
        findings.command(context.script() + " demo --out " + workDir.resolve("demo-out-N"));
        List<Double> alone = new ArrayList<>(), demo = new ArrayList<>(), window = new ArrayList<>();
        RunFigures lastReport = null;
        String lastTimeLine = null;
        int runs = context.settings().runs();
        for (int r = 0; r < runs; r++) {
            context.out().printf(Locale.ROOT, "bench: demo vs scan+hash alone, run %d/%d ... ", r + 1, runs);
            double a = processes.run(scan).orFail("scan of the demo objects").seconds()
                    + processes.run(hash).orFail("hash of the demo passwords").seconds();
            Path outDir = workDir.resolve("demo-out-" + (r + 1));
            ProcessRunner.Run d = processes.run(List.of(context.script(), "demo", "--out", outDir.toString())).orFail("demo");
            alone.add(a);
            demo.add(d.seconds());
            lastTimeLine = d.stdout().lines().map(String::strip).filter(l -> l.startsWith("time:")).findFirst().orElse(lastTimeLine);
            Path reportFile = outDir.resolve("report.json");
            if (Files.isRegularFile(reportFile)) {
                lastReport = Report.fromJson(Files.readString(reportFile), reportFile.toString()).figures();
                window.add(lastReport.window().seconds());
            }
            context.out().printf(Locale.ROOT, "demo %.2f s, alone %.2f s%n", d.seconds(), a);
        }
        double dm = Stats.median(demo), am = Stats.median(alone);
        findings.figure("demo, whole process (stack start, seeding, run, report)", Format.fixed(dm) + " s", Format.seconds(demo));
        findings.figure("same scans + hashes via scan/hash, whole processes", Format.fixed(am) + " s", Format.seconds(alone));
        findings.target(Target.atMost("Pipeline: demo wall time vs the same scans and hashes alone",
                Format.fixed(dm) + " vs " + Format.fixed(am) + " s", dm / am, 1.3));
        if (!window.isEmpty()) {
            double wm = Stats.median(window);
            findings.figure("demo run window (report.json: run created to last task finished)", Format.fixed(wm) + " s", Format.seconds(window));
            RunFigures.Group overall = lastReport.overall();
            findings.note(String.format(Locale.ROOT, "Where the demo's time goes (medians): %.1f s of %.1f s is outside the run window "
                            + "(JVM start, starting ElasticMQ/S3Proxy/dynalite, seeding the bucket, the report); the run window itself is %.1f s "
                            + "vs %.1f s for the scans and hashes alone. Last run's report.json: task duration ms %s, queue wait ms %s, "
                            + "cold starts %s, DynamoDB %s.", dm - wm, dm, wm, am, compact(overall.latency().taskDurationMs()),
                    compact(overall.latency().queueWaitMs()), compact(overall.coldStarts()), compact(overall.dynamoDb())));
        }
        if (lastTimeLine != null) {
            findings.note("The last demo's own account of its wall time: " + lastTimeLine.substring("time:".length()).strip() + ".");
        }
    }

    private static String compact(Object o) {
        return o == null ? "-" : Json.write(o);
    }
}
