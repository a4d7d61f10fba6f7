package batchpipe.aggregator.cost;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Tier boundaries of the monthly projection, priced by the default table. */
class VolumeTiersTest {
    private static final List<PriceTable.Tier> X86 = PriceTable.defaults().lambdaTiers("x86_64");
    private static final List<PriceTable.Tier> ARM = PriceTable.defaults().lambdaTiers("arm64");

    private static BigDecimal gb(String value) {
        return new BigDecimal(value);
    }

    @Test
    void split_exactlySixBillionX86GbSecondsStayInTheFirstTier() {
        List<VolumeTiers.TierUse> uses = VolumeTiers.split(gb("6000000000"), X86);

        assertThat(uses).extracting(VolumeTiers.TierUse::gbSeconds).map(BigDecimal::toPlainString)
                .containsExactly("6000000000", "0", "0");
        // 6e9 x 0.0000166667
        assertThat(VolumeTiers.cost(gb("6000000000"), X86)).isEqualByComparingTo("100000.2");
    }

    @Test
    void split_oneGbSecondAboveSixBillionIsPricedInTheSecondTier() {
        assertThat(VolumeTiers.split(gb("6000000001"), X86)).extracting(VolumeTiers.TierUse::gbSeconds).map(BigDecimal::toPlainString)
                .containsExactly("6000000000", "1", "0");
        // 100,000.2 + 1 x 0.000015
        assertThat(VolumeTiers.cost(gb("6000000001"), X86)).isEqualByComparingTo("100000.200015");
    }

    @Test
    void cost_ofFifteenAndTwentyBillionX86GbSeconds() {
        // 100,000.2 + 9e9 x 0.000015 = 235,000.2
        assertThat(VolumeTiers.cost(gb("15000000000"), X86)).isEqualByComparingTo("235000.2");
        // + 5e9 x 0.0000133334 = 66,667
        assertThat(VolumeTiers.cost(gb("20000000000"), X86)).isEqualByComparingTo("301667.2");
    }

    @Test
    void cost_ofArm64AtItsOwnBoundaries() {
        // 7.5e9 x 0.0000133334
        assertThat(VolumeTiers.cost(gb("7500000000"), ARM)).isEqualByComparingTo("100000.5");
        // + 11.25e9 x 0.0000120001 = 135,001.125
        assertThat(VolumeTiers.cost(gb("18750000000"), ARM)).isEqualByComparingTo("235001.625");
        // + 1.25e9 x 0.0000106667 = 13,333.375
        assertThat(VolumeTiers.cost(gb("20000000000"), ARM)).isEqualByComparingTo("248335");
    }

    @Test
    void split_ofNothingCostsNothingInEveryTier() {
        List<VolumeTiers.TierUse> uses = VolumeTiers.split(BigDecimal.ZERO, X86);

        assertThat(uses).hasSize(3).allSatisfy(u -> assertThat(u.cost()).isEqualByComparingTo("0"));
        assertThat(uses).extracting(VolumeTiers.TierUse::from).map(BigDecimal::toPlainString)
                .containsExactly("0", "6000000000", "15000000000");
    }
}
