package batchpipe.aggregator.stats;

import batchpipe.common.json.Json;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PercentilesTest {

    private static long[] oneTo(int n) {
        return LongStream.rangeClosed(1, n).toArray();
    }

    @Test
    void nearestRank_ofOneValueIsThatValueForEveryPercentile() {
        long[] one = {42};

        assertThat(Percentiles.nearestRank(one, 0.1)).isEqualTo(42);
        assertThat(Percentiles.nearestRank(one, 50)).isEqualTo(42);
        assertThat(Percentiles.nearestRank(one, 99.9)).isEqualTo(42);
        assertThat(Percentiles.nearestRank(one, 100)).isEqualTo(42);
    }

    @Test
    void nearestRank_ofOneToTen() {
        long[] values = oneTo(10);

        // rank = ceil(p/100 x 10)
        assertThat(Percentiles.nearestRank(values, 10)).isEqualTo(1);
        assertThat(Percentiles.nearestRank(values, 11)).isEqualTo(2);
        assertThat(Percentiles.nearestRank(values, 50)).isEqualTo(5);
        assertThat(Percentiles.nearestRank(values, 90)).isEqualTo(9);
        assertThat(Percentiles.nearestRank(values, 95)).isEqualTo(10);
        assertThat(Percentiles.nearestRank(values, 100)).isEqualTo(10);
    }

    @Test
    void nearestRank_withTiesReturnsTheTiedValue() {
        long[] values = {1, 2, 2, 2, 3};

        assertThat(Percentiles.nearestRank(values, 20)).isEqualTo(1);  // rank 1
        assertThat(Percentiles.nearestRank(values, 21)).isEqualTo(2);  // rank ceil(1.05) = 2
        assertThat(Percentiles.nearestRank(values, 50)).isEqualTo(2);  // rank ceil(2.5) = 3
        assertThat(Percentiles.nearestRank(values, 80)).isEqualTo(2);  // rank 4
        assertThat(Percentiles.nearestRank(values, 81)).isEqualTo(3);  // rank ceil(4.05) = 5
    }

    @Test
    void nearestRank_p999WithTenValuesIsTheMaximum() {
        // ceil(0.999 x 10) = ceil(9.99) = 10
        assertThat(Percentiles.nearestRank(oneTo(10), 99.9)).isEqualTo(10);
    }

    @Test
    void nearestRank_p999WithNineHundredNinetyNineValuesIsTheMaximum() {
        // ceil(0.999 x 999) = ceil(998.001) = 999
        assertThat(Percentiles.nearestRank(oneTo(999), 99.9)).isEqualTo(999);
    }

    @Test
    void nearestRank_p999WithOneThousandValuesIsTheSecondLargest() {
        // 0.999 x 1000 = 999 exactly: rank 999, not 1000 (no rounding up by a hair)
        assertThat(Percentiles.nearestRank(oneTo(1000), 99.9)).isEqualTo(999);
    }

    @Test
    void nearestRank_p999WithOneThousandAndOneValuesIsTheThousandth() {
        // ceil(0.999 x 1001) = ceil(999.999) = 1000
        assertThat(Percentiles.nearestRank(oneTo(1001), 99.9)).isEqualTo(1000);
    }

    @Test
    void nearestRank_p99OfOneHundredIsTheNinetyNinth() {
        assertThat(Percentiles.nearestRank(oneTo(100), 99)).isEqualTo(99);
        assertThat(Percentiles.nearestRank(oneTo(101), 99)).isEqualTo(100); // ceil(99.99)
    }

    @Test
    void nearestRank_readsTheSortedArrayNotTheValues() {
        long[] sorted = {10, 20, 30, 40};

        assertThat(Percentiles.nearestRank(sorted, 50)).isEqualTo(20);
        assertThat(Percentiles.nearestRank(sorted, 75)).isEqualTo(30);
        assertThat(Percentiles.nearestRank(sorted, 76)).isEqualTo(40);
    }

    @Test
    void nearestRank_rejectsNoValuesAndPercentilesOutsideZeroToHundred() {
        assertThatThrownBy(() -> Percentiles.nearestRank(new long[0], 50))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("no values");
        assertThatThrownBy(() -> Percentiles.nearestRank(oneTo(3), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("percentile must be in (0, 100], got 0.0");
        assertThatThrownBy(() -> Percentiles.nearestRank(oneTo(3), 100.1))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("percentile must be in (0, 100], got 100.1");
    }

    @Test
    void summarize_ofNoValuesHasOnlyAZeroCount() {
        Percentiles.Summary none = Percentiles.summarize(new long[0]);

        assertThat(none).isEqualTo(new Percentiles.Summary(0, List.of(), null, null));
        assertThat(none.p50()).isNull();
        assertThat(Json.write(none)).isEqualTo("{\"count\":0}");
    }

    @Test
    void summarize_givesCountPercentilesMaxAndMeanInOrder() {
        long[] values = {500, 2000, 1000, 2000};

        Percentiles.Summary summary = Percentiles.summarize(values);

        assertThat(summary).isEqualTo(new Percentiles.Summary(4, List.of(1000L, 2000L, 2000L, 2000L, 2000L), 2000L, 1375.0));
        assertThat(Json.write(summary))
                .isEqualTo("{\"count\":4,\"p50\":1000,\"p90\":2000,\"p95\":2000,\"p99\":2000,\"p99.9\":2000,\"max\":2000,\"mean\":1375}");
        assertThat(values).containsExactly(500, 2000, 1000, 2000);
    }

    @Test
    void summarize_roundsTheMeanToOneDecimal() {
        assertThat(Percentiles.summarize(new long[]{1, 1, 2}).mean()).isEqualTo(1.3);   // 1.333...
        assertThat(Percentiles.summarize(new long[]{1, 2, 2}).mean()).isEqualTo(1.7);   // 1.666...
        assertThat(Percentiles.summarize(new long[]{1, 2}).mean()).isEqualTo(1.5);
    }

    @Test
    void summarize_ofOneToOneThousand() {
        Percentiles.Summary summary = Percentiles.summarize(oneTo(1000));

        assertThat(summary.reported()).containsExactly(500L, 900L, 950L, 990L, 999L);
        assertThat(summary.at("p99.9")).isEqualTo(999L);
        assertThat(summary.max()).isEqualTo(1000L);
        assertThat(summary.mean()).isEqualTo(500.5);
    }

    @Test
    void distribution_ofOneValueIsThatValueAtEveryPoint() {
        assertThat(Percentiles.distribution(new long[]{7})).hasSize(101).containsOnly(7L);
    }

    @Test
    void distribution_ofOneToTwoHundredIsTheNearestRankAtEachPoint() {
        List<Long> d = Percentiles.distribution(oneTo(200));

        assertThat(Percentiles.distributionPoints()).hasSize(101).startsWith(1.0, 2.0).endsWith(99.0, 99.9, 100.0);
        assertThat(d.get(0)).isEqualTo(2);      // p1: ceil(2) = rank 2
        assertThat(d.get(49)).isEqualTo(100);   // p50
        assertThat(d.get(99)).isEqualTo(200);   // p99.9: ceil(199.8) = 200
        assertThat(d.get(98)).isEqualTo(198);   // p99
        assertThat(d.get(100)).isEqualTo(200);  // p100
    }

    @Test
    void distribution_ofNoValuesIsEmpty() {
        assertThat(Percentiles.distribution(new long[0])).isEmpty();
    }

    @Test
    void label_writesWholePercentilesWithoutDecimals() {
        assertThat(Percentiles.label(50)).isEqualTo("p50");
        assertThat(Percentiles.label(99.9)).isEqualTo("p99.9");
    }
}
