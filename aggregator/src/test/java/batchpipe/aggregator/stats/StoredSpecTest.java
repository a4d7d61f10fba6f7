package batchpipe.aggregator.stats;

import batchpipe.aggregator.TaskRecords;
import batchpipe.common.run.RunRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StoredSpecTest {
    private static RunRecord run(String spec) {
        return TaskRecords.run("demo", 1_000, 2, 2, spec);
    }

    @Test
    void readsTheToleranceAndTheScanSourcesOfTheStoredSpec() {
        assertThat(StoredSpec.of(run("{\"toleratedFailurePercent\":25,\"scan\":[{\"bucket\":\"logs\"},{\"bucket\":\"more-logs\"}]}")))
                .isEqualTo(new StoredSpec(25, 2));
        assertThat(StoredSpec.of(run("{\"hash\":{\"batches\":2,\"batchSize\":1,\"cost\":4,\"prefix\":\"password_\"}}")))
                .isEqualTo(new StoredSpec(null, 0));
    }

    @Test
    void readsASpecStoredUnderOlderRules() {
        // a label with a control character, as the producer stored it before labels had to be printable
        assertThat(StoredSpec.of(run("{\"label\":\"red \\u001b[31m\",\"toleratedFailurePercent\":10,\"scan\":[{\"bucket\":\"logs\"}]}")))
                .isEqualTo(new StoredSpec(10, 1));
    }

    @Test
    void anUnreadableSpecGivesNeither() {
        assertThat(StoredSpec.of(null)).isEqualTo(StoredSpec.NONE);
        assertThat(StoredSpec.of(run(null))).isEqualTo(StoredSpec.NONE);
        assertThat(StoredSpec.of(run("not json"))).isEqualTo(StoredSpec.NONE);
        assertThat(StoredSpec.of(run("{\"toleratedFailurePercent\":\"25\"}"))).isEqualTo(StoredSpec.NONE);
    }
}
