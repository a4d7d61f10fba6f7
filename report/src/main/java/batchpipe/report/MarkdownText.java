package batchpipe.report;

import batchpipe.common.text.ControlCharacters;

/**
 * Untrusted text (a countBy value, a label, a reason) as Markdown that shows it literally and keeps it
 * in its table cell or line. GitHub-flavoured Markdown is the target:
 * <ul>
 *   <li>{@code < > &} as entities, so no HTML tag, comment or autolink ({@code <http://...>}) is made;</li>
 *   <li>{@code \ ` * [ ] ~} behind a backslash: no code span, emphasis, strikethrough, link or image
 *       ({@code [x](javascript:...)}, {@code ![x](...)} need an unescaped {@code [}, so {@code ( ) !} stay
 *       as they are);</li>
 *   <li>{@code _} behind a backslash unless it sits between two letters or digits, where it cannot open or
 *       close emphasis: {@code x86_64} and {@code user_id} print as before;</li>
 *   <li>{@code |} as {@code \|}, which GFM keeps inside the cell;</li>
 *   <li>control characters, line breaks included, as backslash-u escapes ({@link ControlCharacters}),
 *       so a value cannot start a new row ({@code a\n| FORGED | 999 |}) nor reach a terminal as ESC.</li>
 * </ul>
 * Text with none of these characters is returned unchanged. GFM's extended autolinks (a bare
 * {@code https://...} or {@code www....}) are left alone: they show their whole address and only ever link
 * to http(s) or mail.
 */
public final class MarkdownText {
    private MarkdownText() {
    }

    public static String escape(Object value) {
        String s = String.valueOf(value);
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<', '>', '&' -> out.append(Html.markupEntity(c));
                case '\\', '`', '*', '[', ']', '~', '|' -> out.append('\\').append(c);
                case '_' -> {
                    boolean insideWord = i > 0 && i + 1 < s.length()
                            && Character.isLetterOrDigit(s.charAt(i - 1)) && Character.isLetterOrDigit(s.charAt(i + 1));
                    if (!insideWord) out.append('\\');
                    out.append(c);
                }
                default -> {
                    if (ControlCharacters.is(c)) ControlCharacters.appendEscaped(out, c);
                    else out.append(c);
                }
            }
        }
        return out.toString();
    }
}
