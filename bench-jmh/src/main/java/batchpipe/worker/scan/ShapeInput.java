package batchpipe.worker.scan;

import batchpipe.bench.corpus.Shape;
import com.github.luben.zstd.Zstd;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * About 8 MB of each shape of the bench's scan corpus ({@link Shape}: short lines, long values, narrow
 * events), generated with the bench's seed, so a kernel is measured on the same kinds of lines as the
 * whole-scan figures of {@code ./batchpipe bench}.
 */
final class ShapeInput {
    static final long SEED = 42;

    private ShapeInput() {
    }

    static Shape shape(String label) {
        return Shape.byLabel(label);
    }

    /** Lines giving about 8 MB: several default chunks, with dozens of long lines in the long-value shape. */
    static long lines(Shape shape) {
        return switch (shape) {
            case SHORT -> 32_000;
            case LONG_VALUES -> 16_000;
            case NARROW -> 140_000;
        };
    }

    static byte[] plain(Shape shape) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(9 << 20);
        try {
            shape.write(SEED, lines(shape), out);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return out.toByteArray();
    }

    /** Compressed at level 3, as the bench's files are. */
    static byte[] zstd(byte[] plain) {
        return Zstd.compress(plain, 3);
    }
}
