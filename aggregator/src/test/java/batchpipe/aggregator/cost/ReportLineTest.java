package batchpipe.aggregator.cost;

import batchpipe.aggregator.cost.BilledInvocation.Start;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One test per shape of REPORT line, each with the figures of a line Lambda really printed: which part of Billed
 * Duration started the instance, and that it is part of Billed Duration, never added to it.
 */
class ReportLineTest {

    @Test
    void onDemandColdStartSinceAugust2025_initIsInsideBilledDuration() {
        // "Duration: 395.99 ms Billed Duration: 662 ms Memory Size: 512 MB Max Memory Used: 301 MB Init Duration: 265.72 ms"
        // (October 2025): 395.99 + 265.72 = 661.71, rounded up to 662.
        ReportLine line = new ReportLine("r", "worker", "x86_64", 512, 395.99, 662, 265.72, 301);

        BilledInvocation invocation = Invocations.fromReportLine(line, 3);

        assertThat(invocation.start()).isEqualTo(Start.INIT);
        assertThat(invocation.billedMs()).isEqualTo(662);
        // 662 - ceil(395.99) = 266 ms of the 662 billed started the instance
        assertThat(invocation.initBilledMs()).isEqualTo(266);
    }

    @Test
    void warmInvocation_hasNoStartShare() {
        // "Duration: 12.34 ms Billed Duration: 13 ms Memory Size: 1769 MB Max Memory Used: 150 MB"
        ReportLine line = new ReportLine("r", "worker", "arm64", 1769, 12.34, 13, null, 150);

        BilledInvocation invocation = Invocations.fromReportLine(line, 1);

        assertThat(invocation.start()).isEqualTo(Start.WARM);
        assertThat(invocation.billedMs()).isEqualTo(13);
        assertThat(invocation.initBilledMs()).isZero();
    }

    @Test
    void snapStartRestore_billedRestoreDurationIsInsideBilledDuration() {
        // "Duration: 306.34 ms Billed Duration: 610 ms Memory Size: 3009 MB Max Memory Used: 155 MB
        //  Restore Duration: 511.25 ms Billed Restore Duration: 303 ms": 306.34 + 303 = 609.34, rounded up to 610;
        // the 511.25 ms of Restore Duration are not all billed.
        ReportLine line = new ReportLine("r", "worker", "x86_64", 3009, 306.34, 610, null, 155, 511.25, 303L);

        BilledInvocation invocation = Invocations.fromReportLine(line, 1);

        assertThat(invocation.start()).isEqualTo(Start.SNAPSTART_RESTORE);
        assertThat(invocation.billedMs()).isEqualTo(610);
        assertThat(invocation.initBilledMs()).isEqualTo(303);
    }

    @Test
    void coldStartBeforeAugust2025_initWasNotBilled() {
        // A managed runtime's ZIP function before the change: Billed Duration is the invoke phase alone.
        ReportLine line = new ReportLine("r", "worker", "x86_64", 1024, 395.99, 396, 265.72, 120);

        BilledInvocation invocation = Invocations.fromReportLine(line, 1);

        assertThat(invocation.start()).isEqualTo(Start.INIT_NOT_BILLED);
        assertThat(invocation.coldStart()).isTrue();
        assertThat(invocation.billedMs()).isEqualTo(396);
        assertThat(invocation.initBilledMs()).isZero();
    }

    @Test
    void roundingOfTheSumIsToleratedByOneMillisecond() {
        // Insights prints durations to 2 decimals; the sum Lambda rounded may lie just under the printed one.
        ReportLine line = new ReportLine("r", "worker", "x86_64", 512, 100.004, 300, 199.999, null);

        assertThat(line.startShare()).isEqualTo(new ReportLine.StartShare(Start.INIT, 199));
    }
}
