package batchpipe.worker.scan;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Seeded random JSON lines of every shape the scanner meets, for the differential tests: short log
 * lines, lines of 10-100 KB with long strings (escapes, raw UTF-8 of every length, text of many kinds)
 * and large arrays, tiny events, deep nesting around the depth limit, duplicate and escaped names on the
 * counted paths; and the same lines spoiled by every malformed kind the scanner tests know (cut short,
 * bad escapes, control bytes, invalid UTF-8 sequences, bad numbers and literals, stray structure, raw
 * newlines) or by random byte edits.
 */
final class JsonLineGenerator {
    /** Names the tests count by and match on, escaped spellings of them, and others. */
    private static final String[] NAMES = {"level", "status", "v", "http", "a", "b", "c", "lev\\u0065l", "st\\u0061tus",
        "msg", "body", "tags", "", "é", "\\\"q\\\"", "levels", "leve"};
    private static final String[] WORDS = {"INFO", "ERROR", "WARN", "x", "caf\\u00e9", "café", "\\ud83d\\ude00", "\\ud800",
        "日本語", "😀", "say \\\"hi\\\"", "a\\\\b", "line\\nbreak", "tab\\t", "\\/", "\\b\\f\\r", "del\u007f", "200", " "};
    private static final byte[][] BAD_UTF8 = {
        {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0xAF},
        {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xED, (byte) 0xBF, (byte) 0xBF}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
        {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xFF}, {(byte) 0x80}, {(byte) 0xC3}, {(byte) 0xE2, (byte) 0x82},
        {(byte) 0xF0, (byte) 0x9F, (byte) 0x98}, {(byte) 0xC3, (byte) 0x28}};
    /** Fragments that make a line malformed wherever they land (the kinds LineValidityTest lists). */
    private static final String[] BAD_FRAGMENTS = {"\\x", "\\u12G4", "\\u12", "\\'", "\u0000", "\t", "\u001f", "01", "-01", "1.", ".5",
        "+1", "1e", "1e+", "NaN", "Infinity", "tru", "nul", "fals", "True", "undefined", ",}", "[,", ",]", "{,}", "::", "/*c*/", "'a'",
        "}", "]", "{", "[", "\"", ",", ":", "\n", "\r", " x"};
    private static final byte[] EDIT_BYTES = {0, 0x1F, '"', '\\', '{', '}', '[', ']', ',', ':', '\n', '\r', ' ', '\t', '0', '-', 'e',
        (byte) 0x80, (byte) 0xBF, (byte) 0xC2, (byte) 0xE0, (byte) 0xED, (byte) 0xF0, (byte) 0xF4, (byte) 0xF5, (byte) 0xFF};

    private final Random random;
    private ByteArrayOutputStream out;

    JsonLineGenerator(long seed) {
        this.random = new Random(seed);
    }

    /** One line (without its newline): valid about two times in three, else spoiled. */
    byte[] line() {
        out = new ByteArrayOutputStream();
        int shape = random.nextInt(10);
        if (shape < 4) {
            shortLine();
        } else if (shape < 6) {
            longLine();
        } else if (shape < 8) {
            narrowLine();
        } else if (shape == 8) {
            deepLine(508 + random.nextInt(8));
        } else {
            object(0, 1 + random.nextInt(4));
        }
        byte[] line = out.toByteArray();
        return random.nextInt(3) == 0 ? spoil(line) : line;
    }

    private void shortLine() {
        ascii("{\"ts\":\"2026-11-01T00:00:0").ascii(Integer.toString(random.nextInt(10))).ascii("Z\",\"level\":");
        string(4 + random.nextInt(4));
        ascii(",\"service\":\"checkout\",\"status\":").ascii(Integer.toString(200 + random.nextInt(4) * 100));
        ascii(",\"http\":{\"method\":\"GET\",\"status\":").ascii(random.nextBoolean() ? "404" : "\"404\"").ascii("},\"user\":{\"id\":\"u-1\"}");
        if (random.nextInt(4) == 0) ascii(",\"level\":\"SHADOWED\"");
        ascii("}");
    }

    private void longLine() {
        ascii("{\"level\":\"ERROR\",\"stack\":");
        string(5_000 + random.nextInt(40_000));
        ascii(",\"request\":{\"body\":");
        string(5_000 + random.nextInt(40_000));
        ascii(",\"status\":201},\"samples\":[");
        int n = 500 + random.nextInt(3_000);
        for (int i = 0; i < n; i++) {
            if (i > 0) ascii(random.nextInt(20) == 0 ? " , " : ",");
            number();
        }
        ascii("],\"tags\":[");
        for (int i = 0, m = 100 + random.nextInt(500); i < m; i++) {
            if (i > 0) ascii(",");
            string(random.nextInt(12));
        }
        ascii("],\"status\":").ascii(random.nextBoolean() ? "500" : "\"5\\u0030\\u0030\"").ascii("}");
    }

    private void narrowLine() {
        ascii("{\"t\":").ascii(Long.toString(1_700_000_000_000L + random.nextInt(1_000_000))).ascii(",\"level\":");
        string(random.nextInt(6));
        ascii(",\"status\":").ascii(Integer.toString(200 + random.nextInt(3)));
        ascii("}");
    }

    private void deepLine(int depth) {
        ascii("{\"level\":\"DEEP\",\"a\":");
        for (int i = 2; i < depth; i++) ascii(random.nextBoolean() ? "[" : "{\"a\":");
        // close in reverse: rebuild from the written bytes
        byte[] opened = out.toByteArray();
        ascii("1");
        for (int i = opened.length - 1; i >= 0; i--) {
            if (opened[i] == '[') ascii("]");
            else if (opened[i] == '{') ascii("}");
        }
    }

    private void object(int depth, int members) {
        ascii(ws() + "{" + ws());
        for (int i = 0; i < members; i++) {
            if (i > 0) ascii(ws() + "," + ws());
            ascii("\"").ascii(NAMES[random.nextInt(NAMES.length)]).ascii("\"" + ws() + ":" + ws());
            value(depth + 1);
        }
        ascii(ws() + "}" + ws());
    }

    private void value(int depth) {
        int kind = random.nextInt(depth > 6 ? 4 : 6);
        switch (kind) {
            case 0 -> string(random.nextInt(random.nextInt(5) == 0 ? 3_000 : 20));
            case 1 -> number();
            case 2 -> ascii(new String[] {"true", "false", "null"}[random.nextInt(3)]);
            case 3 -> ascii("\"").ascii(WORDS[random.nextInt(WORDS.length)]).ascii("\"");
            case 4 -> object(depth, random.nextInt(4));
            default -> {
                ascii("[" + ws());
                for (int i = 0, n = random.nextInt(5); i < n; i++) {
                    if (i > 0) ascii(ws() + "," + ws());
                    value(depth + 1);
                }
                ascii(ws() + "]");
            }
        }
    }

    private String ws() {
        int r = random.nextInt(12);
        return r == 0 ? " " : r == 1 ? "\t" : r == 2 ? "\r" : r == 3 ? "  \t " : "";
    }

    private void number() {
        StringBuilder n = new StringBuilder();
        if (random.nextBoolean()) n.append('-');
        n.append(random.nextInt(4) == 0 ? "0" : Integer.toString(1 + random.nextInt(1_000_000)));
        if (random.nextInt(3) == 0) n.append('.').append(random.nextInt(1000));
        if (random.nextInt(5) == 0) n.append(random.nextBoolean() ? 'e' : 'E').append(new String[] {"", "+", "-"}[random.nextInt(3)])
                .append(random.nextInt(300));
        ascii(n.toString());
    }

    /** A valid string of about {@code length} bytes: ASCII runs, escapes, raw UTF-8 of two, three and four bytes. */
    private void string(int length) {
        ascii("\"");
        int start = out.size();
        while (out.size() - start < length) {
            int r = random.nextInt(100);
            if (r < 70) {
                int run = 1 + random.nextInt(random.nextInt(4) == 0 ? 200 : 12);
                for (int i = 0; i < run; i++) {
                    int c = 0x20 + random.nextInt(0x5F);
                    out.write(c == '"' || c == '\\' ? 'q' : c);
                }
            } else if (r < 85) {
                ascii(WORDS[random.nextInt(WORDS.length)]);
            } else {
                ascii(new String(Character.toChars(new int[] {0xE9, 0x7FF, 0x800, 0xFFFF, 0xE000, 0x10000, 0x1F600, 0x10FFFF}[random.nextInt(8)])));
            }
        }
        ascii("\"");
    }

    private JsonLineGenerator ascii(String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        return this;
    }

    private byte[] spoil(byte[] line) {
        int kind = random.nextInt(5);
        int at = line.length == 0 ? 0 : random.nextInt(line.length);
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        switch (kind) {
            case 0 -> o.write(line, 0, at); // cut short
            case 1 -> {
                o.write(line, 0, at);
                o.writeBytes(BAD_UTF8[random.nextInt(BAD_UTF8.length)]);
                o.write(line, at, line.length - at);
            }
            case 2 -> {
                o.write(line, 0, at);
                o.writeBytes(BAD_FRAGMENTS[random.nextInt(BAD_FRAGMENTS.length)].getBytes(StandardCharsets.UTF_8));
                o.write(line, at, line.length - at);
            }
            case 3 -> {
                byte[] copy = line.clone();
                for (int i = 0, n = 1 + random.nextInt(3); i < n && copy.length > 0; i++) {
                    copy[random.nextInt(copy.length)] = EDIT_BYTES[random.nextInt(EDIT_BYTES.length)];
                }
                o.writeBytes(copy);
            }
            default -> {
                int from = Math.min(line.length, at + 1 + random.nextInt(3)); // a few bytes dropped
                o.write(line, 0, at);
                o.write(line, from, line.length - from);
            }
        }
        return o.toByteArray();
    }
}
