package batchpipe.local.sample;

import java.util.Random;

/**
 * The ways a line goes wrong in real archives, applied to a finished line in the buffer: cut short (a
 * crashed writer), a raw control character or an invalid escape in a string, bytes that are not UTF-8,
 * a trailing comma, a leading zero, an unquoted NaN, nesting past the scanner's depth limit, and a
 * second value after the object.
 */
final class Malformations {
    static final int KINDS = 9;

    private Malformations() {
    }

    /** Spoils the line {@code [start, position)} in one of the {@link #KINDS} ways, chosen by {@code random}. */
    static void spoil(LineBuffer line, int start, Random random) {
        int end = line.position();
        int kind = random.nextInt(KINDS);
        switch (kind) {
            case 0 -> line.truncate(start + (end - start) / 2);
            case 1 -> replaceInsideString(line, start, end, (byte) 0x01);
            case 2 -> {
                int at = stringByte(line, start, end);
                line.set(at, (byte) '\\');
                line.set(at + 1, (byte) 'x');
            }
            case 3 -> replaceInsideString(line, start, end, (byte) 0xC0); // overlong lead: never UTF-8
            case 4 -> {
                line.truncate(end - 1);
                line.ascii(",}");
            }
            case 5 -> {
                line.truncate(end - 1);
                line.ascii(",\"n\":01}");
            }
            case 6 -> {
                line.truncate(end - 1);
                line.ascii(",\"n\":NaN}");
            }
            case 7 -> {
                line.truncate(end - 1);
                line.ascii(",\"deep\":");
                for (int i = 0; i < 600; i++) line.b('[');
                for (int i = 0; i < 600; i++) line.b(']');
                line.b('}');
            }
            default -> line.ascii(" {}");
        }
    }

    private static void replaceInsideString(LineBuffer line, int start, int end, byte value) {
        line.set(stringByte(line, start, end), value);
    }

    /** A byte inside the line's first string value of at least two bytes that holds no escape. */
    private static int stringByte(LineBuffer line, int start, int end) {
        // every generated line starts {"ts":"..." or {"ts":<number>,"level":"...": find the quote after a colon
        for (int i = start; i + 3 < end; i++) {
            if (line.byteAt(i) == ':' && line.byteAt(i + 1) == '"' && line.byteAt(i + 2) != '\\' && line.byteAt(i + 2) != '"'
                    && line.byteAt(i + 3) != '"') {
                return i + 2;
            }
        }
        throw new IllegalStateException("no string value to spoil in the line");
    }
}
