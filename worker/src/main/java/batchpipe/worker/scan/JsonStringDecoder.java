package batchpipe.worker.scan;

/**
 * Unescapes the body of a JSON string that is already known to be valid into UTF-8 bytes. An escaped
 * surrogate without its partner ({@code "\ud800"}) is valid JSON text but not a Unicode scalar value;
 * it decodes to U+FFFD so that every decoded key stays valid UTF-8.
 */
final class JsonStringDecoder {

    private byte[] out = new byte[256];

    /** The decoded bytes live in {@link #buffer()} up to the returned length. */
    byte[] buffer() {
        return out;
    }

    static boolean hasEscape(byte[] b, int start, int end) {
        for (int i = start; i < end; i++) {
            if (b[i] == '\\') {
                return true;
            }
        }
        return false;
    }

    /** Decodes {@code b[start, end)} (between the quotes); the result is never longer than the input. */
    int decode(byte[] b, int start, int end) {
        if (out.length < end - start) {
            out = new byte[Math.max(end - start, out.length * 2)];
        }
        byte[] o = out;
        int n = 0;
        int p = start;
        while (p < end) {
            byte c = b[p];
            if (c != '\\') {
                o[n++] = c;
                p++;
                continue;
            }
            byte e = b[p + 1];
            p += 2;
            switch (e) {
                case 'b' -> o[n++] = '\b';
                case 'f' -> o[n++] = '\f';
                case 'n' -> o[n++] = '\n';
                case 'r' -> o[n++] = '\r';
                case 't' -> o[n++] = '\t';
                case 'u' -> {
                    int unit = hex4(b, p);
                    p += 4;
                    int codePoint = unit;
                    if (Character.isHighSurrogate((char) unit)) {
                        if (end - p >= 6 && b[p] == '\\' && b[p + 1] == 'u'
                                && Character.isLowSurrogate((char) hex4(b, p + 2))) {
                            codePoint = Character.toCodePoint((char) unit, (char) hex4(b, p + 2));
                            p += 6;
                        } else {
                            codePoint = 0xFFFD;
                        }
                    } else if (Character.isLowSurrogate((char) unit)) {
                        codePoint = 0xFFFD;
                    }
                    n = appendUtf8(o, n, codePoint);
                }
                default -> o[n++] = e; // quote, backslash, solidus
            }
        }
        return n;
    }

    private static int hex4(byte[] b, int p) {
        return JsonLineValidator.hexValue(b[p]) << 12 | JsonLineValidator.hexValue(b[p + 1]) << 8
                | JsonLineValidator.hexValue(b[p + 2]) << 4 | JsonLineValidator.hexValue(b[p + 3]);
    }

    private static int appendUtf8(byte[] o, int n, int cp) {
        if (cp < 0x80) {
            o[n++] = (byte) cp;
        } else if (cp < 0x800) {
            o[n++] = (byte) (0xC0 | cp >> 6);
            o[n++] = (byte) (0x80 | cp & 0x3F);
        } else if (cp < 0x10000) {
            o[n++] = (byte) (0xE0 | cp >> 12);
            o[n++] = (byte) (0x80 | cp >> 6 & 0x3F);
            o[n++] = (byte) (0x80 | cp & 0x3F);
        } else {
            o[n++] = (byte) (0xF0 | cp >> 18);
            o[n++] = (byte) (0x80 | cp >> 12 & 0x3F);
            o[n++] = (byte) (0x80 | cp >> 6 & 0x3F);
            o[n++] = (byte) (0x80 | cp & 0x3F);
        }
        return n;
    }
}
