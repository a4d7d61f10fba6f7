package batchpipe.worker.scan;

import batchpipe.worker.benchmark.MicrosecondsPerOperation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.nio.charset.StandardCharsets;

/**
 * The string kernel alone: {@link JsonLineValidator#skipString} over 1 MB of string bodies of one
 * length, against the byte-at-a-time table loop it replaced ({@code tableOnly}, the same checks). Plain
 * ASCII, or text with a two- or three-byte UTF-8 character about every 40 bytes ({@code mixed}).
 */
public class StringSkipBenchmark extends MicrosecondsPerOperation {

    @Param({"8", "32", "1024", "32768"})
    public int length;

    @Param({"ascii", "mixed"})
    public String text;

    private byte[] strings;
    private final JsonLineValidator validator = new JsonLineValidator();
    private static final byte[] PLAIN = new byte[256];

    static {
        for (int c = 0x20; c < 0x80; c++) {
            PLAIN[c] = 1;
        }
        PLAIN['"'] = 0;
        PLAIN['\\'] = 0;
    }

    @Setup
    public void generate() {
        StringBuilder body = new StringBuilder();
        String alphabet = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ0123456789.,:/-_";
        for (int i = 0; body.toString().getBytes(StandardCharsets.UTF_8).length < length; i++) {
            body.append(text.equals("mixed") && i % 40 == 39 ? (i % 80 == 79 ? "é" : "語") : alphabet.charAt(i * 7 % alphabet.length()));
        }
        byte[] one = (body + "\"").getBytes(StandardCharsets.UTF_8);
        int copies = Math.max(1, (1 << 20) / one.length);
        strings = new byte[copies * one.length];
        for (int i = 0; i < copies; i++) {
            System.arraycopy(one, 0, strings, i * one.length, one.length);
        }
    }

    long bytes() {
        return strings.length;
    }

    @Benchmark
    public int swar() {
        byte[] b = strings;
        int p = 0;
        while (p < b.length) {
            p = validator.skipString(b, p, b.length);
        }
        return p;
    }

    @Benchmark
    public int tableOnly() {
        byte[] b = strings;
        int p = 0;
        while (p < b.length) {
            p = tableSkip(b, p, b.length);
        }
        return p;
    }

    /** The loop before issue 19: one table load per byte, UTF-8 checked at each high byte. */
    private static int tableSkip(byte[] b, int p, int end) {
        for (;;) {
            while (p < end && PLAIN[b[p] & 0xFF] != 0) {
                p++;
            }
            if (p >= end) {
                return -1;
            }
            int c = b[p];
            if (c == '"') {
                return p + 1;
            }
            if (c < 0) {
                p = skipUtf8Sequence(b, p, end);
                if (p < 0) {
                    return -1;
                }
            } else {
                return -1;
            }
        }
    }

    /**
     * One well-formed UTF-8 sequence (Unicode 15, table 3-7) starting at a byte >= 0x80: no overlong
     * forms, no encoded surrogates, nothing above U+10FFFF, no truncation. Returns the index after it, or -1.
     * The validator's own check before its DFA (issue 19's tenth pass), kept here for the loop above.
     */
    private static int skipUtf8Sequence(byte[] b, int p, int end) {
        int lead = b[p] & 0xFF;
        if (lead < 0xC2) {
            return -1; // continuation byte, or C0/C1 (overlong two-byte form)
        }
        if (lead < 0xE0) {
            return p + 1 < end && isContinuation(b[p + 1]) ? p + 2 : -1;
        }
        if (lead < 0xF0) {
            if (end - p < 3) {
                return -1;
            }
            int second = b[p + 1] & 0xFF;
            int min = lead == 0xE0 ? 0xA0 : 0x80; // E0 80..9F would be overlong
            int max = lead == 0xED ? 0x9F : 0xBF; // ED A0..BF would encode a surrogate
            if (second < min || second > max || !isContinuation(b[p + 2])) {
                return -1;
            }
            return p + 3;
        }
        if (lead < 0xF5) {
            if (end - p < 4) {
                return -1;
            }
            int second = b[p + 1] & 0xFF;
            int min = lead == 0xF0 ? 0x90 : 0x80; // F0 80..8F would be overlong
            int max = lead == 0xF4 ? 0x8F : 0xBF; // F4 90.. would be above U+10FFFF
            if (second < min || second > max || !isContinuation(b[p + 2]) || !isContinuation(b[p + 3])) {
                return -1;
            }
            return p + 4;
        }
        return -1; // F5..FF never appear in UTF-8
    }

    private static boolean isContinuation(byte c) {
        return (c & 0xC0) == 0x80;
    }
}
