package batchpipe.report;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DisplayTest {

    @Test
    void significant_roundsToTheGivenFiguresWithoutExponentOrTrailingZeros() {
        assertThat(Display.significant(new BigDecimal("0.001320981328"), 4)).isEqualTo("0.001321");
        assertThat(Display.significant(new BigDecimal("0.000005850012"), 4)).isEqualTo("0.00000585");
        assertThat(Display.significant(new BigDecimal("21.405634744889"), 4)).isEqualTo("21.41");
        assertThat(Display.significant(new BigDecimal("1.5000"), 4)).isEqualTo("1.5");
        assertThat(Display.significant(BigDecimal.ZERO, 4)).isEqualTo("0");
        assertThat(Display.significant(new BigDecimal("0.00000"), 4)).isEqualTo("0");
    }

    @Test
    void significant_groupsThousandsAndRoundsLargeFiguresToZeros() {
        assertThat(Display.significant(88982.196, 4)).isEqualTo("88,980");
        assertThat(Display.significant(1_234_567.0, 4)).isEqualTo("1,235,000");
        assertThat(Display.significant(1234.4, 4)).isEqualTo("1,234");
        assertThat(Display.significant(-1234.56, 4)).isEqualTo("-1,235");
    }

    @Test
    void significant_usesTheShortestDecimalOfADouble() {
        assertThat(Display.significant(0.1, 4)).isEqualTo("0.1");
        assertThat(Display.significant(8.902, 4)).isEqualTo("8.902");
        assertThat(Display.significant(11.8695, 4)).isEqualTo("11.87");
    }

    @Test
    void significant_roundsHalfEvenAsBigDecimalDoes() {
        assertThat(Display.significant(new BigDecimal("1.2345"), 4)).isEqualTo("1.234");
        assertThat(Display.significant(new BigDecimal("1.2355"), 4)).isEqualTo("1.236");
    }

    @Test
    void significant_showsAbsentFiguresAsADash() {
        assertThat(Display.significant((BigDecimal) null, 4)).isEqualTo("–");
        assertThat(Display.significant(Double.NaN, 4)).isEqualTo("–");
        assertThat(Display.significant(Double.POSITIVE_INFINITY, 4)).isEqualTo("–");
    }

    @Test
    void significant_refusesFewerThanOneFigure() {
        assertThatThrownBy(() -> Display.significant(BigDecimal.ONE, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1, got 0");
    }

    @Test
    void usd_isADollarSignAndFourSignificantFigures() {
        assertThat(Display.usd(new BigDecimal("0.001320981328"))).isEqualTo("$0.001321");
        assertThat(Display.usd(new BigDecimal("21.405634744889"))).isEqualTo("$21.41");
        assertThat(Display.usd(new BigDecimal("-0.5"))).isEqualTo("-$0.5");
        assertThat(Display.usd(null)).isEqualTo("–");
        assertThat(Display.amount(new BigDecimal("0.000128433808"))).isEqualTo("0.0001284");
    }

    @Test
    void gbSeconds_hasThreeDecimals() {
        assertThat(Display.gbSeconds(new BigDecimal("2.2250703125"))).isEqualTo("2.225");
        assertThat(Display.gbSeconds(new BigDecimal("163.95052734375"))).isEqualTo("163.951");
        assertThat(Display.gbSeconds(new BigDecimal("1234.5"))).isEqualTo("1,234.500");
        assertThat(Display.gbSeconds(new BigDecimal("8"))).isEqualTo("8.000");
    }

    @Test
    void count_isExactWithThousandsSeparators() {
        assertThat(Display.count(59_974)).isEqualTo("59,974");
        assertThat(Display.count(8)).isEqualTo("8");
        assertThat(Display.count(-1_000)).isEqualTo("-1,000");
        assertThat(Display.count((Long) null)).isEqualTo("–");
    }

    @Test
    void bytes_isExactWithMegabytesOrGigabytesFromOneMegabyte() {
        assertThat(Display.bytes(14_421_678)).isEqualTo("14,421,678 bytes (14.42 MB)");
        assertThat(Display.bytes(2_141_934_000L)).isEqualTo("2,141,934,000 bytes (2.142 GB)");
        assertThat(Display.bytes(999_999)).isEqualTo("999,999 bytes");
        assertThat(Display.bytes(1)).isEqualTo("1 byte");
    }

    @Test
    void duration_isInMillisecondsBelowASecondAndInSecondsFromThere() {
        assertThat(Display.duration(131.0)).isEqualTo("131 ms");
        assertThat(Display.duration(0.25)).isEqualTo("0.25 ms");
        assertThat(Display.duration(999.0)).isEqualTo("999 ms");
        assertThat(Display.duration(1000.0)).isEqualTo("1 s");
        assertThat(Display.duration(12_346.0)).isEqualTo("12.35 s");
        assertThat(Display.duration(3_600_000.0)).isEqualTo("3,600 s");
        assertThat(Display.duration((Long) null)).isEqualTo("–");
        assertThat(Display.duration(Long.valueOf(55))).isEqualTo("55 ms");
    }

    @Test
    void seconds_showsAWindowGivenInSecondsTheSameWay() {
        assertThat(Display.seconds(0.674)).isEqualTo("674 ms");
        assertThat(Display.seconds(12.5)).isEqualTo("12.5 s");
        assertThat(Display.seconds(22.81234)).isEqualTo("22.81 s");
    }

    @Test
    void share_isAPercentageToFourSignificantFigures() {
        assertThat(Display.share(0.219834710744)).isEqualTo("21.98%");
        assertThat(Display.share(0.4)).isEqualTo("40%");
        assertThat(Display.share(0.0)).isEqualTo("0%");
        assertThat(Display.share(new BigDecimal("0.780165289256"))).isEqualTo("78.02%");
        assertThat(Display.percent(new BigDecimal("16.667"))).isEqualTo("16.67%");
    }

    @Test
    void rateAndRatio_areFourSignificantFigures() {
        assertThat(Display.rate(88982.196)).isEqualTo("88,980");
        assertThat(Display.rate(21.397)).isEqualTo("21.4");
        assertThat(Display.ratio(new BigDecimal("1.16527"))).isEqualTo("1.165");
    }
}
