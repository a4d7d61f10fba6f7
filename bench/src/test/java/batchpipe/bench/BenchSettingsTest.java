package batchpipe.bench;

import org.junit.jupiter.api.Test;

import batchpipe.bench.corpus.Shape;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchSettingsTest {
    private static BenchSettings settings(boolean quick, Set<String> only) {
        return new BenchSettings(quick, 3, Path.of("w"), null, Path.of("h"), only, List.of());
    }

    @Test
    void anUnknownPartIsRefusedAndTheKnownOnesNamed() {
        assertThatThrownBy(() -> settings(false, Set.of("scan", "scna")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'scna'").hasMessageContaining("cold-start");
    }

    @Test
    void noPartNamedRunsThemAll() {
        assertThat(BenchSettings.SECTIONS).allMatch(settings(false, Set.of())::runs);
        BenchSettings onlyScan = settings(false, Set.of("scan"));
        assertThat(onlyScan.runs("scan")).isTrue();
        assertThat(onlyScan.runs("hash")).isFalse();
    }

    @Test
    void commandLine_repeatsTheRunWithItsPartsInTheBenchsOrder() {
        assertThat(settings(true, Set.of("warm", "scan")).commandLine()).isEqualTo("./batchpipe bench --quick --runs 3 --only scan,warm");
        assertThat(settings(false, Set.of()).commandLine()).isEqualTo("./batchpipe bench --runs 3");
    }

    @Test
    void noShapeNamedMeasuresEveryShapeAndANamedSetIsRepeatedInTheCommand() {
        assertThat(settings(false, Set.of()).shapes()).containsExactly(Shape.values());
        BenchSettings longOnly = new BenchSettings(true, 5, Path.of("w"), null, Path.of("h"), Set.of("scan"),
                List.of(Shape.LONG_VALUES, Shape.LONG_VALUES));
        assertThat(longOnly.shapes()).containsExactly(Shape.LONG_VALUES);
        assertThat(longOnly.commandLine()).isEqualTo("./batchpipe bench --quick --runs 5 --only scan --shapes long-values");
    }
}
