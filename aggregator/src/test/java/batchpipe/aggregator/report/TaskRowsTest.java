package batchpipe.aggregator.report;

import batchpipe.aggregator.TaskRecords;
import batchpipe.aggregator.cost.ItemSize;
import batchpipe.common.run.TaskRecord;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TaskRowsTest {

    @Test
    void writeTo_givesRendersBytesEvenWhenOnlyTheLastRecordHoldsAnAttribute() throws Exception {
        TaskRecord plain = TaskRecords.task("a", "hash").hashed(10, 10).build();
        TaskRecord formula = TaskRecords.task("b", "scan").object("bkt", "=HYPERLINK(\"x\")").scanned(5, 0, 100, 50)
                .countBy("level", Map.of("INFO, WARN", 2L)).build();
        TaskRecord deadLettered = new TaskRecord("r1", "c", "scan", batchpipe.common.run.TaskStatus.FAILED, "gone", null, 1, 2, 1, 3,
                null, null, null, null, "dead-letter recorder", new batchpipe.common.run.DeadLetter(2, 3), 7L);
        List<TaskRecord> tasks = List.of(plain, formula, deadLettered);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TaskRows rows = new TaskRows()) {
            for (TaskRecord t : tasks) rows.add(t.toItem(), ItemSize.of(t.toItem()));
            rows.writeTo(out);
            assertThat(rows.rows()).isEqualTo(3);
        }

        String csv = out.toString(StandardCharsets.UTF_8);
        assertThat(csv).isEqualTo(TasksCsv.render(tasks));
        assertThat(csv.lines().findFirst().orElseThrow()).contains("deadLetteredAt", "recordedBy").endsWith(",itemBytes");
    }

    @Test
    void close_deletesTheSpillAndRefusesMoreRows() {
        TaskRows rows = new TaskRows();
        TaskRecord task = TaskRecords.task("a", "hash").build();
        rows.add(task.toItem(), 1);
        rows.close();

        assertThatThrownBy(() -> rows.add(task.toItem(), 1)).hasMessageContaining("already written");
    }
}
