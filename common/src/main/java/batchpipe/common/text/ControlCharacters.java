package batchpipe.common.text;

/**
 * Control characters in untrusted text (log values, labels, ids). A terminal acts on them instead of
 * showing them (ESC starts a sequence that can recolour, move the cursor or retitle the window; CR lets
 * a value overwrite its own line), and line-based formats split on line breaks. Text shown to a person
 * therefore carries them as a backslash, {@code u} and four hex digits (ESC as backslash-u-001b): visible,
 * reversible, and the notation JSON uses for them.
 */
public final class ControlCharacters {
    private ControlCharacters() {
    }

    /** C0 (U+0000 to U+001F), DEL (U+007F) and C1 (U+0080 to U+009F): Unicode's category Cc. */
    public static boolean is(char c) {
        return Character.isISOControl(c);
    }

    /** {@code text} with every control character, line breaks included, written as backslash-u and four hex digits. */
    public static String escape(String text) {
        return escape(text, false);
    }

    /**
     * As {@link #escape(String)} but keeping line feeds and tabs, for text of several lines (a Markdown or
     * JSON document). Carriage returns are still escaped: on a terminal one returns to the line's start.
     */
    public static String escapeKeepingLines(String text) {
        return escape(text, true);
    }

    /** Appends {@code c} as backslash-u and four lower-case hex digits. */
    public static void appendEscaped(StringBuilder out, char c) {
        out.append("\\u");
        String hex = Integer.toHexString(c);
        for (int pad = hex.length(); pad < 4; pad++) out.append('0');
        out.append(hex);
    }

    private static String escape(String text, boolean keepLines) {
        int first = -1;
        for (int i = 0; i < text.length(); i++) {
            if (escapes(text.charAt(i), keepLines)) {
                first = i;
                break;
            }
        }
        if (first < 0) return text;
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            if (escapes(c, keepLines)) appendEscaped(out, c);
            else out.append(c);
        }
        return out.toString();
    }

    private static boolean escapes(char c, boolean keepLines) {
        return is(c) && !(keepLines && (c == '\n' || c == '\t'));
    }
}
