package batchpipe.aggregator.stats;

import batchpipe.common.json.Json;
import batchpipe.common.run.RunRecord;

import java.util.List;
import java.util.Map;

/**
 * The two facts of a run's spec the report needs, read from the spec the producer stored on the run
 * record (as JSON text: the spec's typed form belongs to the producer). A spec that cannot be read
 * gives neither, as reports have always treated it.
 *
 * @param toleratedFailurePercent the spec's tolerance, or null when it set none
 * @param scanSources             how many scan sources it lists (each is listed at least once)
 */
public record StoredSpec(Integer toleratedFailurePercent, int scanSources) {
    public static final StoredSpec NONE = new StoredSpec(null, 0);

    /** @param run the run record, or null */
    public static StoredSpec of(RunRecord run) {
        if (run == null || run.spec() == null) return NONE;
        Map<String, Object> spec; // JSON of another module's shape, read here for two fields only
        try {
            spec = Json.parseObject(run.spec());
        } catch (RuntimeException unreadable) {
            return NONE;
        }
        return new StoredSpec(spec.get("toleratedFailurePercent") instanceof Number n ? n.intValue() : null,
                spec.get("scan") instanceof List<?> scan ? scan.size() : 0);
    }
}
