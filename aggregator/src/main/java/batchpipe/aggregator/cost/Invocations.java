package batchpipe.aggregator.cost;

import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.WorkerInvocation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
        Map<String, List<TaskRecord>> byRequest = new LinkedHashMap<>();
        for (TaskRecord task : tasks) {
            String requestId = task.invocation().requestId();
            String key = requestId != null && !requestId.isBlank() ? requestId : "no-request-id:" + task.taskId();
            byRequest.computeIfAbsent(key, k -> new ArrayList<>()).add(task);
        }
        Map<String, ReportLine> lines = new HashMap<>();
        for (ReportLine line : reportLines) lines.put(line.requestId(), line);

        List<BilledInvocation> invocations = new ArrayList<>();
        byRequest.forEach((requestId, ofRequest) -> {
            ReportLine line = lines.remove(requestId);
            invocations.add(line != null ? fromReportLine(line, ofRequest.size()) : fromTaskRecords(requestId, ofRequest));
        });
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
    static BilledInvocation fromTaskRecords(String requestId, List<TaskRecord> tasks) {
        long firstStart = Long.MAX_VALUE;
        long lastFinish = Long.MIN_VALUE;
        long init = 0;
        boolean cold = false;
        for (TaskRecord t : tasks) {
            firstStart = Math.min(firstStart, t.startedAt());
            lastFinish = Math.max(lastFinish, t.finishedAt());
            if (t.invocation().cold()) {
                cold = true;
                if (t.invocation().initMs() != null) init = Math.max(init, t.invocation().initMs());
            }
        }
        WorkerInvocation first = tasks.get(0).invocation();
        String architecture = first.architecture() != null ? first.architecture() : "unknown";
        String function = first.functionName() != null ? first.functionName() : "unknown";
        int memoryMb = first.memoryMb() == null ? 0 : first.memoryMb();
        long span = Math.max(1, lastFinish - firstStart);
        return new BilledInvocation(requestId, function, architecture, memoryMb, span + init, init,
                tasks.size(), BilledInvocation.FROM_TASK_RECORDS, null,
                cold ? BilledInvocation.Start.INIT : BilledInvocation.Start.WARM);
    }
}
