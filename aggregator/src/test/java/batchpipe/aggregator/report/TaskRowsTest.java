package batchpipe.aggregator.report;

import batchpipe.aggregator.TaskRecords;
import batchpipe.aggregator.cost.ItemSize;
import batchpipe.common.run.TaskRecord;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TaskRowsTest {

    @Test
    void writeTo_givesRendersBytesEvenWhenOnlyTheLastRecordHoldsAnAttribute() throws Exception {
        TaskRecord plain = TaskRecords.task("a", "hash").hashed(10, 10).build();
        TaskRecord formula = TaskRecords.task("b", "scan").object("bkt", "=HYPERLINK(\"x\")").scanned(5, 0, 100, 50)
                .countBy("level", Map.of("INFO, WARN", 2L)).build();
        TaskRecord deadLettered = TaskRecord.builder().runId("r1").taskId("c").kind("scan").status(batchpipe.common.run.TaskStatus.FAILED)
                .reason("gone").startedAt(1).finishedAt(2).attempt(3).recordedBy("dead-letter recorder")
                .deadLetter(new batchpipe.common.run.DeadLetter(2, 3)).sentAt(7L).build();
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
        assertThat(rows.spillFiles()).allMatch(Files::exists);

        rows.close();

        assertThat(rows.spillFiles()).hasSize(2).noneMatch(Files::exists);
        assertThatThrownBy(() -> rows.add(task.toItem(), 1)).hasMessageContaining("already written");
    }

    @Test
    void rowsNeverClosedAreDeletedWhenTheJvmExits() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), UnclosedRows.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> printed = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isZero();

        // the child saw its two files on disk just before it exited without closing them
        assertThat(printed).hasSize(2).allMatch(line -> line.startsWith("present "));
        assertThat(printed).map(line -> Path.of(line.substring("present ".length()))).noneMatch(Files::exists);
    }

    /** A process that spills rows, says where, and exits without closing them (a CLI that returns early, a test). */
    static final class UnclosedRows {
        public static void main(String[] args) {
            TaskRows rows = new TaskRows();
            rows.add(TaskRecords.task("a", "hash").build().toItem(), 1);
            for (Path spill : rows.spillFiles()) System.out.println((Files.exists(spill) ? "present " : "missing ") + spill);
            System.out.flush();
            // rows stays reachable until here, so only the exit can delete its files
            java.lang.ref.Reference.reachabilityFence(rows);
        }
    }
}
