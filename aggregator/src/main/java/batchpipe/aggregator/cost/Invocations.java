package batchpipe.aggregator.cost;

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

    public static List<BilledInvocation> of(List<Map<String, Object>> tasks, List<ReportLine> reportLines) {
        Map<String, List<Map<String, Object>>> byRequest = new LinkedHashMap<>();
        for (Map<String, Object> task : tasks) {
            Object requestId = task.get("requestId");
            String key = requestId instanceof String s && !s.isBlank() ? s : "no-request-id:" + task.get("taskId");
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
        long init = line.initMs() == null ? 0 : (long) Math.ceil(line.initMs());
        return new BilledInvocation(line.requestId(), line.function(), line.architecture(), line.memoryMb(),
                line.billedMs(), init, tasks, BilledInvocation.FROM_REPORT_LINE, line.maxMemoryUsedMb());
    }

    static BilledInvocation fromTaskRecords(String requestId, List<Map<String, Object>> tasks) {
        long firstStart = Long.MAX_VALUE;
        long lastFinish = Long.MIN_VALUE;
        long init = 0;
        for (Map<String, Object> t : tasks) {
            firstStart = Math.min(firstStart, Numbers.asLong(t.get("startedAt")));
            lastFinish = Math.max(lastFinish, Numbers.asLong(t.get("finishedAt")));
            if (Boolean.TRUE.equals(t.get("coldStart")) && t.get("initMs") instanceof Number n) {
                init = Math.max(init, (long) Math.ceil(n.doubleValue()));
            }
        }
        Map<String, Object> first = tasks.get(0);
        String architecture = first.get("architecture") instanceof String a ? a : "unknown";
        String function = first.get("functionName") instanceof String f ? f : "unknown";
        int memoryMb = (int) Numbers.asLong(first.get("memoryMb"));
        return new BilledInvocation(requestId, function, architecture, memoryMb, Math.max(1, lastFinish - firstStart), init,
                tasks.size(), BilledInvocation.FROM_TASK_RECORDS);
    }
}
