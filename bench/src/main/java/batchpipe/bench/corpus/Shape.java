package batchpipe.bench.corpus;

import batchpipe.local.sample.LongValueLogs;
import batchpipe.local.sample.NarrowLogs;
import batchpipe.local.sample.SampleLogs;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;

/**
 * The shapes of log the scan is measured on. Each writes the same bytes for the same seed and line count.
 */
public enum Shape {
    /** The generator behind {@code ./batchpipe sample} and the demo: log lines of a few hundred bytes. */
    SHORT("short", 4_200_000, 420_000) {
        @Override
        public void write(long seed, long lines, OutputStream out) throws IOException {
            SampleLogs logs = new SampleLogs(seed, MALFORMED_EVERY);
            int part = 0; // the same parts of one million lines as `batchpipe sample`, so the bytes match it
            for (long written = 0; written < lines; written += 1_000_000, part++) {
                logs.write(part, (int) Math.min(1_000_000, lines - written), out);
            }
        }
    },
    /** {@link LongValueLogs}: lines of 10-100 KB with long strings and large arrays hold most of the bytes. */
    LONG_VALUES("long-values", 1_000_000, 200_000) {
        @Override
        public void write(long seed, long lines, OutputStream out) throws IOException {
            new LongValueLogs(seed, MALFORMED_EVERY).write(Math.toIntExact(lines), out);
        }
    },
    /** {@link NarrowLogs}: tiny events of under 100 bytes. */
    NARROW("narrow", 8_000_000, 1_600_000) {
        @Override
        public void write(long seed, long lines, OutputStream out) throws IOException {
            new NarrowLogs(seed, MALFORMED_EVERY).write(Math.toIntExact(lines), out);
        }
    };

    /** One line in this many is malformed on purpose, in every shape. */
    public static final int MALFORMED_EVERY = 2_000;

    /** The name {@code --shapes} takes and the figures show. */
    public final String label;
    /** Lines in the full bench's file (about 1 GB for short, 0.5 GB for the others) and in --quick's (about 100 MB). */
    public final long fullLines;
    public final long quickLines;

    Shape(String label, long fullLines, long quickLines) {
        this.label = label;
        this.fullLines = fullLines;
        this.quickLines = quickLines;
    }

    public abstract void write(long seed, long lines, OutputStream out) throws IOException;

    public static Shape byLabel(String label) {
        for (Shape s : values()) {
            if (s.label.equals(label)) return s;
        }
        throw new IllegalArgumentException("unknown shape '" + label + "'; the shapes are " + String.join(", ", labels()));
    }

    public static List<String> labels() {
        return Arrays.stream(values()).map(s -> s.label).toList();
    }
}
