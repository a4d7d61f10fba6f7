package batchpipe.local.sweep;

import batchpipe.common.run.HashOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.spec.RunSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LocalSweepTest {
    @Test
    void instancesAtOnce_areThoseTheCoresCanServeAtTheirWholeShare() {
        assertThat(LocalSweep.instancesAtOnce(2, 884 / 1769.0)).isEqualTo(4);
        // 885 MB is a hair over half a vCPU: four instances would ask for 2.001 cores of 2.
        assertThat(LocalSweep.instancesAtOnce(2, 885 / 1769.0)).isEqualTo(3);
        assertThat(LocalSweep.instancesAtOnce(2, 1.0)).isEqualTo(2);
        assertThat(LocalSweep.instancesAtOnce(2, 2654 / 1769.0)).isEqualTo(1);
        assertThat(LocalSweep.instancesAtOnce(2, 2.0)).isEqualTo(1);
    }

    @Test
    void hashRates_areHashesOverDurationOfEachDoneHashTask() {
        List<TaskRecord> tasks = List.of(
                task("hash-000001", TaskStatus.DONE, 2_000, new HashOutcome(10, 10)),
                task("hash-000002", TaskStatus.FAILED, 1_000, new HashOutcome(10, 10)),
                task("scan-a", TaskStatus.DONE, 500, null),
                task("hash-000003", TaskStatus.DONE, 4_000, new HashOutcome(10, 10)));
        assertThat(LocalSweep.hashRates(tasks)).containsExactly(5.0, 2.5);
    }

    @Test
    void configurationKey_namesArchitectureMemoryAndRepeatsBeyondTheFirst() {
        assertThat(new LocalSweep.Configuration("x86_64", 1769, 1).key()).isEqualTo("x86_64-1769");
        assertThat(new LocalSweep.Configuration("arm64", 885, 2).key()).isEqualTo("arm64-885#2");
    }

    @Test
    void configurationRunSpec_isTheSweepsSpecWithTheRunsIdTheSweepIdAndItsKeyInTheLabel() {
        RunSpec sweepSpec = new RunSpec(null, "hash-heavy", List.of(new RunSpec.ScanSource("logs", "app/", null, 10L, null, null)),
                new RunSpec.HashSpec(3, 2, 4, null), 5);

        RunSpec run = new LocalSweep.Configuration("arm64", 885, 2).runSpec(sweepSpec, "sweep-1");

        assertThat(run).isEqualTo(new RunSpec("sweep-1-arm64-885-r2", "hash-heavy arm64-885#2", sweepSpec.scan(), sweepSpec.hash(), 5,
                "sweep-1"));
        assertThat(new LocalSweep.Configuration("x86_64", 1769, 1).runSpec(sweepSpec.withLabel(null), "sweep-1").label())
                .isEqualTo("sweep x86_64-1769");
    }

    private static TaskRecord task(String taskId, TaskStatus status, long durationMs, HashOutcome hash) {
        return TaskRecord.builder().runId("r1").taskId(taskId).kind(hash == null ? "scan" : "hash").status(status).startedAt(1_000)
                .finishedAt(1_000 + durationMs).attempt(1).hash(hash).build();
    }
}
