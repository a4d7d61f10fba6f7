package batchpipe.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StatsTest {
    @Test
    void medianOfAnOddCountIsTheMiddleValueWhateverTheOrder() {
        assertThat(Stats.median(List.of(9.0, 1.0, 5.0))).isEqualTo(5.0);
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
        assertThat(Stats.median(List.of(4.0, 1.0, 3.0, 100.0))).isEqualTo(3.5);
    }

    @Test
    void oneNoisyRunDoesNotMoveTheMedian() {
        assertThat(Stats.median(List.of(2.0, 2.1, 60.0))).isEqualTo(2.1);
    }

    @Test
    void noValuesIsAnError() {
        assertThatThrownBy(() -> Stats.median(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThat(Stats.min(List.of(3.0, 0.5, 2.0))).isEqualTo(0.5);
    }

    @Test
    void numbersAreReadFromAPassListOrAPlainLine() {
        assertThat(Stats.numbers("[0.8832,0.4313,0.3283]")).containsExactly(0.8832, 0.4313, 0.3283);
        assertThat(Stats.numbers("82.2\n")).containsExactly(82.2);
    }
}
