package batchpipe.aggregator.priming;

import batchpipe.common.priming.Priming;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AggregatorPrimingTest {

    @Test
    void prime_runsEveryWarmUpStepWithoutAFailure() {
        Priming.Report report = AggregatorPriming.hooks().build().prime();

        assertThat(report.failed()).isEmpty();
        assertThat(report.millis()).isNotEmpty();
    }
}
