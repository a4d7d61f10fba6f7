package batchpipe.worker.scan;

import batchpipe.bench.corpus.Shape;
import batchpipe.worker.benchmark.MillisecondsPerOperation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The strict check ({@link JsonLineValidator#scanLine}) on one field of the long-value shape's long lines
 * at a time, each taken out of the bench's own lines byte for byte into lines of its own
 * ({@code {"f":<value>}}): the stack trace (ASCII with a {@code \n\tat} pair every ~60 bytes), the request
 * body (words in five scripts, emoji, and an escape every ~17 bytes), the number samples and the tags. The
 * whole shape's figure ({@link ShapeKernelBenchmark}) mixes them; this says which one to work on. Divide
 * the bytes printed at setup by the time per operation for MB/s.
 */
public class LongValueFieldBenchmark extends MillisecondsPerOperation {

    @Param({"stack", "body", "samples", "tags"})
    public String field;

    private byte[] lines;
    private JsonLineValidator validator;

    @Setup
    public void extract() {
        lines = fieldLines(ShapeInput.plain(Shape.LONG_VALUES), field);
        validator = new JsonLineValidator();
        System.out.printf("input (%s): %,d bytes%n", field, lines.length);
    }

    /** Each occurrence of {@code field}'s value in {@code shape}, byte for byte, as a line {@code {"f":<value>}}. */
    static byte[] fieldLines(byte[] shape, String field) {
        byte[] name = ("\"" + field + "\":").getBytes(StandardCharsets.US_ASCII);
        JsonLineValidator reader = new JsonLineValidator();
        ByteArrayOutputStream out = new ByteArrayOutputStream(shape.length / 3);
        for (int at = indexOf(shape, name, 0); at >= 0; at = indexOf(shape, name, at + 1)) {
            int value = at + name.length;
            int end;
            if (shape[value] == '"') {
                end = reader.skipString(shape, value + 1, shape.length);
            } else if (shape[value] == '[') {
                end = indexOf(shape, new byte[] {']'}, value) + 1; // samples and tags hold no nested array
            } else {
                continue;
            }
            if (end <= 0) {
                throw new IllegalStateException("the bench's " + field + " at byte " + at + " does not end");
            }
            out.writeBytes("{\"f\":".getBytes(StandardCharsets.US_ASCII));
            out.write(shape, value, end - value);
            out.writeBytes("}\n".getBytes(StandardCharsets.US_ASCII));
        }
        if (out.size() == 0) {
            throw new IllegalArgumentException("no \"" + field + "\" in the long-value shape");
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] b, byte[] what, int from) {
        outer:
        for (int i = from; i <= b.length - what.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (b[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** The lines' size, for MB/s. */
    long bytes() {
        return lines.length;
    }

    @Benchmark
    public long validate() {
        byte[] b = lines;
        JsonLineValidator v = validator;
        long objects = 0;
        int p = 0;
        while (p < b.length) {
            if (v.scanLine(b, p, b.length) != JsonLineValidator.OBJECT) {
                throw new IllegalStateException("a line of the bench's " + field + " values is malformed at byte " + p);
            }
            objects++;
            p = v.lineEnd + 1;
        }
        return objects;
    }
}
