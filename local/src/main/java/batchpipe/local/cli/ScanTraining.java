package batchpipe.local.cli;

import batchpipe.local.sample.LongValueLogs;
import batchpipe.local.sample.NarrowLogs;
import batchpipe.local.sample.SampleLogs;
import com.github.luben.zstd.ZstdOutputStream;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What the run that records {@code ./batchpipe scan}'s start-up cache scans: a fixed mix of three shapes of
 * log, {@value #PASSES} times over, in place of the user's inputs, with the user's options. After the first
 * successful scan of a build the script writes the mix with {@link #main} and runs the same scan again with
 * {@code -Dbatchpipe.scan.training=MIX_FILE}, recording, with C2's thresholds ten times their defaults.
 *
 * <p>Why not the user's own scan, as every other subcommand records: on JDK 25 the cache also holds the
 * method profiles of its recording run (JEP 515), and C2 compiles every later scan from them. A profile
 * stops growing once C2 has compiled its method, so a scan's recording held what the parser saw in its
 * first chunks of one file, and when: two recordings of one file differed by up to 5%, and a cache
 * recorded from the short-line file slowed a long-values scan by 4-5%. Here every C2 compile waits ten times
 * longer, until the profiles have seen the whole mix at least once, so they weigh the three shapes alike
 * whichever file the user scanned first; and C2 does compile the hot methods before the training ends,
 * which the cache must record: a method it saw compiled by C2 is compiled by C2 at once in later runs, one
 * it saw only in C1 is left to the usual thresholds (recorded with C2 off, the parser's loop over lines
 * stayed in C1 code through a whole long-values scan). The user's own first scan runs at full speed
 * instead of under the recording. docs/BENCHMARKS.md (twelfth pass) has the figures.
 *
 * <p>The mix: {@value #BYTES_PER_SHAPE} bytes of each of {@link SampleLogs} (the demo's short lines),
 * {@link LongValueLogs} (10-100 KB lines of long strings and arrays among short ones) and {@link NarrowLogs}
 * (events under 100 bytes), malformed lines included, interleaved in blocks of about {@value #BLOCK} bytes
 * so that both parsing threads see every shape. These are the generators of the bench's corpora, with
 * another seed: a user whose logs have some other shape gets profiles fitted to these three, where before
 * they were fitted to the first chunks of whatever file that user scanned first.
 */
final class ScanTraining {
    /** The system property that makes {@code scan} read the mix (its value: the mix's file) in place of its inputs. */
    static final String PROPERTY = "batchpipe.scan.training";
    /** Passes over the mix: enough calls for C2 to compile every hot method under the raised thresholds. */
    static final int PASSES = 6;
    static final int BYTES_PER_SHAPE = 4 << 20;
    static final int BLOCK = 64 << 10;
    /** Not the bench's seed (42): the profiles should fit these shapes, not the bench's exact lines. */
    private static final long SEED = 7;
    /** The generators' own rate, as in the bench's corpora. */
    private static final int MALFORMED_EVERY = 2_000;

    private ScanTraining() {
    }

    /**
     * Writes the mix, zstd-compressed as a user's logs are, to the file the one argument names. A JVM of its
     * own, before the recording run: the generators' classes and the compressor stay out of the cache, and
     * their calls out of the profiles of the JDK methods the scan shares with them.
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ScanTraining OUTPUT.jsonl.zst (writes the start-up cache's training mix)");
            System.exit(2);
        }
        try (OutputStream out = new ZstdOutputStream(new BufferedOutputStream(Files.newOutputStream(Path.of(args[0])), 1 << 16), 3)) {
            writeMix(out);
        }
    }

    /** The mix's uncompressed bytes: the same on every call. */
    static void writeMix(OutputStream out) throws IOException {
        byte[][] shapes = {
                firstBytes(o -> new SampleLogs(SEED, MALFORMED_EVERY).write(0, 40_000, o), "short"),
                firstBytes(o -> new LongValueLogs(SEED, MALFORMED_EVERY).write(20_000, o), "long-values"),
                firstBytes(o -> new NarrowLogs(SEED, MALFORMED_EVERY).write(150_000, o), "narrow")};
        int[] at = new int[shapes.length];
        while (true) {
            // the next block from the shape least far through its bytes: a long line makes its block longer
            // than BLOCK, and plain turns would then run the long-values shape out well before the others
            int next = -1;
            for (int s = 0; s < shapes.length; s++) {
                if (at[s] < shapes[s].length && (next < 0 || (double) at[s] / shapes[s].length < (double) at[next] / shapes[next].length)) {
                    next = s;
                }
            }
            if (next < 0) return;
            byte[] bytes = shapes[next];
            int end = lineEndAtOrAfter(bytes, Math.min(bytes.length, at[next] + BLOCK) - 1);
            out.write(bytes, at[next], end - at[next]);
            at[next] = end;
        }
    }

    private interface Generator {
        void write(OutputStream out) throws IOException;
    }

    /** The whole lines within the first {@link #BYTES_PER_SHAPE} bytes a generator writes, plus the line that crosses it. */
    private static byte[] firstBytes(Generator generator, String shape) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(BYTES_PER_SHAPE * 2);
        generator.write(out);
        byte[] all = out.toByteArray();
        if (all.length < BYTES_PER_SHAPE) {
            throw new IllegalStateException("the " + shape + " generator wrote " + all.length + " bytes, fewer than the "
                    + BYTES_PER_SHAPE + " the training mix takes of it");
        }
        return Arrays.copyOf(all, lineEndAtOrAfter(all, BYTES_PER_SHAPE - 1));
    }

    /** The index after the first newline at or after {@code from}, or the length when none follows. */
    private static int lineEndAtOrAfter(byte[] bytes, int from) {
        for (int i = Math.max(0, from); i < bytes.length; i++) {
            if (bytes[i] == '\n') return i + 1;
        }
        return bytes.length;
    }
}
