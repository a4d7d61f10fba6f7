package batchpipe.worker.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScanOptionsTest {

    @Test
    void defaults_countLevelAndStatusWithoutMatchAndOneMebibyteLines() {
        ScanOptions d = ScanOptions.defaults();
        assertThat(d.countBy()).containsExactly("level", "status");
        assertThat(d.match()).isNull();
        assertThat(d.maxLineBytes()).isEqualTo(1 << 20);
        assertThat(d.chunkBytes()).isBetween(1 << 20, 4 << 20);
    }

    @Test
    void options_copyTheCountByListSoLaterChangesDoNotLeakIn() {
        List<String> paths = new ArrayList<>(List.of("a"));
        ScanOptions o = ScanOptions.defaults().withCountBy(paths);
        paths.add("b");
        assertThat(o.countBy()).containsExactly("a");
    }

    @Test
    void options_rejectOutOfRangeSizesNamingTheArgumentAndLimit() {
        assertThatThrownBy(() -> ScanOptions.defaults().withMaxLineBytes(15))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxLineBytes").hasMessageContaining("16").hasMessageContaining("was 15");
        assertThatThrownBy(() -> ScanOptions.defaults().withMaxLineBytes((64 << 20) + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxLineBytes");
        assertThatThrownBy(() -> ScanOptions.defaults().withChunkBytes(63))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chunkBytes").hasMessageContaining("64").hasMessageContaining("was 63");
        assertThatThrownBy(() -> ScanOptions.defaults().withChunkBytes(Integer.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chunkBytes");
    }

    @Test
    void options_rejectBadCountByPaths() {
        for (String bad : new String[] {"", ".a", "a.", "a..b"}) {
            assertThatThrownBy(() -> ScanOptions.defaults().withCountBy(List.of(bad)))
                    .as("path '%s'", bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("countBy path");
        }
        assertThatThrownBy(() -> ScanOptions.defaults().withCountBy(Collections.singletonList(null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("countBy path");
        assertThatThrownBy(() -> ScanOptions.defaults().withCountBy(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("countBy");
        assertThatThrownBy(() -> ScanOptions.defaults().withCountBy(List.of("a", "a")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
        String[] many = new String[33];
        Arrays.setAll(many, i -> "f" + i);
        assertThatThrownBy(() -> ScanOptions.defaults().withCountBy(List.of(many)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("33").hasMessageContaining("32");
        assertThatThrownBy(() -> ScanOptions.defaults().withCountBy(List.of("a.".repeat(32) + "a")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("segments");
    }

    @Test
    void match_rejectsEmptyContainsAndBadPaths() {
        assertThatThrownBy(() -> new Match.Contains("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Match.Contains");
        assertThatThrownBy(() -> new Match.FieldEquals("a..b", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Match.FieldEquals path");
        assertThatThrownBy(() -> new Match.FieldEquals("a", null)).isInstanceOf(NullPointerException.class);
    }
}
