package batchpipe.worker.scan;

import static batchpipe.worker.scan.ScanFixtures.NO_COUNTS;
import static batchpipe.worker.scan.ScanFixtures.concat;
import static batchpipe.worker.scan.ScanFixtures.scan;
import static batchpipe.worker.scan.ScanFixtures.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.jsoniter.JsonIterator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * jsoniter 0.9.23 skips values without checking them, which is why every line goes through
 * JsonLineValidator before jsoniter navigates it. Each test shows jsoniter accepting a bad line and the
 * scanner counting that line as malformed; should a jsoniter upgrade tighten one of these, its test
 * here fails and says so.
 */
class JsoniterLeniencyTest {

    private static void assertJsoniterSkipsWithoutError(byte[] line) {
        JsonIterator iter = new JsonIterator();
        iter.reset(line, 0, line.length);
        assertThatCode(iter::skip).as("jsoniter skip of %s", new String(line, StandardCharsets.UTF_8))
                .doesNotThrowAnyException();
    }

    private static void assertLenientButMalformed(byte[] line) throws IOException {
        assertJsoniterSkipsWithoutError(line);
        assertThat(scan(concat(line, utf8("\n")), NO_COUNTS).malformed()).isEqualTo(1);
    }

    @Test
    void jsoniterSkipsMisspelledLiterals_scannerRejectsThem() throws IOException {
        assertLenientButMalformed(utf8("{\"a\":txyz}"));
        assertLenientButMalformed(utf8("{\"a\":nope}"));
        assertLenientButMalformed(utf8("{\"a\":fals}"));
    }

    @Test
    void jsoniterSkipsMalformedNumbers_scannerRejectsThem() throws IOException {
        assertLenientButMalformed(utf8("{\"a\":007}"));
        assertLenientButMalformed(utf8("{\"a\":1.2.3}"));
        assertLenientButMalformed(utf8("{\"a\":-}"));
    }

    @Test
    void jsoniterSkipsControlCharactersAndBadEscapesInStrings_scannerRejectsThem() throws IOException {
        assertLenientButMalformed(utf8("{\"a\":\"x\u0001y\"}"));
        assertLenientButMalformed(utf8("{\"a\":\"\\q\"}"));
        assertLenientButMalformed(utf8("{\"a\":\"\\u12\"}"));
    }

    @Test
    void jsoniterSkipsInvalidUtf8_scannerRejectsIt() throws IOException {
        assertLenientButMalformed(concat(utf8("{\"a\":\""), new byte[] {(byte) 0xC0, (byte) 0xAF}, utf8("\"}")));
        assertLenientButMalformed(concat(utf8("{\"a\":\""), new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                utf8("\"}")));
    }

    @Test
    void jsoniterSkipsObjectsByCountingBracesOnly_scannerChecksTheGrammar() throws IOException {
        assertLenientButMalformed(utf8("{\"a\":[}"));
        assertLenientButMalformed(utf8("{\"a\" 1 2 3}"));
        assertLenientButMalformed(utf8("{\"a\":1,,}"));
        assertLenientButMalformed(utf8("{:}"));
    }

    @Test
    void jsoniterStopsAfterTheFirstValue_scannerRejectsTrailingContent() throws IOException {
        assertLenientButMalformed(utf8("{\"a\":1} trailing"));
        assertLenientButMalformed(utf8("{}{}"));
    }
}
