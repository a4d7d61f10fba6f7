package batchpipe.worker.scan;

import static batchpipe.worker.scan.ScanFixtures.NO_COUNTS;
import static batchpipe.worker.scan.ScanFixtures.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rules 5 and 6: counting values at dotted paths, and matches. */
class CountByAndMatchTest {

    private static ScanOptions countBy(String... paths) {
        return ScanOptions.defaults().withCountBy(List.of(paths));
    }

    @Test
    void scan_countsDefaultLevelAndStatusOfRealisticLines() throws IOException {
        String log = ScanFixtures.eventLine(3) + "\n" + ScanFixtures.eventLine(7) + "\n"
                + ScanFixtures.eventLine(10) + "\n";
        ScanResult r = scan(log, ScanOptions.defaults());
        assertThat(r.countBy().get("level")).containsExactly(entry("ERROR", 1L), entry("INFO", 2L));
        assertThat(r.countBy().get("status")).containsExactly(entry("200", 2L), entry("500", 1L));
    }

    @Test
    void scan_takesOnlyTheNameAskedForAmongNamesThatShareTheirFirstEightBytesOrDifferInLength() throws IOException {
        // names are compared eight bytes at a time: these differ only past the eighth byte, or only in length
        String log = """
                {"latencyMsAvg":1,"latencyMs":2,"latencyMsMax":3,"latency":4,"latencyM":5,"latencyMs\\u0000":6}
                {"latencyMsMax":7,"latencyMsAvg":8}
                {"latencyMsAvh":9,"latencyMsAvg":10}
                """;
        ScanResult r = scan(log, countBy("latencyMs", "latencyMsAvg", "latencyM"));
        assertThat(r.countBy().get("latencyMs")).containsOnly(entry("2", 1L));
        assertThat(r.countBy().get("latencyMsAvg")).containsOnly(entry("1", 1L), entry("8", 1L), entry("10", 1L));
        assertThat(r.countBy().get("latencyM")).containsOnly(entry("5", 1L));
    }

    @Test
    void scan_countsValuesThatShareTheirFirstEightBytesOrDifferOnlyInLengthApart() throws IOException {
        // values are hashed and compared eight bytes at a time, so these are the cases where that could go wrong
        String log = """
                {"v":"/api/v1/users/1"}
                {"v":"/api/v1/users/2"}
                {"v":"/api/v1/users/1"}
                {"v":"/api/v1/"}
                {"v":"/api/v1"}
                {"v":"/api/v1/users/10"}
                {"v":"a"}
                {"v":"a\\u0000"}
                {"v":""}
                {"v":"a"}
                """;
        ScanResult r = scan(log, countBy("v"));
        assertThat(r.countBy().get("v")).containsOnly(entry("/api/v1/users/1", 2L), entry("/api/v1/users/2", 1L),
                entry("/api/v1/", 1L), entry("/api/v1", 1L), entry("/api/v1/users/10", 1L), entry("a", 2L),
                entry("a\u0000", 1L), entry("", 1L));
    }

    @Test
    void scan_countsStringValuesUnescaped() throws IOException {
        String log = """
                {"v":"plain"}
                {"v":"pl\\u0061in"}
                {"v":"say \\"hi\\"\\n"}
                {"v":"caf\\u00e9"}
                {"v":"café"}
                {"v":"\\ud83d\\ude00"}
                {"v":"\\ud800"}
                """;
        ScanResult r = scan(log, countBy("v"));
        assertThat(r.countBy().get("v")).containsOnly(entry("plain", 2L), entry("say \"hi\"\n", 1L),
                entry("café", 2L), entry("\uD83D\uDE00", 1L), entry("\uFFFD", 1L));
    }

    @Test
    void scan_countsOtherScalarsByTheirJsonTextAsWritten() throws IOException {
        String log = """
                {"v":200}
                {"v":1.50}
                {"v":1.5}
                {"v":true}
                {"v":false}
                {"v":null}
                {"v":-0}
                {"v":1E+5 }
                {"v":"200"}
                """;
        ScanResult r = scan(log, countBy("v"));
        assertThat(r.countBy().get("v")).containsOnly(entry("200", 2L), entry("1.50", 1L), entry("1.5", 1L),
                entry("true", 1L), entry("false", 1L), entry("null", 1L), entry("-0", 1L), entry("1E+5", 1L));
    }

    @Test
    void scan_followsDottedPathsIntoNestedObjects() throws IOException {
        String log = """
                {"http":{"status":200,"req":{"method":"GET"}},"status":1}
                {"http":{"req":{"method":"POST"},"status":404}}
                {"a":{"http":{"status":500}}}
                """;
        ScanResult r = scan(log, countBy("http.status", "http.req.method", "status"));
        assertThat(r.countBy().get("http.status")).containsOnly(entry("200", 1L), entry("404", 1L));
        assertThat(r.countBy().get("http.req.method")).containsOnly(entry("GET", 1L), entry("POST", 1L));
        assertThat(r.countBy().get("status")).containsOnly(entry("1", 1L));
    }

    @Test
    void scan_doesNotCountMissingFieldsObjectsOrArrays() throws IOException {
        String log = """
                {"v":{"x":1}}
                {"v":[1,2]}
                {"w":1}
                {"v":{}}
                {"http":"not an object"}
                {"http":[{"status":1}]}
                """;
        ScanResult r = scan(log, countBy("v", "http.status"));
        assertThat(r.countBy().get("v")).isEmpty();
        assertThat(r.countBy().get("http.status")).isEmpty();
        assertThat(r.countBy()).containsOnlyKeys("v", "http.status");
    }

    @Test
    void scan_countsOnlyValidLines() throws IOException {
        ScanResult r = scan("{\"level\":\"INFO\"}\n{\"level\":\"INFO\"} trailing\n", countBy("level"));
        assertThat(r.countBy().get("level")).containsOnly(entry("INFO", 1L));
    }

    /** Duplicate keys: the first occurrence wins, at every level (documented in FieldPathReader). */
    @Test
    void scan_usesTheFirstOfDuplicateKeys() throws IOException {
        String log = """
                {"level":"INFO","level":"ERROR"}
                {"http":{"status":200},"http":{"status":500}}
                {"http":{"method":"GET"},"http":{"status":500}}
                {"http":{"status":201,"status":202}}
                {"le\\u0076el":"WARN","level":"ERROR"}
                """;
        ScanResult r = scan(log, countBy("level", "http.status"));
        assertThat(r.countBy().get("level")).containsOnly(entry("INFO", 1L), entry("WARN", 1L));
        assertThat(r.countBy().get("http.status")).containsOnly(entry("200", 1L), entry("201", 1L));
    }

    @Test
    void scan_matchesEscapedFieldNames() throws IOException {
        ScanResult r = scan("{\"lev\\u0065l\":\"INFO\",\"a\\\"b\":1}\n", countBy("level", "a\"b"));
        assertThat(r.countBy().get("level")).containsOnly(entry("INFO", 1L));
        assertThat(r.countBy().get("a\"b")).containsOnly(entry("1", 1L));
    }

    @Test
    void scan_sortsCountByPathsAndValues() throws IOException {
        ScanResult r = scan("{\"b\":\"z\",\"a\":\"y\"}\n{\"b\":\"x\",\"a\":\"w\"}\n", countBy("b", "a"));
        assertThat(r.countBy().keySet()).containsExactly("a", "b");
        assertThat(r.countBy().get("b").keySet()).containsExactly("x", "z");
    }

    @Test
    void scan_countsManyDistinctValues() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            sb.append("{\"user\":{\"id\":\"u-").append(i % 2500).append("\"}}\n");
        }
        Map<String, Long> ids = scan(sb.toString(), countBy("user.id").withChunkBytes(4096)).countBy().get("user.id");
        assertThat(ids).hasSize(2500).allSatisfy((id, n) -> assertThat(n).isEqualTo(2L));
    }

    // ---- rule 6: matches

    @Test
    void scan_countsContainsMatchesOnValidLinesOnly() throws IOException {
        String log = """
                {"msg":"payment failed"}
                {"msg":"payment ok"}
                {"msg":"payment failed"} trailing
                payment failed
                {"msg":"pay\\u006dent failed"}
                """;
        ScanResult r = scan(log, NO_COUNTS.withMatch(new Match.Contains("payment failed")));
        assertThat(r.matches()).isEqualTo(1);
    }

    @Test
    void scan_containsMatchesRawUtf8Bytes() throws IOException {
        ScanResult r = scan("{\"msg\":\"détectée\"}\n{\"msg\":\"detectee\"}\n",
                NO_COUNTS.withMatch(new Match.Contains("tée")));
        assertThat(r.matches()).isEqualTo(1);
    }

    @Test
    void scan_fieldEqualsComparesStringsUnescapedAndScalarsByJsonText() throws IOException {
        String log = """
                {"http":{"status":200}}
                {"http":{"status":"200"}}
                {"http":{"status":"2\\u0030\\u0030"}}
                {"http":{"status":200.0}}
                {"http":{"status":{"code":200}}}
                {"status":200}
                {"http":{"status":200}} x
                """;
        ScanResult r = scan(log, NO_COUNTS.withMatch(new Match.FieldEquals("http.status", "200")));
        assertThat(r.matches()).isEqualTo(3);
        ScanResult nulls = scan("{\"a\":null}\n{\"a\":\"null\"}\n{\"b\":null}\n",
                NO_COUNTS.withMatch(new Match.FieldEquals("a", "null")));
        assertThat(nulls.matches()).isEqualTo(2);
    }

    @Test
    void scan_fieldEqualsWorksAlongsideCountByOnTheSamePath() throws IOException {
        ScanResult r = scan("{\"level\":\"ERROR\"}\n{\"level\":\"INFO\"}\n",
                countBy("level").withMatch(new Match.FieldEquals("level", "ERROR")));
        assertThat(r.matches()).isEqualTo(1);
        assertThat(r.countBy().get("level")).containsOnly(entry("ERROR", 1L), entry("INFO", 1L));
    }

    @Test
    void scan_reportsNullMatchesWhenNoMatchWasRequested() throws IOException {
        assertThat(scan("{}\n", NO_COUNTS).matches()).isNull();
    }
}
