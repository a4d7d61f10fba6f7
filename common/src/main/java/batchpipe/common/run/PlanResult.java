package batchpipe.common.run;

import batchpipe.common.json.FieldReader;
import batchpipe.common.json.Json;
import batchpipe.common.json.JsonFields;
import batchpipe.common.json.JsonWritable;
import batchpipe.common.task.TaskLimits;

import java.util.List;
import java.util.Set;

/**
 * The producer's response: {@code {"runId", "planned": {"scan", "hash"}, "enqueued", "seconds"}}, with
 * {@code "continued": true} when planning goes on in another invocation.
 *
 * @param continued whether planning goes on in another invocation (the counts are then those planned so far)
 */
public record PlanResult(String runId, long plannedScan, long plannedHash, long enqueued, double seconds, boolean continued)
        implements JsonWritable {
    public PlanResult(String runId, long plannedScan, long plannedHash, long enqueued, double seconds) {
        this(runId, plannedScan, plannedHash, enqueued, seconds, false);
    }

    public String toJson() {
        return Json.write(this);
    }

    @Override
    public Object toJsonValue() {
        JsonFields json = new JsonFields().put("runId", runId)
                .put("planned", new JsonFields().put("scan", plannedScan).put("hash", plannedHash))
                .put("enqueued", enqueued).put("seconds", seconds);
        return continued ? json.put("continued", true) : json;
    }

    /**
     * Reads the producer's response, as {@link #toJson} writes it.
     *
     * @throws IllegalArgumentException naming every field that is missing or of the wrong type
     */
    public static PlanResult fromJson(String json) {
        FieldReader result = FieldReader.root(Json.parseObject(json));
        result.rejectUnknown(Set.of("runId", "planned", "enqueued", "seconds", "continued"));
        String runId = result.requiredString("runId", TaskLimits.MAX_ID_LENGTH);
        FieldReader planned = result.optionalObject("planned");
        Long scan = null, hash = null;
        if (planned == null) {
            if (!result.has("planned")) result.problem("'planned' is required");
        } else {
            planned.rejectUnknown(Set.of("scan", "hash"));
            scan = planned.requiredLong("scan", 0, Long.MAX_VALUE, null);
            hash = planned.requiredLong("hash", 0, Long.MAX_VALUE, null);
        }
        Long enqueued = result.requiredLong("enqueued", 0, Long.MAX_VALUE, null);
        Object seconds = result.raw("seconds");
        if (!(seconds instanceof Number)) result.problem("'seconds' must be a number, got " + Json.typeName(seconds));
        Object continued = result.raw("continued");
        if (continued != null && !(continued instanceof Boolean)) {
            result.problem("'continued' must be a boolean, got " + Json.typeName(continued));
        }
        List<String> problems = result.problems();
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("not a response of the producer: " + String.join("; ", problems));
        }
        return new PlanResult(runId, scan, hash, enqueued, ((Number) seconds).doubleValue(), Boolean.TRUE.equals(continued));
    }
}
