package batchpipe.producer.priming;

import batchpipe.common.priming.Priming;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProducerPrimingTest {

    @Test
    void prime_runsEveryWarmUpStepWithoutAFailure() {
        Priming.Report report = ProducerPriming.hooks().build().prime();

        assertThat(report.failed()).isEmpty();
        assertThat(report.millis()).isNotEmpty();
    }
}
