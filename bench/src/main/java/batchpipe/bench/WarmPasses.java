package batchpipe.bench;

import batchpipe.worker.scan.LogScanner;
import batchpipe.worker.scan.ScanOptions;
import batchpipe.worker.scan.ScanResult;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ForkJoinPool;

/**
 * Scans one file several times in one fresh JVM and prints each pass's seconds as a JSON array, so the
 * bench can compare the first pass (what an invocation without SnapStart sees) with the warm ones.
 * Usage: {@code java -cp batchpipe.jar batchpipe.local.bench.WarmPasses FILE PASSES WORKERS}.
 */
public final class WarmPasses {
    private WarmPasses() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int passes = Integer.parseInt(args[1]);
        int workers = Integer.parseInt(args[2]);
        ScanOptions options = ScanOptions.defaults().withCountBy(List.of("level", "status"));
        ForkJoinPool pool = new ForkJoinPool(workers);
        StringBuilder out = new StringBuilder("[");
        try {
            LogScanner scanner = new LogScanner(pool, LogScanner.CLI_CHUNKS_PER_TASK); // as the CLI's scan
            for (int i = 0; i < passes; i++) {
                long start = System.nanoTime();
                ScanResult result;
                try (InputStream in = Files.newInputStream(file)) {
                    result = scanner.scan(in, options);
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                if (result == null) throw new IllegalStateException("no result");
                out.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.4f", seconds));
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.println(out.append(']'));
    }
}
