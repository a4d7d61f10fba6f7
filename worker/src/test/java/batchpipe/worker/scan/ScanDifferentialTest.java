package batchpipe.worker.scan;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one-pass scanner (SWAR strings, field values found while validating) against the code it replaced,
 * kept in the tests as {@link ReferenceLineValidator}, {@link ReferenceFieldPathReader} and
 * {@link ReferenceChunkParser}: on every generated line of every shape, valid or spoiled, both must
 * give the same verdict, the same line end and the same value for every requested path, and on whole
 * chunks the same tallies.
 */
class ScanDifferentialTest {
    private static final List<String> PATHS = List.of("level", "status", "http.status", "v", "a.a.a", "é", "\"q\"", "http", "tags");

    @Test
    void everyLine_sameVerdictLineEndAndValuesAsTheReference() {
        FieldPathTree tree = FieldPathTree.of(PATHS);
        JsonLineValidator fast = new JsonLineValidator();
        fast.extract(tree);
        ReferenceLineValidator reference = new ReferenceLineValidator();
        ReferenceFieldPathReader reader = new ReferenceFieldPathReader(tree);
        JsonLineGenerator generator = new JsonLineGenerator(19);
        Map<Integer, Integer> verdicts = new TreeMap<>();
        int valuesCompared = 0;
        for (int i = 0; i < 12_000; i++) {
            byte[] line = generator.line();
            // with and without a newline after it, and at an offset, as lines sit in a chunk
            byte[] inChunk = new byte[line.length + 3];
            System.arraycopy(line, 0, inChunk, 2, line.length);
            inChunk[line.length + 2] = '\n';
            for (int[] range : new int[][] {{0, line.length}, {2, inChunk.length}}) {
                byte[] b = range[0] == 0 ? line : inChunk;
                int expected = reference.scanLine(b, range[0], range[1]);
                int actual = fast.scanLine(b, range[0], range[1]);
                String what = describe(line);
                assertThat(actual).as("verdict: %s", what).isEqualTo(expected);
                assertThat(fast.lineEnd).as("line end: %s", what).isEqualTo(reference.lineEnd);
                if (expected == JsonLineValidator.OBJECT) {
                    assertThat(fast.objectStart).isEqualTo(reference.objectStart);
                    assertThat(fast.sawEscape).as("escape seen: %s", what).isEqualTo(reference.sawEscape);
                    reader.read(b, reference.objectStart, reference.lineEnd, reference.sawEscape);
                    for (int slot = 0; slot < PATHS.size(); slot++) {
                        String path = PATHS.get(slot);
                        assertThat(fast.valueStart[slot]).as("%s start: %s", path, what).isEqualTo(reader.valueStart[slot]);
                        if (reader.valueStart[slot] >= 0) {
                            assertThat(fast.valueEnd[slot]).as("%s end: %s", path, what).isEqualTo(reader.valueEnd[slot]);
                            valuesCompared++;
                        }
                    }
                }
                verdicts.merge(expected, 1, Integer::sum);
            }
        }
        // the generator reached every verdict and found values to compare
        assertThat(verdicts.get(JsonLineValidator.OBJECT)).isGreaterThan(10_000);
        assertThat(verdicts.get(JsonLineValidator.MALFORMED)).isGreaterThan(5_000);
        assertThat(valuesCompared).isGreaterThan(20_000);
    }

    @Test
    void wholeChunks_sameTalliesAsTheReference_forEveryKindOfOption() {
        List<ScanOptions> options = List.of(
                ScanOptions.defaults(),
                ScanOptions.defaults().withCountBy(PATHS),
                ScanOptions.defaults().withCountBy(List.of()),
                ScanOptions.defaults().withMatch(new Match.FieldEquals("level", "ERROR")),
                ScanOptions.defaults().withCountBy(List.of("level")).withMatch(new Match.FieldEquals("http.status", "404")),
                ScanOptions.defaults().withMatch(new Match.Contains("caf")),
                ScanOptions.defaults().withCountBy(List.of("status")).withMaxLineBytes(4_096));
        JsonLineGenerator generator = new JsonLineGenerator(1913);
        for (int chunk = 0; chunk < 60; chunk++) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int i = 0; i < 150; i++) {
                out.writeBytes(generator.line());
                out.write(i % 17 == 0 ? '\r' : ' ');
                out.write('\n');
                if (i % 40 == 0) out.writeBytes("\n  \t\n".getBytes(StandardCharsets.US_ASCII));
            }
            byte[] b = out.toByteArray();
            for (ScanOptions o : options) {
                ChunkTally expected = new ReferenceChunkParser(o).parse(b, 0, b.length);
                ChunkTally actual = new ChunkParser(o).parse(b, 0, b.length);
                assertThat(summary(actual, o)).as("chunk %d, %s", chunk, o).isEqualTo(summary(expected, o));
            }
        }
    }

    private static Map<String, Object> summary(ChunkTally t, ScanOptions o) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("lines", t.lines);
        s.put("events", t.events);
        s.put("malformed", t.malformed);
        s.put("oversized", t.oversized);
        s.put("matches", t.matches);
        List<Long> first = new ArrayList<>();
        for (int i = 0; i < t.firstMalformedCount; i++) first.add(t.firstMalformed[i]);
        s.put("firstMalformed", first);
        for (int i = 0; i < t.counts.length; i++) {
            Map<String, Long> counts = new TreeMap<>(), over = new TreeMap<>();
            t.counts[i].addTo(counts, over);
            s.put("countBy " + o.countBy().get(i), counts);
            s.put("over " + o.countBy().get(i), over);
        }
        return s;
    }

    private static String describe(byte[] line) {
        String hex = HexFormat.of().formatHex(line, 0, Math.min(line.length, 300));
        return line.length + " bytes: " + new String(line, 0, Math.min(line.length, 300), StandardCharsets.UTF_8) + " [" + hex + "]";
    }
}
