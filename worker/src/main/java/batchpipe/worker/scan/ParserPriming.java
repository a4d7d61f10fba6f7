package batchpipe.worker.scan;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Gives the JIT a profile of every branch of the line parser before the first real chunk, once per JVM.
 *
 * <p>C2 compiles a branch that its profile never saw taken as a trap back to the interpreter. A log whose
 * first thousands of lines hold no {@code true}, no array, no escape or no non-ASCII text gets a
 * validator compiled without those branches; the first long line that has them (a stack trace, a
 * request body) deoptimises it, and the scan runs profiled C1 code until C2 has compiled it again:
 * seconds on a loaded 2-core machine, measured on the long-values corpus ({@code -XX:+PrintCompilation}:
 * {@code scanLine} compiled at 0.84 s, made not entrant at 1.91 s, compiled again at 2.70 s). This
 * runs {@link ChunkParser#parse} over a small chunk that takes every branch (every token kind, escapes in
 * names and values, UTF-8 of every length, a string long enough for the word loop, malformed and blank
 * lines, carriage returns) {@value #ROUNDS} times, with countBy, an equals match and a contains match,
 * so the profile C2 compiles from has them all: {@code scanLine} then reaches C2 within 0.4-0.6 s, and a
 * later trap is recompiled within ~0.1 s. It costs 55-70 ms on a fresh JVM (measured under load; 300
 * rounds cost 80-190 ms for no clear further gain). Its tallies are thrown away; nothing a scan counts
 * depends on it.
 */
final class ParserPriming {
    /** Rounds over the chunk: enough for the parser's methods to be profiled by C1 (tier 3). */
    static final int ROUNDS = 100;

    private ParserPriming() {
    }

    /** Primes on first call; later calls return at once. */
    static void ensure() {
        Holder.touch();
    }

    private static final class Holder {
        static final long EVENTS = prime();

        static void touch() {
            if (EVENTS < 0) {
                throw new AssertionError("unreachable: a tally never counts below zero");
            }
        }
    }

    static long prime() {
        byte[] chunk = chunk();
        List<ChunkParser> parsers = List.of(
                new ChunkParser(ScanOptions.defaults().withCountBy(List.of("level", "status", "http.status"))
                        .withMatch(new Match.FieldEquals("level", "ERROR"))),
                new ChunkParser(ScanOptions.defaults().withMatch(new Match.Contains("caf"))));
        List<byte[]> tails = tails();
        // Keys whose slots are taken by others, which the chunk's few values never cause: without this the
        // first probe of a real log's value table trapped (unstable_if in ValueCountTable.add) and C2
        // compiled the counting again. Each is followed by eight spare bytes, as a value in a line is followed
        // by the rest of the line: a key at the very end of its array is the rare case (see tails())
        List<byte[]> keys = new ArrayList<>();
        for (int k = 0; k < 64; k++) {
            byte[] key = ("value-" + k).getBytes(StandardCharsets.UTF_8);
            keys.add(Arrays.copyOf(key, key.length + 8));
        }
        ValueCountTable table = new ValueCountTable(64, 1 << 10, 1 << 16);
        long events = 0;
        for (int i = 0; i < ROUNDS; i++) {
            for (ChunkParser parser : parsers) {
                events += parser.parse(chunk, 0, chunk.length).events;
                for (byte[] tail : tails) {
                    events += parser.parse(tail, 0, tail.length).events;
                }
            }
            for (byte[] key : keys) {
                table.add(key, 0, key.length - 8, 1);
            }
        }
        // The reader cuts every chunk after its last newline: called once a chunk, it would otherwise run its
        // first 200 calls interpreted and never reach C2 in a scan of a few hundred chunks. From every end
        // of the chunk, so both the word loop and the byte loop (fewer than eight bytes left) are profiled.
        long newlineSum = 0;
        for (int end = 0; end < Math.min(chunk.length, 64 * 80); end++) {
            newlineSum += ScanRun.lastIndexOfNewline(chunk, end);
        }
        if (newlineSum <= 0) {
            throw new AssertionError("the priming's chunk holds newlines"); // and the loop's work stays observable
        }
        if (table.total() != 64L * ROUNDS) {
            throw new AssertionError("the priming's value table lost counts"); // and its work stays observable
        }
        return events;
    }

    /**
     * Lines that end a chunk with a number or a string in its last eight bytes, each its own range: there the
     * word loops stop and the byte loops finish (a trap at the first chunk that ended so recompiled the
     * validator: -Xlog:deoptimization, unstable_if in skipDigits). The last two put a counted value and a
     * name looked up on a requested path there, where fewer than eight bytes of the array are left to read
     * their head word ({@link ByteWords#headWord}).
     */
    static List<byte[]> tails() {
        return List.of("{\"s\":\"x\",\"n\":12}", "{\"n\":1,\"s\":\"ab\"}", "{\"n\":123456789012}",
                        "{\"n\":1,\"level\":\"I\"}", "{\"n\":1,\"ab\":2}").stream()
                .map(line -> line.getBytes(StandardCharsets.UTF_8)).toList();
    }

    /** Lines that between them take every branch of the validator and of the chunk parser. */
    static byte[] chunk() {
        String longText = "a long value: " + "word ".repeat(12) + "\\\"quoted\\\" caf\\u00e9 café 日本語 😀 "
                + "line\\nbreak\\ttab \\ud83d\\ude00 \\/ \\b\\f\\r \\\\ " + "x".repeat(40);
        List<String> lines = List.of(
                "{\"ts\":\"2026-11-01T00:00:00Z\",\"level\":\"INFO\",\"status\":200,\"http\":{\"status\":\"200\",\"m\":\"GET\"}}",
                "{\"level\":\"ERROR\",\"stack\":\"" + longText + "\",\"n\":[0,-1,1.5,-0.25e-3,1E+5,12345678],"
                        + "\"flags\":[true,false,null],\"o\":{},\"a\":[],\"nested\":[{\"k\":[[1]]}],\"status\":500}",
                " \t{ \"lev\\u0065l\" : \"WARN\" , \"status\" : \"5\\u0030\\u0030\" , \"é\" : \"ü\" }\r",
                "{\"level\":\"INFO\",\"level\":\"DUP\",\"http\":{\"status\":404,\"status\":1},\"status\":true}",
                "",
                "   ",
                "{\"level\":\"INFO\",\"status\":201,\"retry\":false,\"parent\":null,\"tags\":[\"a\",\"b\"]}",
                // a whole word of digits (timestamps, ids): the digit loop's other branch
                "{\"ts\":1793491200141,\"level\":\"INFO\",\"status\":200}",
                "{\"a\":1",
                "{\"a\":tru}",
                "{\"a\":\"\\x\"}",
                "[1,2]",
                "{\"a\":01}",
                "not json",
                // every way a line can be malformed, each at the branch that finds it: a branch C2 saw never
                // taken is compiled as a trap, so the first such line of a real log would throw the whole
                // compiled validator away (-Xlog:deoptimization showed it: unstable_if in scanLine at the
                // first NaN, in skipMemberName at the first trailing comma, in skipStringRest at the first
                // control byte)
                "{\"a\":1,}",
                "{\"a\":[1,]}",
                // a fault inside a run of array values or of escapes, which the validator reads in loops of
                // their own (issue 19's fifth pass): each loop's exit on a fault is a branch too
                "{\"a\":[1,01]}",
                "{\"a\":[\"x\",\"\\x\"]}",
                "{\"a\":\"\\n\\x\"}",
                "{\"a\":NaN}",
                "{\"a\":-}",
                "{\"a\":1.}",
                "{\"a\":1e+}",
                "{\"a\":12",
                "{\"ab",
                "{\"a\":\"abc",
                "{\"a\\q\":1}",
                "{\"a\":\"\\u12G4\"}",
                "{\"a\":1} {\"b\":2}",
                "{\"a\" 1}",
                "{\"a\":1 \"b\":2}",
                "{1:2}",
                "{\"a\":\"x\"]",
                "{\"a\":[1}",
                "{\"a\":nul}",
                "{\"a\":fals}",
                "{\"a\":true",
                "{\"a\":\"" + "x".repeat(24) + "\u0001" + "\"}",
                "{\"a\":\"\u0001\"}",
                "{\"a\u0001\":1}",
                "{\"a\":".repeat(JsonLineValidator.MAX_DEPTH + 1) + "1" + "}".repeat(JsonLineValidator.MAX_DEPTH + 1),
                "{\"a\":" + "[".repeat(JsonLineValidator.MAX_DEPTH) + "]".repeat(JsonLineValidator.MAX_DEPTH) + "}");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String line : lines) {
            out.writeBytes(line.getBytes(StandardCharsets.UTF_8));
            out.write('\n');
        }
        out.writeBytes(new byte[] {'{', '"', 'b', '"', ':', '"', (byte) 0xC3, '"', '}', '\n'}); // truncated UTF-8
        // invalid UTF-8 of each kind, in a short string, past the first word in a long one, in a name, and
        // after a non-ASCII character (inside the loop over a run of them)
        byte[][] invalid = {{(byte) 0x80}, {(byte) 0xC0, (byte) 0x80}, {(byte) 0xE0, (byte) 0x80, (byte) 0x80},
                {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0x80},
                {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xF5, (byte) 0x80}, {(byte) 0xE2, (byte) 0x82}};
        for (byte[] bad : invalid) {
            for (String before : List.of("{\"a\":\"", "{\"a\":\"" + "y".repeat(24), "{\"", "{\"a\":\"д")) {
                out.writeBytes(before.getBytes(StandardCharsets.UTF_8));
                out.writeBytes(bad);
                out.writeBytes(before.endsWith("{\"") ? "\":1}\n".getBytes(StandardCharsets.UTF_8) : "\"}\n".getBytes(StandardCharsets.UTF_8));
            }
        }
        return out.toByteArray();
    }
}
