package batchpipe.common.text;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ControlCharactersTest {

    @Test
    void escape_writesEscDelAndC1AsUnicodeEscapes() {
        assertThat(ControlCharacters.escape("\u001b[31mred")).isEqualTo("\\u001b[31mred");
        assertThat(ControlCharacters.escape("a\u007fb\u009bc\u0000")).isEqualTo("a\\u007fb\\u009bc\\u0000");
    }

    @Test
    void escape_writesLineBreaksAndTabsSoTheTextStaysOnOneLine() {
        assertThat(ControlCharacters.escape("a\n| FORGED | 999 |\r\tb")).isEqualTo("a\\u000a| FORGED | 999 |\\u000d\\u0009b");
    }

    @Test
    void escape_returnsPrintableTextUnchanged() {
        String text = "plain text, ünïcödé, 数字 and \u00a0 (no-break space)";

        assertThat(ControlCharacters.escape(text)).isSameAs(text);
    }

    @Test
    void escapeKeepingLines_keepsLineFeedsAndTabsButNotCarriageReturnsOrEsc() {
        assertThat(ControlCharacters.escapeKeepingLines("one\n\ttwo\r\n\u001b]0;title\u0007"))
                .isEqualTo("one\n\ttwo\\u000d\n\\u001b]0;title\\u0007");
    }

    @Test
    void is_coversExactlyC0DelAndC1() {
        for (char c = 0; c < 0x100; c++) {
            boolean control = c < 0x20 || (c >= 0x7f && c <= 0x9f);
            assertThat(ControlCharacters.is(c)).as("U+%04X", (int) c).isEqualTo(control);
        }
    }
}
