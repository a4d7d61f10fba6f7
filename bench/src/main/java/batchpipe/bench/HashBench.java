package batchpipe.bench;

import batchpipe.common.json.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** bcrypt: the worker's ms per hash against a C bcrypt, and two workers' rate against one's. */
final class HashBench {
    static final int HASH_COST = 10;
    /**
     * Hashes per hash run. 240 at cost 10 is about 17 s on one worker and 9 s on two: the rate of the
     * hashing itself. With 40 (3 s and 1.6 s) the JIT's compilation, which a single worker leaves to the
     * idle core but two workers must share their cores with, cut the two-worker figure to 1.80-1.87x of
     * one (240: 1.96x, side by side).
     */
    static final int HASH_COUNT = 240;

    private final BenchContext context;

    HashBench(BenchContext context) {
        this.context = context;
    }

    void measure() throws Exception {
        Findings findings = context.findings();
        ProcessRunner processes = context.processes();
        List<String> one = List.of(context.script(), "hash", "--count", "" + HASH_COUNT, "--cost", "" + HASH_COST, "--workers", "1");
        List<String> two = List.of(context.script(), "hash", "--count", "" + HASH_COUNT, "--cost", "" + HASH_COST, "--workers", "2");
        Peers.CBcrypt c = context.peers().cBcrypt(processes, HASH_COUNT, HASH_COST);
        if (c == null) {
            findings.note("Peer missing: neither Debian's python3-bcrypt (/usr/bin/python3 -c 'import bcrypt') nor htpasswd (apache2-utils); the C bcrypt comparison is skipped.");
        }
        findings.command(String.join(" ", one));
        findings.command(String.join(" ", two));
        if (c != null) findings.command(c.display());
        // The machine's own limit on two-core scaling: the C peer, two processes at once.
        List<String> cTwice = c == null ? null : c.twiceAtOnce();
        if (cTwice != null) findings.command(Shell.display(cTwice));
        List<Double> ms1 = new ArrayList<>(), rate1 = new ArrayList<>(), rate2 = new ArrayList<>(), msC = new ArrayList<>(),
                scalingC = new ArrayList<>();
        int runs = context.settings().runs();
        for (int r = 0; r < runs; r++) {
            context.out().printf(Locale.ROOT, "bench: hash, run %d/%d ... ", r + 1, runs);
            Map<String, Object> j1 = Json.parseObject(processes.run(one).orFail("hash --workers 1").stdout().trim());
            Map<String, Object> j2 = Json.parseObject(processes.run(two).orFail("hash --workers 2").stdout().trim());
            ms1.add(((Number) j1.get("msPerHash")).doubleValue());
            rate1.add(((Number) j1.get("hashesPerSecond")).doubleValue());
            rate2.add(((Number) j2.get("hashesPerSecond")).doubleValue());
            if (c != null) msC.add(Stats.numbers(processes.run(c.command()).orFail(c.name()).stdout()).get(0));
            if (cTwice != null) {
                List<Double> both = Stats.numbers(processes.run(cTwice).orFail(c.name() + ", two at once").stdout());
                scalingC.add((1000 / both.get(0) + 1000 / both.get(1)) / (1000 / msC.get(r)));
            }
            context.out().printf(Locale.ROOT, "java 1w %.1f ms/hash, 2w %.1f hashes/s%s%n", ms1.get(r), rate2.get(r),
                    c == null ? "" : String.format(Locale.ROOT, ", C %.1f ms/hash", msC.get(r)));
        }
        findings.figure("hash cost 10, java 1 worker (ms/hash, in-process timing)", Format.fixed(Stats.median(ms1)) + " ms", Format.list(ms1));
        findings.figure("hash cost 10, java 2 workers (hashes/s)", Format.fixed(Stats.median(rate2)), Format.list(rate2));
        if (c != null) {
            findings.figure("hash cost 10, " + c.name() + " (ms/hash)", Format.fixed(Stats.median(msC)) + " ms", Format.list(msC));
            findings.target(Target.atMost("Hash: java 1-worker ms/hash vs C bcrypt",
                    Format.fixed(Stats.median(ms1)) + " vs " + Format.fixed(Stats.median(msC)) + " ms", Stats.median(ms1) / Stats.median(msC), 1.15));
        } else {
            findings.target(Target.skipped("Hash: java 1-worker ms/hash vs C bcrypt", Target.Bound.AT_MOST, 1.15, "skipped: no C bcrypt installed"));
        }
        findings.target(Target.atLeast("Hash: 2 workers vs 1 worker rate",
                Format.fixed(Stats.median(rate2)) + " vs " + Format.fixed(Stats.median(rate1)) + " hashes/s", Stats.median(rate2) / Stats.median(rate1), 1.9));
        if (!scalingC.isEmpty()) {
            findings.figure("hash cost 10, " + c.name() + ", two processes at once vs one (rate ratio)",
                    Format.fixed(Stats.median(scalingC)) + "x", Format.list(scalingC));
            findings.note(String.format(Locale.ROOT, "Two-core scaling of this machine itself: the C peer run as two processes at once hashes %sx"
                    + " the rate of one (median), against Java's %sx with two workers in one process.", Format.fixed(Stats.median(scalingC)),
                    Format.fixed(Stats.median(rate2) / Stats.median(rate1))));
        }
    }
}
