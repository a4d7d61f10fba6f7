package batchpipe.worker.scan;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The eight-bytes-at-a-time kernels against a byte-at-a-time reading: every byte value at every position
 * of a word, behind runs of plain bytes, and random words, so the lowest special byte is always found.
 */
class WordKernelsTest {

    private static boolean plainInString(int c) {
        return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
    }

    private static boolean digit(int c) {
        return c >= '0' && c <= '9';
    }

    @Test
    void headWordIsTheFirstEightBytesZeroPaddedAtEveryLengthAndOffsetUpToTheArraysEnd() {
        Random random = new Random(7);
        for (int size = 0; size <= 20; size++) {
            byte[] b = new byte[size];
            random.nextBytes(b);
            for (int off = 0; off <= size; off++) {
                for (int len = 0; off + len <= size; len++) {
                    long expected = 0;
                    for (int i = Math.min(len, 8) - 1; i >= 0; i--) {
                        expected = expected << 8 | (b[off + i] & 0xFF);
                    }
                    assertThat(ByteWords.headWord(b, off, len)).as("size %d, off %d, len %d", size, off, len)
                            .isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void skipDigitsStopsAtTheFirstNonDigitWhateverByteItIsAndWherever() {
        for (int at = 0; at < 20; at++) {
            for (int value = 0; value < 256; value++) {
                byte[] b = new byte[24];
                for (int i = 0; i < b.length; i++) b[i] = (byte) ('0' + i % 10);
                b[at] = (byte) value;
                int expected = digit(value) ? b.length : at;
                assertThat(JsonLineValidator.skipDigits(b, 0, b.length)).as("byte %02x at %d", value, at).isEqualTo(expected);
            }
        }
    }

    @Test
    void skipStringFindsTheFirstByteThatEndsOrInterruptsARunOfPlainBytes() {
        JsonLineValidator validator = new JsonLineValidator();
        for (int at = 0; at < 20; at++) {
            for (int value = 0; value < 256; value++) {
                byte[] b = new byte[32];
                for (int i = 0; i < b.length; i++) b[i] = (byte) ('a' + i % 26);
                b[at] = (byte) value;
                b[24] = '"';
                // the reference reading: a quote ends the string; any other non-plain byte here is an escape that
                // is not one, a control byte or a lone UTF-8 byte, all malformed (an ASCII letter follows it)
                int expected = plainInString(value) ? 25 : value == '"' ? at + 1 : value == '\\' && "\"\\/bfnrt".indexOf(b[at + 1]) >= 0 ? 25 : -1;
                assertThat(validator.skipString(b, 0, b.length)).as("byte %02x at %d", value, at).isEqualTo(expected);
            }
        }
    }

    @Test
    void theWordKernelsAgreeWithTheBytewiseReadingOnRandomWords() {
        Random random = new Random(19);
        byte[] b = new byte[8];
        for (int round = 0; round < 200_000; round++) {
            for (int i = 0; i < 8; i++) {
                // mostly the bytes that matter: digits, plain ASCII, quotes, backslashes, controls, high bytes
                b[i] = (byte) switch (random.nextInt(6)) {
                    case 0 -> '0' + random.nextInt(10);
                    case 1 -> 0x20 + random.nextInt(0x60);
                    case 2 -> random.nextBoolean() ? '"' : '\\';
                    case 3 -> random.nextInt(0x20);
                    case 4 -> 0x80 + random.nextInt(0x80);
                    default -> random.nextInt(256);
                };
            }
            long word = 0;
            for (int i = 7; i >= 0; i--) word = word << 8 | (b[i] & 0xFF);
            int firstNonDigit = 8, firstSpecial = 8;
            for (int i = 7; i >= 0; i--) {
                if (!digit(b[i] & 0xFF)) firstNonDigit = i;
                if (!plainInString(b[i] & 0xFF)) firstSpecial = i;
            }
            long nonDigits = JsonLineValidator.nonDigitBytes(word);
            long specials = JsonLineValidator.specialBytes(word);
            assertThat(nonDigits == 0 ? 8 : Long.numberOfTrailingZeros(nonDigits) >>> 3).isEqualTo(firstNonDigit);
            assertThat(specials == 0 ? 8 : Long.numberOfTrailingZeros(specials) >>> 3).isEqualTo(firstSpecial);
        }
    }

    /**
     * What a string body is made of, as JSON text: escapes (among them an escaped quote before {@code #} and an
     * escaped backslash before {@code ]}, where a word test's borrow out of the byte below marks a plain byte),
     * characters of two to four bytes, a bare quote that ends the string, and the faults (a control byte, a bad
     * escape).
     */
    private static final String[] STRING_PIECES = {"\\\"", "\\\\", "#", "]", "a", " ", "\\u00e9", "\\n", "\\/",
            "é", "日", "😀", "\"", "\u0001", "\\x", "u", "\\u12G4", "\\u0"};

    @Test
    void skipStringAgreesWithTheReferenceOnEveryPairOfPiecesAtEveryOffsetAndGap() {
        // two pieces (and what a borrow marks above them) at every place in and across words, then a third
        // after a gap; the chunk ends right after the string, or eight bytes later
        JsonLineValidator validator = new JsonLineValidator();
        ReferenceLineValidator reference = new ReferenceLineValidator();
        int compared = 0;
        for (int pad = 0; pad < 16; pad++) {
            for (String first : STRING_PIECES) {
                for (String second : STRING_PIECES) {
                    for (int gap = 0; gap < 10; gap++) {
                        for (String third : new String[] {"#", "]", "\\\"", "é"}) {
                            String body = "p".repeat(pad) + first + "q".repeat(gap) + second + third + "tail end of it\"";
                            byte[] b = (body + "        ").getBytes(StandardCharsets.UTF_8);
                            int end = body.getBytes(StandardCharsets.UTF_8).length;
                            for (int limit : new int[] {end, b.length}) {
                                assertSkipsAsTheReference(validator, reference, b, limit, body);
                                compared++;
                            }
                        }
                    }
                }
            }
        }
        assertThat(compared).isEqualTo(16 * STRING_PIECES.length * STRING_PIECES.length * 10 * 4 * 2);
    }

    @Test
    void skipStringAgreesWithTheReferenceOnRandomRunsOfPieces() {
        JsonLineValidator validator = new JsonLineValidator();
        ReferenceLineValidator reference = new ReferenceLineValidator();
        Random random = new Random(23);
        for (int round = 0; round < 200_000; round++) {
            StringBuilder body = new StringBuilder();
            int pieces = random.nextInt(12);
            for (int i = 0; i < pieces; i++) {
                // mostly pieces that keep the string going, so most strings reach their closing quote
                String piece = STRING_PIECES[random.nextInt(random.nextInt(8) == 0 ? STRING_PIECES.length : 12)];
                body.append(piece).append("w".repeat(random.nextInt(4)));
            }
            body.append('"');
            byte[] b = body.toString().getBytes(StandardCharsets.UTF_8);
            int limit = random.nextInt(4) == 0 ? random.nextInt(b.length + 1) : b.length; // cut by the chunk's end
            assertSkipsAsTheReference(validator, reference, b, limit, body);
        }
    }

    /**
     * Both read the string body {@code b[0, limit)} to the same end, and saw an escape alike when they accept it;
     * returns that end (-1 for a string both reject).
     */
    private static int assertSkipsAsTheReference(JsonLineValidator validator, ReferenceLineValidator reference, byte[] b, int limit,
                                                  CharSequence body) {
        validator.sawEscape = false;
        reference.sawEscape = false;
        int expected = reference.skipString(b, 0, limit);
        int actual = validator.skipString(b, 0, limit);
        // whether an escape was seen matters only for a string that is accepted
        if (actual != expected || (expected >= 0 && validator.sawEscape != reference.sawEscape)) { // AssertJ only for a failure
            assertThat(actual + " " + validator.sawEscape).as("%s, chunk end %d", body, limit)
                    .isEqualTo(expected + " " + reference.sawEscape);
        }
        return expected;
    }

    /** The bytes that decide a sequence's fate after its first two: ends of the continuation range, and stops. */
    private static final int[] TAIL_BYTES = {0x00, '"', '\\', 'A', 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xE0, 0xF0, 0xFF};

    @Test
    void skipStringChecksTheHexDigitsOfEveryUnicodeEscapeWhateverBackslashesComeBeforeItAndWhereverItFalls() {
        // a u after a run of 0-5 backslashes (an escape only after an odd run) at every offset across three
        // words, then digits good and bad, some cut by the chunk's end; a second u a few bytes on, so one word
        // holds two; plain text or a character before the run, so the word is read by the DFA or skipped whole
        JsonLineValidator validator = new JsonLineValidator();
        ReferenceLineValidator reference = new ReferenceLineValidator();
        String[] digits = {"00e9", "00E9", "12G4", "000G", "00e\"", "00\"", "0", "", "00é9", "0000\\u00e9", "d83d\\ude00", "00e9u", "g000"};
        int compared = 0;
        int accepted = 0;
        for (String lead : new String[] {"", "é", "ab"}) {
            for (int at = 0; at < 20; at++) {
                for (int run = 0; run <= 5; run++) {
                    for (String hex : digits) {
                        String body = lead + "a".repeat(at) + "\\".repeat(run) + "u" + hex + "x".repeat(at % 9) + "\"";
                        byte[] b = body.getBytes(StandardCharsets.UTF_8);
                        for (int limit : new int[] {b.length, b.length - 1, Math.max(0, b.length - 6)}) {
                            if (assertSkipsAsTheReference(validator, reference, b, limit, body) >= 0) accepted++;
                            compared++;
                        }
                    }
                }
            }
        }
        assertThat(compared).isEqualTo(3 * 20 * 6 * digits.length * 3);
        assertThat(accepted).as("good escapes were drawn").isGreaterThan(compared / 10);
    }

    @Test
    void skipStringChecksUtf8AsTheReferenceDoesForEveryLeadAndSecondByteWhereverTheyFallInAWord() {
        // every lead byte and every second byte, with third and fourth bytes at the edges of their ranges, at
        // every offset across two words, so a character is checked inside a word, across words and cut short
        JsonLineValidator validator = new JsonLineValidator();
        ReferenceLineValidator reference = new ReferenceLineValidator();
        byte[] b = new byte[24];
        int compared = 0;
        for (int lead = 0x80; lead < 0x100; lead++) {
            for (int second = 0; second < 0x100; second++) {
                for (int third : TAIL_BYTES) {
                    for (int fourth : new int[] {'A', 0x80, 0xBF, 0xC3, '"'}) {
                        for (int at = 0; at < 11; at++) {
                            Arrays.fill(b, (byte) 'a');
                            b[at] = (byte) lead;
                            b[at + 1] = (byte) second;
                            b[at + 2] = (byte) third;
                            b[at + 3] = (byte) fourth;
                            b[20] = '"';
                            int expected = reference.skipString(b, 0, b.length);
                            int actual = validator.skipString(b, 0, b.length);
                            if (actual != expected) { // 27 million cases: AssertJ only for a failure
                                assertThat(actual).as("%02x %02x %02x %02x at %d", lead, second, third, fourth, at).isEqualTo(expected);
                            }
                            compared++;
                        }
                    }
                }
            }
        }
        assertThat(compared).isEqualTo(128 * 256 * TAIL_BYTES.length * 5 * 11);
    }

    @Test
    void skipStringAgreesWithTheReferenceOnRandomTextInEveryScriptWithEscapesAndFaults() {
        JsonLineValidator validator = new JsonLineValidator();
        ReferenceLineValidator reference = new ReferenceLineValidator();
        String[] pieces = {"a", "tag-", " ", "é", "ß", "д", "日", "本", "😀", "\\n", "\\t", "\\\"", "\\\\", "\\u00e9", "\\ud83d\\ude00",
            "\u0080", "\u07ff", "\u0800", "\uffff", "\ud7ff", "\ue000", "\udbff\udfff"};
        byte[][] faults = {{(byte) 0xC0, (byte) 0x80}, {(byte) 0xE0, (byte) 0x9F, (byte) 0xBF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            {(byte) 0xF0, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xF5},
            {(byte) 0x80}, {(byte) 0xC3}, {(byte) 0xE6, (byte) 0x97}, {(byte) 0xF0, (byte) 0x9F, (byte) 0x98}, {0x01}, {'\\', 'x'}};
        Random random = new Random(29);
        int malformed = 0;
        for (int round = 0; round < 100_000; round++) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int count = random.nextInt(30);
            for (int i = 0; i < count; i++) {
                if (random.nextInt(40) == 0) {
                    out.writeBytes(faults[random.nextInt(faults.length)]);
                } else {
                    out.writeBytes(pieces[random.nextInt(pieces.length)].getBytes(StandardCharsets.UTF_8));
                }
            }
            out.write('"');
            out.writeBytes("tail".getBytes(StandardCharsets.UTF_8));
            byte[] b = out.toByteArray();
            int end = random.nextInt(4) == 0 ? random.nextInt(b.length + 1) : b.length; // cut short too
            int expected = reference.skipString(b, 0, end);
            assertThat(validator.skipString(b, 0, end)).as("%s, end %d", HexFormat.of().formatHex(b), end).isEqualTo(expected);
            assertThat(validator.sawEscape || expected < 0).isEqualTo(reference.sawEscape || expected < 0);
            if (expected < 0) malformed++;
            validator.sawEscape = false;
            reference.sawEscape = false;
        }
        assertThat(malformed).as("faults were drawn").isBetween(10_000, 90_000);
    }

    private static int lastNewlineBytewise(byte[] b, int end) {
        for (int i = end - 1; i >= 0; i--) {
            if (b[i] == '\n') return i;
        }
        return -1;
    }

    @Test
    void lastIndexOfNewlineFindsTheLastNewlineWhateverBytesSurroundItAndWhereverTheEndIs() {
        // every byte value at every position, before and after a newline, with every end: a byte just above a
        // newline (0x0B above 0x0A) is where the short zero-byte test would have reported a false match
        for (int newlineAt = -1; newlineAt < 20; newlineAt++) {
            for (int at = 0; at < 20; at++) {
                for (int value = 0; value < 256; value++) {
                    byte[] b = new byte[20];
                    for (int i = 0; i < b.length; i++) b[i] = (byte) ('a' + i);
                    if (newlineAt >= 0) b[newlineAt] = '\n';
                    b[at] = (byte) value;
                    for (int end = 0; end <= b.length; end++) {
                        int found = ScanRun.lastIndexOfNewline(b, end);
                        if (found != lastNewlineBytewise(b, end)) { // 2 million cases: AssertJ only for a failure
                            assertThat(found).as("newline at %d, byte %02x at %d, end %d", newlineAt, value, at, end)
                                    .isEqualTo(lastNewlineBytewise(b, end));
                        }
                    }
                }
            }
        }
        Random random = new Random(23);
        for (int round = 0; round < 20_000; round++) {
            byte[] b = new byte[1 + random.nextInt(100)];
            for (int i = 0; i < b.length; i++) b[i] = (byte) (random.nextInt(8) == 0 ? '\n' + random.nextInt(3) - 1 : random.nextInt(256));
            int end = random.nextInt(b.length + 1);
            assertThat(ScanRun.lastIndexOfNewline(b, end)).isEqualTo(lastNewlineBytewise(b, end));
        }
    }
}
