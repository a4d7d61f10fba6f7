package batchpipe.common.table;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunPartitionsTest {

    @Test
    void legacyLayout_keepsEveryItemOnTheRunsOwnKey() {
        RunPartitions legacy = RunPartitions.of("r1", null);

        assertThat(legacy.isLegacy()).isTrue();
        assertThat(legacy.taskRecordKey("scan-a")).isEqualTo(TableKeys.key("r1", "task#scan-a"));
        assertThat(legacy.progressKey(7)).isEqualTo(TableKeys.key("r1", "progress#007"));
        assertThat(legacy.invocationKey("req-1")).isEqualTo(TableKeys.key("r1", "invocation#req-1"));
        assertThat(legacy.itemPks()).containsExactly("run#r1");
        assertThat(legacy.allPks()).containsExactly("run#r1");
    }

    @Test
    void partitionedLayout_putsATasksItemsTogetherOnTheKeyItsIdHashesTo() {
        RunPartitions layout = RunPartitions.of("r1", 4);

        String pk = layout.taskPk("scan-a6771c54ba0adad2");
        assertThat(pk).matches("run#r1#[0-3]");
        assertThat(layout.taskRecordKey("scan-a6771c54ba0adad2").get(TableKeys.PK)).isEqualTo(AttributeValue.fromS(pk));
        assertThat(layout.attemptKey("scan-a6771c54ba0adad2").get(TableKeys.PK)).isEqualTo(AttributeValue.fromS(pk));
        assertThat(layout.attemptKey("scan-a6771c54ba0adad2").get(TableKeys.SK)).isEqualTo(AttributeValue.fromS("attempt#scan-a6771c54ba0adad2"));
        assertThat(layout.progressKey(6)).isEqualTo(Map.of(TableKeys.PK, AttributeValue.fromS("run#r1#2"), TableKeys.SK, AttributeValue.fromS("progress#006")));
        assertThat(layout.itemPks()).containsExactly("run#r1#0", "run#r1#1", "run#r1#2", "run#r1#3");
        assertThat(layout.allPks()).containsExactly("run#r1", "run#r1#0", "run#r1#1", "run#r1#2", "run#r1#3");
    }

    @Test
    void partitionOf_isStableAndReachesEveryPartition() {
        RunPartitions layout = RunPartitions.of("r1", 8);
        Set<Integer> seen = new HashSet<>();
        for (int batch = 1; batch <= 200; batch++) {
            String id = String.format(Locale.ROOT, "hash-%06d", batch);
            int k = layout.partitionOf(id);
            assertThat(layout.partitionOf(id)).isEqualTo(k);
            seen.add(k);
        }
        assertThat(seen).hasSize(8);
    }

    @Test
    void partitionCount_outsideItsRangeIsRefusedNamingTheLimit() {
        assertThatThrownBy(() -> RunPartitions.of("r1", RunPartitions.MAX + 1))
                .hasMessage("a run has 1 to 1000 partitions (0 for the single-key layout), got 1001");
    }

    @Test
    void pksFor_readsTheRunRecordFromItsOwnKeyAndTasksFromTheItemPartitions() {
        RunPartitions layout = RunPartitions.of("r1", 2);

        assertThat(RunPartition.pksFor(layout, TableKeys.RUN_SK)).containsExactly("run#r1");
        assertThat(RunPartition.pksFor(layout, TableKeys.TASK_PREFIX)).containsExactly("run#r1#0", "run#r1#1");
        assertThat(RunPartition.pksFor(layout, TableKeys.INVOCATION_PREFIX)).containsExactly("run#r1#0", "run#r1#1");
        assertThat(RunPartition.pksFor(layout, null)).isEqualTo(List.of("run#r1", "run#r1#0", "run#r1#1"));
    }
}
