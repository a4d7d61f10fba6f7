package batchpipe.bench;

import batchpipe.local.sample.SampleLogs;
import com.github.luben.zstd.ZstdOutputStream;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * The scan's input: seeded JSON lines, zstd-compressed, generated once into the work directory and kept,
 * with the uncompressed size beside it in a {@code .bytes} file.
 *
 * @param file the compressed file
 * @param bytes its uncompressed size
 * @param howMade how to make the same bytes with the CLI, for the page
 */
record ScanCorpus(Path file, long bytes, String howMade) {
    static final long SEED = 42;
    static final long FULL_LINES = 4_200_000;   // ~1 GB uncompressed: the scan file (>= 500 MB) and the memory target
    static final long QUICK_LINES = 420_000;    // ~100 MB

    static ScanCorpus prepare(Path workDir, boolean quick, PrintStream out) throws IOException {
        long lines = quick ? QUICK_LINES : FULL_LINES;
        Path file = workDir.resolve("scan-" + lines + "-seed" + SEED + ".jsonl.zst");
        String howMade = "# input: the same bytes as ./batchpipe sample --out " + file.getFileName() + " --lines " + lines + " --seed " + SEED;
        if (!Files.isRegularFile(file) || !Files.isRegularFile(sidecar(file))) {
            out.printf(Locale.ROOT, "bench: generating %,d seeded lines into %s ...%n", lines, file);
            SampleLogs logs = new SampleLogs(SEED, 2_000);
            long bytes = writeZstd(file, counting -> {
                int part = 0; // the same parts of one million lines as `batchpipe sample`, so the bytes match it
                for (long written = 0; written < lines; written += 1_000_000, part++) {
                    logs.write(part, (int) Math.min(1_000_000, lines - written), counting);
                }
            });
            Files.writeString(sidecar(file), Long.toString(bytes));
        }
        return new ScanCorpus(file, Long.parseLong(Files.readString(sidecar(file)).trim()), howMade);
    }

    /** Something that writes a corpus's uncompressed lines. */
    interface Writer {
        void write(OutputStream out) throws IOException;
    }

    /** Writes {@code writer}'s lines zstd-compressed (level 3) to {@code file}, atomically; returns the uncompressed bytes. */
    static long writeZstd(Path file, Writer writer) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        long[] count = {0};
        try (OutputStream fileOut = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20);
             OutputStream zstd = new ZstdOutputStream(fileOut, 3);
             OutputStream counting = new FilterOutputStream(zstd) {
                 @Override
                 public void write(byte[] b, int off, int len) throws IOException {
                     count[0] += len;
                     out.write(b, off, len);
                 }
             }) {
            writer.write(counting);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        return count[0];
    }

    private static Path sidecar(Path file) {
        return file.resolveSibling(file.getFileName() + ".bytes");
    }
}
