package batchpipe.common.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A task record built by name: what is not said is absent, the duration follows the times, and a record must say whose it is. */
class TaskRecordBuilderTest {
    @Test
    void build_leavesWhatIsNotSetAbsent_andTakesTheDurationFromTheTimes() {
        TaskRecord record = TaskRecord.builder().runId("r1").taskId("hash-000001").kind("hash").status(TaskStatus.DONE)
                .startedAt(1_000).finishedAt(1_750).hash(new HashOutcome(3, 4)).build();

        assertThat(record.durationMs()).isEqualTo(750);
        assertThat(record.invocation()).isEqualTo(WorkerInvocation.NONE);
        assertThat(record.reason()).isNull();
        assertThat(record.enqueuedAt()).isNull();
        assertThat(record.sentAt()).isNull();
        assertThat(record.progressShard()).isNull();
        assertThat(record.scan()).isNull();
    }

    @Test
    void build_keepsADurationGivenOutright_asAStoredRecordSaysIt() {
        TaskRecord record = TaskRecord.builder().runId("r1").taskId("t").status(TaskStatus.DONE).startedAt(1_000).finishedAt(1_750)
                .durationMs(700).build();

        assertThat(record.durationMs()).isEqualTo(700);
    }

    @Test
    void toBuilder_rebuildsTheSameRecord_andChangesOnlyWhatIsSet() {
        TaskRecord record = TaskRecord.builder().runId("r1").taskId("scan-a").kind("scan").status(TaskStatus.FAILED).reason("boom")
                .enqueuedAt(10L).startedAt(20).finishedAt(35).durationMs(14).attempt(2)
                .invocation(new WorkerInvocation("req-1", "worker", "1", 1769, "x86_64", 2, 1.0, true, 250L))
                .writes(new WriteTimes(2, 3.5, 2.0)).recordedBy("someone").deadLetter(new DeadLetter(40, 3)).sentAt(12L).progressShard(5)
                .build();

        assertThat(record.toBuilder().build()).isEqualTo(record);
        assertThat(record.withProgressShard(null)).isEqualTo(record.toBuilder().progressShard(null).build())
                .extracting(TaskRecord::progressShard).isNull();
        assertThat(record.withWrites(null).writes()).isNull();
        assertThat(record.withWrites(null).reason()).isEqualTo("boom");
    }

    @Test
    void build_refusesARecordThatDoesNotSayItsRunTaskOrStatus() {
        assertThatThrownBy(() -> TaskRecord.builder().runId("r1").taskId("t").build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("runId, taskId and status").hasMessageContaining("status null");
        assertThatThrownBy(() -> TaskRecord.builder().taskId("t").status(TaskStatus.DONE).build())
                .hasMessageContaining("runId null");
    }
}
