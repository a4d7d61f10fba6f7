package batchpipe.worker.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.jsoniter.JsonIterator;
import com.jsoniter.any.Any;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScanResultJsonTest {

    @Test
    void toJson_writesEveryFieldInOrderCompactly() {
        Map<String, Map<String, Long>> counts = new LinkedHashMap<>();
        counts.put("status", Map.of("500", 2L, "200", 7L));
        counts.put("level", Map.of("INFO", 9L));
        ScanResult r = new ScanResult(9, 2, List.of(3L, 8L), 1, 1000, 120, counts, 4L);
        assertThat(r.toJson()).isEqualTo("{\"events\":9,\"malformed\":2,\"malformedLines\":[3,8],"
                + "\"oversizedLines\":1,\"bytes\":1000,\"compressedBytes\":120,"
                + "\"countBy\":{\"level\":{\"INFO\":9},\"status\":{\"200\":7,\"500\":2}},\"matches\":4}");
    }

    @Test
    void toJson_omitsMatchesWhenNoneWasRequested() {
        ScanResult r = new ScanResult(0, 0, List.of(), 0, 0, 0, Map.of(), null);
        assertThat(r.toJson()).isEqualTo("{\"events\":0,\"malformed\":0,\"malformedLines\":[],\"oversizedLines\":0,"
                + "\"bytes\":0,\"compressedBytes\":0,\"countBy\":{}}");
    }

    @Test
    void toJson_saysWhichPathsWereCountedApproximately() {
        Map<String, Map<String, Long>> counts = new LinkedHashMap<>();
        counts.put("level", Map.of("INFO", 9L));
        counts.put("user.id", Map.of("u-1", 5L, "u-2", 3L));
        ScanResult r = new ScanResult(9, 0, List.of(), 0, 100, 10, counts, null,
                Map.of("user.id", new ApproximateCounts(9, 7, Map.of("u-2", 1L, "u-1", 0L))));
        assertThat(r.toJson()).endsWith("\"countBy\":{\"level\":{\"INFO\":9},\"user.id\":{\"u-1\":5,\"u-2\":3}},"
                + "\"approximate\":{\"user.id\":{\"events\":9,\"distinctEstimate\":7,\"overCounts\":{\"u-1\":0,\"u-2\":1}}}}");
    }

    @Test
    void toJson_escapesQuotesBackslashesControlsAndLoneSurrogates() {
        String nasty = "q\"b\\n\nt\tc\u0001d\u007f e\u00e9 \uD83D\uDE00 lone\uD800";
        ScanResult r = new ScanResult(1, 0, List.of(), 0, 1, 1, Map.of("p\"ath", Map.of(nasty, 1L)), null);
        String json = r.toJson();
        assertThat(json).contains("\"p\\\"ath\":{\"q\\\"b\\\\n\\nt\\tc\\u0001d\u007f e\u00e9 \uD83D\uDE00 lone\\ud800\":1}");
        Any parsed = JsonIterator.deserialize(json);
        assertThat(parsed.get("countBy").get("p\"ath").size()).isEqualTo(1);
    }

    @Test
    void result_sortsCountByAndIsImmutable() {
        Map<String, Map<String, Long>> counts = new LinkedHashMap<>();
        counts.put("b", new LinkedHashMap<>(Map.of("z", 1L, "a", 2L)));
        counts.put("a", Map.of());
        ScanResult r = new ScanResult(0, 0, List.of(), 0, 0, 0, counts, null);
        assertThat(r.countBy().keySet()).containsExactly("a", "b");
        assertThat(r.countBy().get("b").keySet()).containsExactly("a", "z");
        assertThatThrownBy(() -> r.countBy().put("c", Map.of()))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
