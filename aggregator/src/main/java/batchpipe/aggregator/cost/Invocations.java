package batchpipe.aggregator.cost;

import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.WorkerInvocation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The run's Lambda invocations, the unit Lambda bills. A worker invocation runs a batch of tasks, so
 * task records are grouped by the request id they carry. Where a REPORT line for the request id is
 * known, its billed and init durations are used; otherwise the invocation's duration is measured from
 * its task records (last finishedAt - first startedAt, at least 1 ms), which misses the time spent
 * before the first and after the last task and so is a lower bound. REPORT lines with no task records
 * (the producer, the aggregator, worker invocations whose tasks failed and came back) are invocations
 * of the run too.
 */
public final class Invocations {
    private Invocations() {
    }

    public static List<BilledInvocation> of(List<TaskRecord> tasks, List<ReportLine> reportLines) {
        return of(InvocationSpans.of(tasks), reportLines);
    }

    /** From the invocations the task records were folded into as they were read. */
    public static List<BilledInvocation> of(InvocationSpans spans, List<ReportLine> reportLines) {
        Map<String, ReportLine> lines = new HashMap<>();
        for (ReportLine line : reportLines) lines.put(line.requestId(), line);

        List<BilledInvocation> invocations = new ArrayList<>();
        for (InvocationSpans.Span span : spans.spans()) {
            ReportLine line = lines.remove(span.key());
            invocations.add(line != null ? fromReportLine(line, span.tasks()) : fromTaskRecords(span));
        }
        for (ReportLine line : reportLines) {
            if (lines.containsKey(line.requestId())) invocations.add(fromReportLine(line, 0));
        }
        invocations.sort(Comparator.comparing(BilledInvocation::function).thenComparing(BilledInvocation::requestId));
        return invocations;
    }

    static BilledInvocation fromReportLine(ReportLine line, int tasks) {
        ReportLine.StartShare start = line.startShare();
        return new BilledInvocation(line.requestId(), line.function(), line.architecture(), line.memoryMb(),
                line.billedMs(), start.billedMs(), tasks, BilledInvocation.FROM_REPORT_LINE, line.maxMemoryUsedMb(), start.start());
    }

    /**
     * An invocation no REPORT line describes, billed as Lambda bills a cold start today: the task records' span (a
     * lower bound) plus the INIT the first task recorded, which Billed Duration would include.
     */
    static BilledInvocation fromTaskRecords(InvocationSpans.Span span) {
        WorkerInvocation first = span.invocation();
        String architecture = first.architecture() != null ? first.architecture() : "unknown";
        String function = first.functionName() != null ? first.functionName() : "unknown";
        int memoryMb = first.memoryMb() == null ? 0 : first.memoryMb();
        long init = span.initMs();
        long taskSpan = Math.max(1, span.lastFinish() - span.firstStart());
        return new BilledInvocation(span.key(), function, architecture, memoryMb, taskSpan + init, init,
                span.tasks(), BilledInvocation.FROM_TASK_RECORDS, null,
                span.cold() ? BilledInvocation.Start.INIT : BilledInvocation.Start.WARM);
    }
}
