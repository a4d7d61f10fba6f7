package batchpipe.common.run;

import batchpipe.common.table.TableCall;
import batchpipe.common.table.RunPartitions;
import batchpipe.common.table.TableKeys;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One worker invocation's part in a run ({@code run#<runId> / invocation#<requestId>}), written at the
 * end of the invocation, before it announces any run it completed: the machine it ran on, whether it
 * was cold, how many of the run's tasks it closed, and the latency of every DynamoDB call it made for
 * them, by call. Task records cannot hold the latency of their own put or of the counts after it;
 * this record can.
 *
 * @param startedAt  when the invocation's handler started (epoch ms)
 * @param finishedAt when it had finished its tasks, before writing this record
 * @param tasks      the run's tasks this invocation closed
 * @param callsMs    every timed DynamoDB call for the run's tasks, in milliseconds, by call
 */
public record InvocationRecord(String runId, WorkerInvocation invocation, long startedAt, long finishedAt, int tasks,
                               Map<TableCall, List<Double>> callsMs) {

    public static String sortKey(String requestId) {
        return TableKeys.INVOCATION_PREFIX + requestId;
    }

    /** The item in the single-key layout of earlier runs. */
    public Map<String, AttributeValue> toItem() {
        return toItem(RunPartitions.legacy(runId));
    }

    /** The item on the partition the run's layout gives its request id. */
    public Map<String, AttributeValue> toItem(RunPartitions layout) {
        ItemWriter item = new ItemWriter();
        item.putAll(layout.invocationKey(invocation.requestId()));
        item.put("runId", runId);
        invocation.writeTo(item);
        item.put("startedAt", startedAt).put("finishedAt", finishedAt).put("tasks", tasks);
        Map<String, AttributeValue> calls = new LinkedHashMap<>();
        callsMs.forEach((call, latencies) -> calls.put(call.wireName(), AttributeValue.fromL(latencies.stream()
                .map(ms -> AttributeValue.fromN(BigDecimal.valueOf(ms).toPlainString())).toList())));
        item.put("callsMs", AttributeValue.fromM(calls));
        return item.item();
    }

    public static InvocationRecord fromItem(Map<String, AttributeValue> stored) {
        ItemReader item = new ItemReader(stored, "invocation record " + (stored.containsKey(TableKeys.SK) ? stored.get(TableKeys.SK).s() : "?"));
        Map<TableCall, List<Double>> calls = new EnumMap<>(TableCall.class);
        Map<String, AttributeValue> storedCalls = item.map("callsMs");
        if (storedCalls != null) {
            storedCalls.forEach((name, latencies) -> {
                TableCall call = TableCall.fromWireName(name);
                if (call == null || !latencies.hasL()) return; // a call this code does not know: left out, not misread
                List<Double> ms = new ArrayList<>();
                latencies.l().forEach(n -> ms.add(new BigDecimal(n.n()).doubleValue()));
                calls.put(call, ms);
            });
        }
        return new InvocationRecord(item.requiredString("runId"), WorkerInvocation.readFrom(item), item.longOr("startedAt", 0),
                item.longOr("finishedAt", 0), Math.toIntExact(item.longOr("tasks", 0)), calls);
    }
}
