package batchpipe.bench.corpus;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShapeTest {
    /** Jackson, held to the scan's depth limit (512 levels) as well as RFC 8259. */
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(512).build()).build());

    private static byte[] bytes(Shape shape, long seed, int lines) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        shape.write(seed, lines, out);
        return out.toByteArray();
    }

    private static List<byte[]> lines(byte[] b) {
        List<byte[]> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < b.length; i++) {
            if (b[i] == '\n') {
                lines.add(java.util.Arrays.copyOfRange(b, start, i));
                start = i + 1;
            }
        }
        assertThat(start).as("every line ends with a newline").isEqualTo(b.length);
        return lines;
    }

    /** A strict reading: valid UTF-8, one JSON object, nothing after it. Null when the line is malformed. */
    private static JsonNode strict(byte[] line) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(line));
            JsonNode node = JSON.readTree(line);
            if (node == null || !node.isObject()) return null;
            try (var parser = JSON.createParser(line)) {
                parser.readValueAsTree();
                return parser.nextToken() == null ? node : null;
            }
        } catch (CharacterCodingException e) {
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    @Test
    void everyShapeWritesTheSameBytesForTheSameSeedAndOthersForAnother() throws IOException {
        for (Shape shape : Shape.values()) {
            assertThat(bytes(shape, 7, 3_000)).as(shape.label).isEqualTo(bytes(shape, 7, 3_000)).isNotEqualTo(bytes(shape, 8, 3_000));
        }
    }

    @Test
    void longValues_longLinesOf10To100KbHoldMoreThanHalfTheBytes_andEveryUnspoiledLineIsStrictJson() throws IOException {
        byte[] b = bytes(Shape.LONG_VALUES, 42, 20_000);
        long longBytes = 0, longLines = 0, malformed = 0;
        boolean nonAscii = false, escapes = false;
        for (byte[] line : lines(b)) {
            JsonNode node = strict(line);
            if (node == null) {
                malformed++;
                continue;
            }
            assertThat(node.has("level")).isTrue();
            assertThat(node.has("status")).isTrue();
            if (line.length >= 10_000) {
                assertThat(line.length).isLessThanOrEqualTo(100_300);
                longBytes += line.length + 1;
                longLines++;
                nonAscii |= node.get("request").get("body").asText().contains("日本語");
                escapes |= node.get("request").get("body").asText().contains("\"quoted\"");
                assertThat(node.get("samples").size()).isGreaterThan(100);
            }
        }
        assertThat(longBytes).isGreaterThan(b.length / 2);
        assertThat(longLines).isBetween(50L, 200L);
        assertThat(nonAscii).isTrue();
        assertThat(escapes).isTrue();
        assertThat(malformed).isBetween(2L, 25L); // one in 2,000 of 20,000 lines
    }

    @Test
    void narrow_eventsAreUnder100Bytes() throws IOException {
        List<byte[]> lines = lines(bytes(Shape.NARROW, 42, 50_000));
        long malformed = 0;
        for (byte[] line : lines) {
            JsonNode node = strict(line);
            if (node == null) {
                malformed++;
            } else {
                assertThat(line.length).isLessThan(100);
                assertThat(node.get("level").isTextual()).isTrue();
                assertThat(node.get("status").isInt()).isTrue();
            }
        }
        assertThat(malformed).isBetween(10L, 45L);
    }

    @Test
    void byLabel_namesTheShapesWhenItDoesNotKnowOne() {
        assertThat(Shape.byLabel("long-values")).isEqualTo(Shape.LONG_VALUES);
        assertThatThrownBy(() -> Shape.byLabel("wide")).hasMessageContaining("short, long-values, narrow");
    }
}
