package batchpipe.producer.plan;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionSizingTest {

    @Test
    void aSmallRunWhoseWholeVolumeIsUnderOneSecondOfAPartitionGetsOneKey() {
        PartitionSizing.Load load = new PartitionSizing.Load(50, true, 0, 0, 0);

        assertThat(load.volumeWcu()).isEqualTo(50 * 13);
        assertThat(PartitionSizing.partitions(load, 5)).isEqualTo(1);
        assertThat(PartitionSizing.settled(load, 5)).isFalse();
    }

    @Test
    void aLargeScanRunGetsWhatFiveWorkersPeakRateNeeds() {
        // 5 workers x 250 tasks/s x (3 + 10) WCU = 16,250 WCU/s: 17 partitions of 1,000
        PartitionSizing.Load load = new PartitionSizing.Load(100_000, true, 0, 0, 0);

        assertThat(PartitionSizing.forRate(load, 5)).isEqualTo(17);
        assertThat(PartitionSizing.partitions(load, 5)).isEqualTo(17);
        assertThat(PartitionSizing.settled(load, 5)).isTrue();
    }

    @Test
    void thePartitionCountSettlesOnceTheVolumeAsksForTheRateAndMoreTasksChangeNothing() {
        PartitionSizing.Load justSettled = new PartitionSizing.Load(1_308, true, 0, 0, 0); // 17,004 WCU
        PartitionSizing.Load larger = new PartitionSizing.Load(1_000_000, true, 0, 0, 0);

        assertThat(PartitionSizing.settled(justSettled, 5)).isTrue();
        assertThat(PartitionSizing.partitions(justSettled, 5)).isEqualTo(PartitionSizing.partitions(larger, 5));
    }

    @Test
    void cheapHashesAtManyWorkersNeedTheMostPartitionsAndTheCountIsCapped() {
        // cost 4: 6 vCPUs x 1,000 / (63 / 64) ms = 6,095 hashes/s per worker: 60.95 tasks of 100 a second, x 111 WCU
        PartitionSizing.Load load = new PartitionSizing.Load(0, false, 10_000, 1_000_000, 4);

        assertThat(PartitionSizing.forRate(load, 5)).isEqualTo(34);
        assertThat(PartitionSizing.forRate(load, 1_000)).isEqualTo(1_000);
    }

    @Test
    void hashTasksOfOnePasswordAreBoundByTheirDynamoDbCallsNotByBcrypt() {
        // 6,095 one-hash tasks a second by bcrypt, but at most 250 by their calls: 250 x (1 + 10 + 1) = 3,000 WCU/s
        PartitionSizing.Load load = new PartitionSizing.Load(4_000, true, 96_000, 96_000, 4);

        assertThat(load.peakWcuPerInvocation()).isEqualTo(3_250.0); // the scans' 250 x 13 is the heavier
        assertThat(PartitionSizing.forRate(load, 8)).isEqualTo(26);
    }

    @Test
    void dearHashesNeedFewPartitions() {
        // cost 12: 6 x 1,000 / 252 ms = 24 hashes/s per worker
        PartitionSizing.Load load = new PartitionSizing.Load(0, false, 1_000, 100_000, 12);

        assertThat(PartitionSizing.forRate(load, 5)).isEqualTo(1);
    }
}
