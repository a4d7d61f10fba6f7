package batchpipe.common.run;

import batchpipe.common.spec.RunSpec;
import batchpipe.common.spec.RunSpecParser;
import batchpipe.common.table.DynamoDbJson;
import batchpipe.common.task.ScanMatch;
import batchpipe.common.task.TaskLimits;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Items that the code before the typed records wrote (stored-items.json: a run record, hash and scan
 * tasks exported from a local run, a rejected task, a dead-letter record and an approximately counted
 * scan, in the shapes of that code) read back into records and write out as the same items, so runs
 * stored before stay readable and records written now look like those before.
 */
class StoredRecordsTest {

    private static List<Map<String, AttributeValue>> stored() throws IOException {
        try (InputStream in = StoredRecordsTest.class.getResourceAsStream("/stored-items.json")) {
            return DynamoDbJson.items(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void everyStoredTaskItemReadsAndWritesBackAsTheSameItem() throws IOException {
        List<Map<String, AttributeValue>> tasks = stored().stream().filter(i -> i.get("sk").s().startsWith("task#")).toList();
        assertThat(tasks).hasSize(6);
        for (Map<String, AttributeValue> item : tasks) {
            assertThat(comparable(TaskRecord.fromItem(item).toItem())).as(item.get("sk").s()).isEqualTo(comparable(item));
        }
    }

    @Test
    void theStoredRunItemReadsAndWritesBackAsTheSameItem() throws IOException {
        Map<String, AttributeValue> item = stored().stream().filter(i -> i.get("sk").s().equals("run")).findFirst().orElseThrow();
        RunRecord run = RunRecord.fromItem(item);
        assertThat(run.planned()).isEqualTo(new Planned(4, 3, 7));
        assertThat(run.completionSentBy()).isNotNull();
        assertThat(comparable(run.toItem())).isEqualTo(comparable(item));
    }

    @Test
    void theStoredRunsSpec_asTheProducerStoredTheEventThen_readsIntoTheTypedSpec() throws IOException {
        Map<String, AttributeValue> item = stored().stream().filter(i -> i.get("sk").s().equals("run")).findFirst().orElseThrow();
        String stored = RunRecord.fromItem(item).spec();

        RunSpec spec = RunSpec.fromJson(stored);

        assertThat(spec).isEqualTo(new RunSpec("golden-1", "golden <b>run</b>", List.of(new RunSpec.ScanSource("batchpipe-databucket", "logs/",
                ".zst", null, List.of("level", "http.status"), new ScanMatch.Contains("timeout"))), new RunSpec.HashSpec(3, 5, 6, null), 5));
        // as the planner reads it again to go on planning
        assertThat(new RunSpecParser(TaskLimits.defaults()).parse(stored)).isEqualTo(spec);
    }

    @Test
    void aRunRecordBeingPlannedKeepsItsPartitionsAndCursorAndStoresNoShardCountYet() {
        RunRecord planning = new RunRecord("r1", "nightly", "{}", new Planned(0, 0, 0), 0, 5, "running", 0, null, null, List.of(),
                null, null, null, 12, new PlanCursor(3, 1, "logs/k\u00e9y", 17, 2_017, 0, 4, Map.of(0, "logs/z")));

        Map<String, AttributeValue> item = planning.toItem();

        assertThat(item).doesNotContainKey("shards").containsEntry("partitions", AttributeValue.fromN("12"));
        assertThat(RunRecord.fromItem(item)).isEqualTo(planning);
        assertThat(RunRecord.fromItem(item).layout()).isEqualTo(batchpipe.common.table.RunPartitions.of("r1", 12));
    }

    @Test
    void aRunStoredBeforeSweepsReadsWithoutASweepId_andASweepsRunKeepsItsOwn() throws IOException {
        Map<String, AttributeValue> item = stored().stream().filter(i -> i.get("sk").s().equals("run")).findFirst().orElseThrow();
        RunRecord before = RunRecord.fromItem(item);
        assertThat(item).doesNotContainKey("sweepId");
        assertThat(before.sweepId()).isNull();

        RunRecord swept = RunRecord.planned("sweep-1-x86_64-885", "l", "{}", new Planned(0, 1, 1), 4, 1_000, 1, "sweep-1");
        assertThat(swept.toItem().get("sweepId").s()).isEqualTo("sweep-1");
        assertThat(RunRecord.fromItem(swept.toItem()).sweepId()).isEqualTo("sweep-1");
    }

    @Test
    void storedFieldsReadIntoTheirTypedParts() throws IOException {
        Map<String, TaskRecord> bySk = new TreeMap<>();
        for (Map<String, AttributeValue> item : stored()) {
            if (item.get("sk").s().startsWith("task#")) bySk.put(item.get("sk").s(), TaskRecord.fromItem(item));
        }
        TaskRecord hash = bySk.get("task#hash-000002");
        assertThat(hash.status()).isEqualTo(TaskStatus.DONE);
        assertThat(hash.hash()).isEqualTo(new HashOutcome(5, 6));
        assertThat(hash.scan()).isNull();
        assertThat(hash.invocation().cold()).isTrue();
        assertThat(hash.invocation().initMs()).isEqualTo(2L);

        TaskRecord rejected = bySk.get("task#scan-cbced932416764e5");
        assertThat(rejected.status()).isEqualTo(TaskStatus.REJECTED);
        assertThat(rejected.scan()).isNull();
        assertThat(rejected.reason()).contains("zstd data is corrupt");

        TaskRecord deadLettered = bySk.get("task#scan-deadletter");
        assertThat(deadLettered.invocation()).isEqualTo(WorkerInvocation.NONE);
        assertThat(deadLettered.writes()).isNull();
        assertThat(deadLettered.deadLetter()).isEqualTo(new DeadLetter(1796137600010L, 5));
        assertThat(deadLettered.recordedBy()).isEqualTo("dead-letter recorder");

        ScanOutcome approximate = bySk.get("task#scan-approximate").scan();
        assertThat(approximate.countByAccuracy()).containsEntry("traceId", new CountAccuracy(false, 1465, false))
                .containsEntry("level", CountAccuracy.EXACT);
        assertThat(bySk.get("task#scan-01278f030195dddc").scan().countByOther()).isNotEmpty();
    }

    @Test
    void anAttributeOfTheWrongTypeIsAnErrorNamingTheTaskAndTheAttribute() throws IOException {
        Map<String, AttributeValue> item = new java.util.HashMap<>(stored().get(1));
        item.put("durationMs", AttributeValue.fromS("slow"));
        assertThatThrownBy(() -> TaskRecord.fromItem(item))
                .hasMessageContaining(item.get("sk").s()).hasMessageContaining("'durationMs' is not a number");
        item.put("durationMs", AttributeValue.fromN("1"));
        item.put("status", AttributeValue.fromS("finished"));
        assertThatThrownBy(() -> TaskRecord.fromItem(item)).hasMessageContaining("unknown task status 'finished'");
    }

    /**
     * An item with its numbers compared by value: DynamoDB (and dynalite) give numbers back normalised
     * ("1.0" comes back as "1"), so a stored item and a written one differ only in that.
     */
    private static Map<String, Object> comparable(Map<String, AttributeValue> item) {
        Map<String, Object> values = new TreeMap<>();
        item.forEach((name, value) -> values.put(name, comparable(value)));
        return values;
    }

    private static Object comparable(AttributeValue value) {
        if (value.n() != null) return new BigDecimal(value.n()).stripTrailingZeros();
        if (value.hasM()) return comparable(value.m());
        if (value.hasL()) return value.l().stream().map(StoredRecordsTest::comparable).toList();
        if (value.hasSs()) return new java.util.TreeSet<>(value.ss());
        if (value.s() != null) return value.s();
        if (value.bool() != null) return value.bool();
        return value;
    }
}
