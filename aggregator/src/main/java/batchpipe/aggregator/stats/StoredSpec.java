package batchpipe.aggregator.stats;

import batchpipe.common.run.RunRecord;
import batchpipe.common.spec.RunSpec;

/**
 * The two facts of a run's spec the report needs, read from the spec the producer stored on the run
 * record ({@link RunSpec#fromJson}, by its shape only). A spec that cannot be read gives neither, as
 * reports have always treated it.
 *
 * @param toleratedFailurePercent the spec's tolerance, or null when it set none
 * @param scanSources             how many scan sources it lists (each is listed at least once)
 */
public record StoredSpec(Integer toleratedFailurePercent, int scanSources) {
    public static final StoredSpec NONE = new StoredSpec(null, 0);

    /** @param run the run record, or null */
    public static StoredSpec of(RunRecord run) {
        if (run == null || run.spec() == null) return NONE;
        RunSpec spec;
        try {
            spec = RunSpec.fromJson(run.spec());
        } catch (RuntimeException unreadable) {
            return NONE;
        }
        return new StoredSpec(spec.toleratedFailurePercent(), spec.scan().size());
    }
}
