package batchpipe.local.cli;

import batchpipe.common.aws.AwsClients;
import batchpipe.common.text.ControlCharacters;
import batchpipe.worker.pool.PoolSize;
import batchpipe.worker.scan.LogScanner;
import batchpipe.worker.scan.Match;
import batchpipe.worker.scan.ScanOptions;
import batchpipe.worker.scan.ScanResult;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * What {@code scan} was asked to do, however its arguments were read ({@link ScanCommand} through picocli,
 * or {@link ScanFastStart}), and the scan itself. Free of picocli types on purpose: see {@link CliMain}.
 */
final class ScanArguments {
    List<String> inputs;
    List<String> countBy = List.of("level", "status");
    String contains;
    String field;
    String equals;
    Integer workers;

    /**
     * Primes the scanner and links zstd on another thread while this one reads the arguments (and, for
     * picocli, builds its model): fixed start-up costs (the priming ~0.06-0.1 s, mostly the JIT; the native
     * library a few ms) that a scan process has a spare core for until its first chunk.
     */
    static void prepareInBackground() {
        Thread preparing = new Thread(() -> {
            try {
                LogScanner.prepare();
            } catch (LinkageError | RuntimeException e) {
                // nothing lost: the scan links zstd itself when it opens a zstd input, and reports this there
            }
        }, "scan-prepare");
        preparing.setDaemon(true);
        preparing.start();
    }

    /** What the arguments ask for, checked before anything is read. */
    record Plan(ScanOptions options, int threads, List<String> inputs) {
    }

    /** An argument out of its limits; the message names the argument and the limit. */
    static final class UsageError extends Exception {
        UsageError(String message) {
            super(message);
        }
    }

    /** Checks every argument, in the order a user reads them, without touching any input. */
    Plan plan() throws UsageError {
        Match match = match();
        ScanOptions options;
        try {
            options = ScanOptions.defaults().withCountBy(countBy).withMatch(match);
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
        int threads = workers != null ? workers : PoolSize.from(System.getenv(), Runtime.getRuntime().availableProcessors()).threads();
        if (threads < 1 || threads > 256) {
            throw new UsageError("--workers must be between 1 and 256, got " + threads);
        }
        for (String input : inputs) {
            if (input.startsWith("s3://")) {
                s3Location(input);
            } else if (Files.isDirectory(Path.of(input))) {
                throw new UsageError("input is a folder, not a file: " + input + " (give its log files, e.g. " + input + "/*.zst)");
            } else if (!Files.isRegularFile(Path.of(input))) {
                throw new UsageError("input file not found: " + input);
            }
        }
        return new Plan(options, threads, List.copyOf(inputs));
    }

    /** Scans every input of a checked plan and prints the stats JSON; returns the exit code. */
    static int execute(Plan plan) throws Exception {
        ForkJoinPool pool = parsingPool(plan.threads());
        S3Client s3 = null;
        try {
            LogScanner scanner = new LogScanner(pool, LogScanner.CLI_CHUNKS_PER_TASK);
            List<String> results = new ArrayList<>();
            for (String input : plan.inputs()) {
                if (input.startsWith("s3://")) {
                    if (s3 == null) s3 = AwsClients.s3();
                    results.add(scanS3(scanner, s3, s3Location(input), plan.options()).toJson());
                } else {
                    try (InputStream in = Files.newInputStream(Path.of(input))) {
                        results.add(scanner.scan(in, plan.options()).toJson());
                    }
                }
            }
            // JSON escapes C0 but passes DEL and C1, which some terminals act on; the escape keeps the same JSON.
            System.out.println(ControlCharacters.escapeKeepingLines(results.size() == 1 ? results.get(0) : "[" + String.join(",", results) + "]"));
            return 0;
        } finally {
            pool.shutdownNow();
            if (s3 != null) s3.close();
        }
    }

    /** The pool that parses a scan's chunks: {@code threads} threads, each {@link #parsingThread}. */
    static ForkJoinPool parsingPool(int threads) {
        return new ForkJoinPool(threads, ScanArguments::parsingThread, null, false);
    }

    /**
     * A pool thread at the lowest priority, so that the reading thread keeps its core. The reader
     * decompresses, and nothing is parsed before it is decompressed: it is the scan's critical path. With
     * the pool's threads at its priority, three runnable threads shared two cores and the reader had two
     * thirds of one. The priority takes effect only under {@code -XX:ThreadPriorityPolicy=1}, which
     * ./batchpipe passes for {@code scan} (then nice 4 on Linux, which any user may set; elsewhere the JVM
     * ignores Java priorities). Whole scans side by side, 12 rounds as a non-root user: long values 0.865
     * against 0.890 s, short lines 1.320 against 1.365 s (docs/BENCHMARKS.md). Nice 4 rather than lower
     * still (nice 10 gained a little more): on a machine busy with other work the pool must not starve.
     */
    private static ForkJoinWorkerThread parsingThread(ForkJoinPool pool) {
        ForkJoinWorkerThread thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
        thread.setPriority(Thread.MIN_PRIORITY);
        return thread;
    }

    private record S3Location(String bucket, String key) {
    }

    private static S3Location s3Location(String url) throws UsageError {
        String rest = url.substring("s3://".length());
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash == rest.length() - 1) {
            throw new UsageError("expected s3://bucket/key, got " + url);
        }
        return new S3Location(rest.substring(0, slash), rest.substring(slash + 1));
    }

    private static ScanResult scanS3(LogScanner scanner, S3Client s3, S3Location location, ScanOptions options) throws Exception {
        try (InputStream in = s3.getObject(b -> b.bucket(location.bucket()).key(location.key()))) {
            return scanner.scan(in, options);
        }
    }

    private Match match() throws UsageError {
        if (contains != null && (field != null || equals != null)) {
            throw new UsageError("give either --contains or --field with --equals, not both");
        }
        if ((field == null) != (equals == null)) {
            throw new UsageError("--field and --equals go together");
        }
        try {
            if (contains != null) return new Match.Contains(contains);
            if (field != null) return new Match.FieldEquals(field, equals);
            return null;
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
    }
}
