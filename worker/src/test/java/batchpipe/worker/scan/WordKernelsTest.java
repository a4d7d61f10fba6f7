package batchpipe.worker.scan;

import org.junit.jupiter.api.Test;

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
