package batchpipe.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class MarkdownTextTest {

    @ParameterizedTest
    @ValueSource(strings = {"INFO", "200", "us-east-1", "arm64/1769MB", "x86_64", "user_id", "http.status", "0.00012", "–",
            "a (b) c!", "worker arm64 1769 MB: peak 412 MB", "3100 billed ms x 1024 MB / 1,024,000 = 3.1 GB-s x $0.0000166667",
            "{done=1, rejected=1}", "ünïcödé 数字", "#1 + 2 - 3 = 0."})
    void escape_leavesTextWithoutMarkdownSyntaxUnchanged(String plain) {
        assertThat(MarkdownText.escape(plain)).isEqualTo(plain);
    }

    @Test
    void escape_writesHtmlTagsAsEntities() {
        assertThat(MarkdownText.escape("<script>alert(1)</script>")).isEqualTo("&lt;script&gt;alert(1)&lt;/script&gt;");
        assertThat(MarkdownText.escape("<img src=x onerror=alert(1)>")).isEqualTo("&lt;img src=x onerror=alert(1)&gt;");
        assertThat(MarkdownText.escape("<http://x>")).isEqualTo("&lt;http://x&gt;");
        assertThat(MarkdownText.escape("&lt; & &#60;")).isEqualTo("&amp;lt; &amp; &amp;#60;");
    }

    @Test
    void escape_breaksLinkAndImageSyntaxAtTheBracket() {
        assertThat(MarkdownText.escape("[x](javascript:alert(1))")).isEqualTo("\\[x\\](javascript:alert(1))");
        assertThat(MarkdownText.escape("![x](http://x/t.png)")).isEqualTo("!\\[x\\](http://x/t.png)");
        assertThat(MarkdownText.escape("[x][ref]")).isEqualTo("\\[x\\]\\[ref\\]");
    }

    @Test
    void escape_breaksEmphasisCodeAndStrikethroughButNotUnderscoresInsideWords() {
        assertThat(MarkdownText.escape("*bold* `code` ~~gone~~")).isEqualTo("\\*bold\\* \\`code\\` \\~\\~gone\\~\\~");
        assertThat(MarkdownText.escape("_em_ __init__ a_b")).isEqualTo("\\_em\\_ \\_\\_init\\_\\_ a_b");
        assertThat(MarkdownText.escape("a_*b*")).isEqualTo("a\\_\\*b\\*");
    }

    @Test
    void escape_keepsPipesAndBackslashesInTheCell() {
        assertThat(MarkdownText.escape("|")).isEqualTo("\\|");
        assertThat(MarkdownText.escape("a \\| b")).isEqualTo("a \\\\\\| b");
        assertThat(MarkdownText.escape("ends with \\")).isEqualTo("ends with \\\\");
    }

    @Test
    void escape_keepsAValueOnOneLineAndWritesControlCharactersVisibly() {
        assertThat(MarkdownText.escape("a\n| FORGED | 999 |")).isEqualTo("a\\u000a\\| FORGED \\| 999 \\|");
        assertThat(MarkdownText.escape("a\r\nb")).isEqualTo("a\\u000d\\u000ab");
        assertThat(MarkdownText.escape("\u001b[31mred\u009b")).isEqualTo("\\u001b\\[31mred\\u009b");
    }
}
