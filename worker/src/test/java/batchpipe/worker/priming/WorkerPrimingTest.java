package batchpipe.worker.priming;

import batchpipe.common.priming.Priming;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WorkerPrimingTest {

    @Test
    void prime_runsEveryWarmUpStepWithoutAFailure() {
        Priming.Report report = WorkerPriming.hooks().build().prime();

        assertThat(report.failed()).isEmpty();
        assertThat(report.millis()).isNotEmpty();
    }
}
