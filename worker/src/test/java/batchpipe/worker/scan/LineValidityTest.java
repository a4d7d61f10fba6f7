package batchpipe.worker.scan;

import static batchpipe.worker.scan.ScanFixtures.NO_COUNTS;
import static batchpipe.worker.scan.ScanFixtures.concat;
import static batchpipe.worker.scan.ScanFixtures.scan;
import static batchpipe.worker.scan.ScanFixtures.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Rules 3 and 4: what a line is, and which lines are events. */
class LineValidityTest {

    private static ScanResult scanLine(String line) throws IOException {
        return scan(line + "\n", NO_COUNTS);
    }

    private static ScanResult scanLine(byte[] line) throws IOException {
        return scan(concat(line, utf8("\n")), NO_COUNTS);
    }

    private static void assertMalformed(String line) throws IOException {
        ScanResult r = scanLine(line);
        assertThat(r.malformed()).as("malformed: %s", line).isEqualTo(1);
        assertThat(r.events()).as("events: %s", line).isZero();
    }

    private static void assertEvent(String line) throws IOException {
        ScanResult r = scanLine(line);
        assertThat(r.events()).as("event: %s", line).isEqualTo(1);
        assertThat(r.malformed()).as("malformed: %s", line).isZero();
    }

    // ---- rule 3: line splitting

    @Test
    void scan_stripsCarriageReturnBeforeNewline() throws IOException {
        ScanOptions containsCr = NO_COUNTS.withMatch(new Match.Contains("\r"));
        ScanResult r = scan("{\"a\":1}\r\n{\"b\":2}\r\n", containsCr);
        assertThat(r.events()).isEqualTo(2);
        assertThat(r.matches()).as("the stripped \\r is not part of the line").isZero();
    }

    @Test
    void scan_countsLastLineWithoutNewline() throws IOException {
        ScanResult r = scan("{\"a\":1}\n{\"b\":2}", NO_COUNTS);
        assertThat(r.events()).isEqualTo(2);
        assertThat(scan("{\"a\":1}\n{\"b\":", NO_COUNTS).malformedLines()).containsExactly(2L);
    }

    @Test
    void scan_skipsBlankAndWhitespaceOnlyLinesButStillNumbersThem() throws IOException {
        ScanResult r = scan("\n   \n\t\r\n\r\n{\"a\":1}\nnope\n \t \n[]\n", NO_COUNTS);
        assertThat(r.events()).isEqualTo(1);
        assertThat(r.malformed()).isEqualTo(2);
        assertThat(r.malformedLines()).containsExactly(6L, 8L);
    }

    @Test
    void scan_ofEmptyInputFindsNothing() throws IOException {
        ScanResult r = scan("", NO_COUNTS);
        assertThat(r.events()).isZero();
        assertThat(r.malformed()).isZero();
        assertThat(r.bytes()).isZero();
        assertThat(r.compressedBytes()).isZero();
    }

    @Test
    void scan_keepsOnlyTheFirstTenMalformedLineNumbers() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= 30; i++) {
            sb.append(i % 2 == 0 ? "bad" : "{}").append('\n');
        }
        ScanResult r = scan(sb.toString(), NO_COUNTS);
        assertThat(r.malformed()).isEqualTo(15);
        assertThat(r.malformedLines()).containsExactly(2L, 4L, 6L, 8L, 10L, 12L, 14L, 16L, 18L, 20L);
    }

    // ---- rule 4: exactly one object

    @Test
    void scan_acceptsObjectsWithWhitespaceAroundAndInside() {
        List.of("{}", "  {}  ", "\t{ }\t", "{\"a\" : 1 , \"b\":[ 1 , { } , [ ] ] }\r",
                "{\"\":\"\"}", "{\"a\":{\"b\":{\"c\":[true,false,null]}}}",
                "{\"n\":[0,-0,1,-1,0.5,-0.25,1e5,1E+5,1e-5,123456789012345678901234567890.1e2]}",
                "{\"s\":\"esc \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83D\\uDE00 \\ud800\"}")
                .forEach(line -> {
                    try {
                        assertEvent(line);
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void scan_countsTrailingGarbageAsMalformed() throws IOException {
        assertMalformed("{\"a\":1} x");
        assertMalformed("{\"a\":1}{\"b\":2}");
        assertMalformed("{\"a\":1},");
        assertMalformed("{\"a\":1}}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "-2.5", "\"text\"", "[]", "[{\"a\":1}]", "true", "false", "null"})
    void scan_countsBareValuesAsMalformed(String line) throws IOException {
        assertMalformed(line);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{", "{\"a\"", "{\"a\":", "{\"a\":1", "{\"a\":1,", "{\"a\":\"x", "{\"a\":[1,2",
        "{\"a\":{\"b\":1}"})
    void scan_countsTruncatedObjectsAsMalformed(String line) throws IOException {
        assertMalformed(line);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\u12G4\"}", "{\"a\":\"\\'\"}",
        "{\"a\":\"\\\"}", "{\"a\\q\":1}"})
    void scan_countsInvalidEscapesAsMalformed(String line) throws IOException {
        assertMalformed(line);
    }

    @Test
    void scan_countsRawControlCharactersInStringsAsMalformed() throws IOException {
        assertMalformed("{\"a\":\"tab\there\"}");
        assertMalformed("{\"a\":\"nul\u0000\"}");
        assertMalformed("{\"a\u001f\":1}");
        assertEvent("{\"a\":\"del\u007f is fine\"}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":01}", "{\"a\":-01}", "{\"a\":00}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":+1}",
        "{\"a\":1e}", "{\"a\":1e+}", "{\"a\":-}", "{\"a\":0x10}", "{\"a\":NaN}", "{\"a\":Infinity}", "{\"a\":1.5.2}"})
    void scan_countsLeadingZerosAndBadNumbersAsMalformed(String line) throws IOException {
        assertMalformed(line);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":tru}", "{\"a\":trUe}", "{\"a\":nul}", "{\"a\":nulll}", "{\"a\":fals}",
        "{\"a\":falsey}", "{\"a\":True}", "{\"a\":undefined}"})
    void scan_countsMisspelledLiteralsAsMalformed(String line) throws IOException {
        assertMalformed(line);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{a:1}", "{'a':1}", "{\"a\":'x'}", "{\"a\" 1}", "{\"a\":1,}", "{,}", "{\"a\":[1,]}",
        "{\"a\":[,1]}", "{\"a\":[1 2]}", "{\"a\":[}", "{\"a\":{]}", "{\"a\":1 \"b\":2}", "{1:2}", "{\"a\"::1}",
        "{\"a\":/*c*/1}"})
    void scan_countsGrammarErrorsAsMalformed(String line) throws IOException {
        assertMalformed(line);
    }

    // Runs of numbers or strings in an array, of escapes and of non-ASCII characters are read without the
    // general dispatch per value (issue 19): a fault anywhere in a run, first, middle or last, still counts.
    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":[1,2,01]}", "{\"a\":[1,01,2]}", "{\"a\":[1,2,-]}", "{\"a\":[1,-2.5e,3]}",
        "{\"a\":[1,2,]}", "{\"a\":[1,2,3}", "{\"a\":[1,2,3,\"x\"}", "{\"a\":[1,2 3]}", "{\"a\":[1,2,+3]}",
        "{\"a\":[\"x\",\"y\",]}", "{\"a\":[\"x\",\"y\"}", "{\"a\":[\"x\",\"y\\q\"]}", "{\"a\":[\"x\",\"y\",\"z]}",
        "{\"a\":[\"x\",\"y\"\"z\"]}", "{\"a\":[\"x\",y]}", "{\"a\":[1,2,3],}", "{\"a\":[\"x\",\"y\"]]}"})
    void scan_countsAFaultAnywhereInARunOfArrayValuesAsMalformed(String line) throws IOException {
        assertMalformed(line);
    }

    @Test
    void scan_acceptsRunsOfArrayValuesWhateverSurroundsThem() throws IOException {
        assertEvent("{\"a\":[1,-2,3.5e-3,0,-0.0,7E+2],\"b\":[\"x\",\"\",\"caf\u00e9\",\"y\\n\"],\"c\":1}");
        assertEvent("{\"a\":[1, 2 ,3,\"x\",\"y\" , \"z\",true,null,[1,2],{\"b\":[\"c\",\"d\"]},4,5]}");
        assertEvent("{\"a\":[[1,2],[\"x\",\"y\"]],\"level\":\"INFO\"}");
        ScanResult counted = scan("{\"tags\":[\"a\",\"b\"],\"level\":\"WARN\",\"n\":[1,2,3]}\n",
                ScanOptions.defaults().withCountBy(List.of("level")));
        assertThat(counted.events()).isEqualTo(1);
        assertThat(counted.countBy().get("level")).containsEntry("WARN", 1L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":\"\\n\\t\\x\"}", "{\"a\":\"\\n\\u12G4\\t\"}", "{\"a\":\"\\n\\t\\\"}",
        "{\"a\":\"x\\n\\t\\", "{\"a\":\"\\uD83D\\uDE0\"}"})
    void scan_countsABadEscapeInARunOfEscapesAsMalformed(String line) throws IOException {
        assertMalformed(line);
    }

    @Test
    void scan_countsBadUtf8InARunOfNonAsciiCharactersAsMalformed() throws IOException {
        byte[] cyrillic = utf8("данные");
        byte[][] runs = {
            concat(cyrillic, new byte[] {(byte) 0xD0}),                  // truncated at the end of the run
            concat(cyrillic, new byte[] {(byte) 0x80}, cyrillic),        // a lone continuation in the middle
            concat(utf8("日本"), new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, utf8("語")), // a surrogate
            concat(utf8("😀"), new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}),   // above U+10FFFF
        };
        for (byte[] run : runs) {
            byte[] line = concat(utf8("{\"a\":\"x "), run, utf8(" y\"}"));
            assertThat(scanLine(line).malformed()).as("%s", HexFormat.of().formatHex(line)).isEqualTo(1);
        }
        assertEvent("{\"a\":\"x данные日本語😀é\\n\\tat y\",\"b\":\"\\uD83D\\uDE00\\\\\\\"\"}");
    }

    @Test
    void scan_countsInvalidUtf8AsMalformed() throws IOException {
        byte[][] bad = {
            {(byte) 0xC0, (byte) 0xAF},                         // overlong '/'
            {(byte) 0xE0, (byte) 0x80, (byte) 0xAF},            // overlong three-byte
            {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0xAF}, // overlong four-byte
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80},            // U+D800 encoded
            {(byte) 0xED, (byte) 0xBF, (byte) 0xBF},            // U+DFFF encoded
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // U+110000
            {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80}, // lead byte above F4
            {(byte) 0xFF},
            {(byte) 0x80},                                      // lone continuation
            {(byte) 0xC3},                                      // truncated two-byte
            {(byte) 0xE2, (byte) 0x82},                         // truncated three-byte
            {(byte) 0xF0, (byte) 0x9F, (byte) 0x98},            // truncated four-byte
            {(byte) 0xC3, (byte) 0x28},                         // bad continuation
        };
        for (byte[] seq : bad) {
            byte[] inValue = concat(utf8("{\"a\":\"x"), seq, utf8("y\"}"));
            byte[] inName = concat(utf8("{\"k"), seq, utf8("\":1}"));
            byte[] outside = concat(utf8("{\"a\":1}"), seq);
            for (byte[] line : new byte[][] {inValue, inName, outside}) {
                assertThat(scanLine(line).malformed()).as("%s", HexFormat.of().formatHex(line))
                        .isEqualTo(1);
            }
        }
        // the same sequences at the end of a long ASCII run exercise the 8-byte fast path
        byte[] longRun = concat(utf8("{\"a\":\"" + "x".repeat(37)), new byte[] {(byte) 0xED, (byte) 0xA0,
            (byte) 0x80}, utf8("\"}"));
        assertThat(scanLine(longRun).malformed()).isEqualTo(1);
    }

    @Test
    void scan_acceptsWellFormedUtf8AtEveryLengthBoundary() throws IOException {
        // U+0080, U+07FF, U+0800, U+FFFF, U+E000, U+10000, U+10FFFF, U+D7FF
        String text = "\u0080\u07ff\u0800\uffff\ue000\ud800\udc00\udbff\udfff\ud7ff caf\u00e9 \u65e5\u672c";
        assertEvent("{\"" + text + "\":\"" + text + "\",\"pad\":\"" + "y".repeat(20) + text + "\"}");
    }

    @Test
    void scan_acceptsNestingOf512LevelsButNot513() throws IOException {
        assertEvent(nested(512));
        assertMalformed(nested(513));
    }

    @Test
    void scan_rejectsTenThousandNestedLevelsWithoutStackOverflow() throws IOException {
        assertMalformed("{\"a\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}");
        assertMalformed("{\"a\":" + "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_001));
        assertMalformed("{\"a\":" + "[".repeat(10_000));
    }

    @Test
    void scan_countsLinesLongerThanMaxLineBytesAsOversizedAndMalformedWhateverTheChunkSize() throws IOException {
        // content lengths 100 (fits) and 101 (oversized), each with LF, CRLF and at the end without newline
        String fits = "{\"a\":\"" + "x".repeat(92) + "\"}";
        String over = "{\"a\":\"" + "x".repeat(93) + "\"}";
        assertThat(fits).hasSize(100);
        String log = fits + "\n" + over + "\n" + fits + "\r\n" + over + "\r\n" + "{}\n" + over;
        for (int chunk : new int[] {64, 100, 101, 102, 103, 150, 4096}) {
            ScanResult r = scan(utf8(log), NO_COUNTS.withMaxLineBytes(100).withChunkBytes(chunk));
            assertThat(r.events()).as("chunkBytes %d", chunk).isEqualTo(3);
            assertThat(r.oversizedLines()).as("chunkBytes %d", chunk).isEqualTo(3);
            assertThat(r.malformed()).as("chunkBytes %d", chunk).isEqualTo(3);
            assertThat(r.malformedLines()).as("chunkBytes %d", chunk).containsExactly(2L, 4L, 6L);
        }
    }

    @Test
    void scan_countsAWhitespaceOnlyLineLongerThanMaxLineBytesAsOversized() throws IOException {
        ScanResult r = scan(" ".repeat(300) + "\n{}\n", NO_COUNTS.withMaxLineBytes(100).withChunkBytes(64));
        assertThat(r.oversizedLines()).isEqualTo(1);
        assertThat(r.events()).isEqualTo(1);
    }

    /** An object {@code depth} levels deep, alternating objects and arrays. */
    private static String nested(int depth) {
        StringBuilder open = new StringBuilder("{\"a\":");
        StringBuilder close = new StringBuilder("}");
        for (int d = 2; d <= depth; d++) {
            if (d % 2 == 0) {
                open.append('[');
                close.insert(0, ']');
            } else {
                open.append("{\"a\":");
                close.insert(0, '}');
            }
        }
        return open.append("1").append(close).toString();
    }
}
