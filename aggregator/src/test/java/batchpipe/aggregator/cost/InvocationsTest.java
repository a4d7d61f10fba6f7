package batchpipe.aggregator.cost;

import batchpipe.aggregator.TaskRecords;
import batchpipe.common.run.TaskRecord;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class InvocationsTest {

    private static TaskRecord task(String taskId, String requestId, long started, long finished, boolean cold, Long initMs) {
        return TaskRecords.task(taskId, "scan").times(null, started, finished).invocation(requestId, "worker").platform("arm64", 1769)
                .cold(cold, initMs).build();
    }

    @Test
    void of_withoutReportLinesMeasuresEachInvocationFromItsFirstStartToItsLastFinish() {
        List<TaskRecord> tasks = List.of(
                task("t1", "req-a", 1_000, 1_400, true, 350L),
                task("t2", "req-a", 1_100, 1_900, true, 350L),
                task("t3", "req-b", 5_000, 5_000, false, null));

        List<BilledInvocation> invocations = Invocations.of(tasks, List.of());

        assertThat(invocations).containsExactly(
                // 1,900 - 1,000 ms of tasks and the 350 ms of init Lambda would bill with them
                new BilledInvocation("req-a", "worker", "arm64", 1769, 1_250, 350, 2, BilledInvocation.FROM_TASK_RECORDS),
                // a task that took 0 ms is still billed 1 ms
                new BilledInvocation("req-b", "worker", "arm64", 1769, 1, 0, 1, BilledInvocation.FROM_TASK_RECORDS));
    }

    @Test
    void of_prefersTheReportLineAndAddsInvocationsThatWroteNoTask() {
        List<TaskRecord> tasks = List.of(task("t1", "req-a", 1_000, 1_400, true, 350L));
        List<ReportLine> lines = List.of(
                // Billed Duration 914 = ceil(512.3 + 401.2): INIT inside, as Lambda bills it since 1 August 2025
                new ReportLine("req-a", "worker", "x86_64", 1769, 512.3, 914, 401.2),
                new ReportLine("req-p", "producer", "x86_64", 1024, 80.0, 80, null));

        List<BilledInvocation> invocations = Invocations.of(tasks, lines);

        assertThat(invocations).containsExactly(
                new BilledInvocation("req-p", "producer", "x86_64", 1024, 80, 0, 0, BilledInvocation.FROM_REPORT_LINE),
                // billed from the REPORT line; of its 914 ms, 914 - ceil(512.3) = 401 started the instance
                new BilledInvocation("req-a", "worker", "x86_64", 1769, 914, 401, 1, BilledInvocation.FROM_REPORT_LINE));
    }

    @Test
    void of_isOrderedByFunctionAndRequestIdWhateverTheOrderOfItsInputs() {
        List<ReportLine> lines = List.of(
                new ReportLine("b", "worker", "arm64", 128, 1, 1, null),
                new ReportLine("a", "worker", "arm64", 128, 1, 1, null),
                new ReportLine("c", "aggregator", "arm64", 128, 1, 1, null));

        assertThat(Invocations.of(List.of(), lines)).extracting(BilledInvocation::requestId).containsExactly("c", "a", "b");
    }
}
