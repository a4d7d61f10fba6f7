package batchpipe.common.spec;

import batchpipe.common.json.FieldReader;
import batchpipe.common.json.Json;
import batchpipe.common.json.JsonException;
import batchpipe.common.task.ScanMatch;
import batchpipe.common.task.TaskCodec;
import batchpipe.common.task.TaskIds;
import batchpipe.common.task.TaskLimits;
import batchpipe.common.text.ControlCharacters;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads and validates a run spec completely before anything is written, reporting every problem
 * (unknown field, missing bucket, counts out of range, cost over the limit, nothing to do) together.
 * It reads the spec's JSON form, the one {@link RunSpec#toJson} writes, so that {@code parse(spec.toJson())}
 * gives the spec again. {@link #stored()} reads a spec a producer stored, by its shape only.
 */
public final class RunSpecParser {
    public static final int MAX_SCAN_SOURCES = 100;
    public static final int MAX_HASH_BATCHES = 100_000;
    /** A label is shown in every report and on terminals: printable text of at most this many characters. */
    public static final int MAX_LABEL_LENGTH = 256;
    private static final String LABEL_RULE = "printable text of at most " + MAX_LABEL_LENGTH
            + " characters, without control characters, line or paragraph separators or bidirectional controls";
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

    private final TaskLimits limits;
    /** Whether the rules beyond the spec's shape apply: false for a stored spec ({@link #stored()}). */
    private final boolean rules;

    public RunSpecParser(TaskLimits limits) {
        this(limits, true);
    }

    private RunSpecParser(TaskLimits limits, boolean rules) {
        this.limits = limits;
        this.rules = rules;
    }

    /**
     * A reader of specs that a producer stored on run records: the spec's shape (its fields, their types, lengths
     * and ranges) is read, but not the rules that it met when it was stored, which may have grown since (a run id's
     * or a label's rule, a bucket name's, the stack's MAX_HASH_COST, that a spec has something to do), so that a run
     * stored under older rules still reads.
     */
    public static RunSpecParser stored() {
        return new RunSpecParser(new TaskLimits(TaskLimits.HIGHEST_MAX_HASH_COST), false);
    }

    /**
     * A spec built in code (a sweep's configuration from the sweep's spec) checked by the rules a spec read from
     * JSON meets: its JSON form read again.
     *
     * @throws InvalidRunSpecException with every problem it has
     */
    public RunSpec check(RunSpec spec) {
        return parse(spec.toJson());
    }

    public RunSpec parse(String json) {
        Map<String, Object> root; // JSON edge: the spec's text as parsed, before it is read into a RunSpec
        try {
            root = Json.parseObject(json);
        } catch (JsonException e) {
            throw new InvalidRunSpecException(List.of("the run spec is not a JSON object: " + e.getMessage()));
        }
        return parse(root);
    }

    /** JSON edge: a spec as {@link Json#parseObject} gave it (the producer's event, read once to tell a spec from an SQS batch). */
    public RunSpec parse(Map<String, Object> root) {
        FieldReader spec = FieldReader.root(root);
        spec.rejectUnknown(Set.of("runId", "label", "scan", "hash", "toleratedFailurePercent", "sweepId"));
        String runId = spec.optionalString("runId", TaskLimits.MAX_ID_LENGTH);
        if (rules && runId != null && !TaskIds.isValidRunId(runId)) {
            spec.problem("'runId' must be " + TaskIds.RUN_ID_RULE + " (got '" + shown(runId) + "')");
        }
        // Set by ./batchpipe sweep on each configuration's run; it names the sweep's folder, so it follows the run id's rule.
        String sweepId = spec.optionalString("sweepId", TaskLimits.MAX_ID_LENGTH);
        if (rules && sweepId != null && !TaskIds.isValidRunId(sweepId)) {
            spec.problem("'sweepId' must be " + TaskIds.RUN_ID_RULE + " (got '" + shown(sweepId) + "')");
        }
        String label = spec.optionalString("label", MAX_LABEL_LENGTH);
        if (rules && label != null && label.codePoints().anyMatch(RunSpecParser::unprintable)) {
            spec.problem("'label' must be " + LABEL_RULE + " (got '" + shown(label) + "')");
        }
        // Like Step Functions Distributed Map's ToleratedFailurePercentage: the report says whether the
        // run's failed and rejected tasks stayed within it.
        Long tolerated = spec.optionalLong("toleratedFailurePercent", 0, 100, null);
        List<RunSpec.ScanSource> scan = readScan(spec);
        RunSpec.HashSpec hash = readHash(spec);
        if (rules && scan.isEmpty() && hash == null && spec.problems().isEmpty()) {
            spec.problem("the spec has nothing to do: give a non-empty 'scan' list, a 'hash' object, or both");
        }
        if (!spec.problems().isEmpty()) {
            throw new InvalidRunSpecException(spec.problems());
        }
        return new RunSpec(runId, label, scan, hash, tolerated == null ? null : tolerated.intValue(), sweepId);
    }

    /**
     * Characters a label may not hold: control characters, which a terminal acts on; line and paragraph
     * separators, which break a report's line; bidirectional controls, which reorder how the rest of a
     * line reads; and halves of a surrogate pair with no other half.
     */
    private static boolean unprintable(int c) {
        return Character.isISOControl(c) || c == 0x2028 || c == 0x2029 || c == 0x061C || c == 0x200E || c == 0x200F
                || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || Character.getType(c) == Character.SURROGATE;
    }

    /** A refused value as an error message quotes it: each character the label rule refuses as a backslash-u escape. */
    private static String shown(String value) {
        StringBuilder out = new StringBuilder(value.length());
        // Every refused character is in the Basic Multilingual Plane (a lone surrogate is one char).
        value.codePoints().forEach(c -> {
            if (unprintable(c)) ControlCharacters.appendEscaped(out, (char) c);
            else out.appendCodePoint(c);
        });
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private List<RunSpec.ScanSource> readScan(FieldReader spec) {
        List<?> entries = spec.optionalList("scan", MAX_SCAN_SOURCES);
        List<RunSpec.ScanSource> sources = new ArrayList<>();
        if (entries == null) return sources;
        for (int i = 0; i < entries.size(); i++) {
            String path = "scan[" + i + "]";
            if (!(entries.get(i) instanceof Map<?, ?> map)) {
                spec.problem("'" + path + "' must be an object like {\"bucket\": \"...\", \"prefix\": \"logs/\"}");
                continue;
            }
            FieldReader source = new FieldReader((Map<String, Object>) map, path, spec.problems()); // JSON edge: a source as parsed
            int before = spec.problems().size();
            source.rejectUnknown(Set.of("bucket", "prefix", "suffix", "maxObjects", "countBy", "match"));
            String bucket = source.requiredString("bucket", 63);
            if (rules && bucket != null && !BUCKET.matcher(bucket).matches()) {
                source.problem("'" + source.pathOf("bucket") + "' is not a valid S3 bucket name: '" + shown(bucket) + "'");
            }
            String prefix = "";
            if (source.has("prefix")) {
                Object raw = source.raw("prefix");
                if (raw instanceof String s && s.length() <= 1024) {
                    prefix = s;
                } else {
                    source.problem("'" + source.pathOf("prefix") + "' must be a string of at most 1024 characters");
                }
            }
            String suffix = source.optionalString("suffix", 256);
            Long maxObjects = source.optionalLong("maxObjects", 1, 10_000_000, null);
            List<String> countBy = TaskCodec.readCountBy(source);
            ScanMatch match = TaskCodec.readMatch(source);
            if (spec.problems().size() == before) {
                sources.add(new RunSpec.ScanSource(bucket, prefix, suffix, maxObjects, countBy, match));
            }
        }
        return sources;
    }

    private RunSpec.HashSpec readHash(FieldReader spec) {
        FieldReader hash = spec.optionalObject("hash");
        if (hash == null) return null;
        int before = spec.problems().size();
        hash.rejectUnknown(Set.of("batches", "batchSize", "cost", "prefix"));
        Long batches = hash.requiredLong("batches", 1, MAX_HASH_BATCHES, null);
        Long batchSize = hash.requiredLong("batchSize", 1, TaskLimits.MAX_HASH_COUNT, null);
        Long cost = hash.requiredLong("cost", TaskLimits.MIN_HASH_COST, limits.maxHashCost(), "MAX_HASH_COST");
        String prefix = hash.optionalString("prefix", TaskLimits.MAX_PREFIX_LENGTH);
        if (spec.problems().size() != before) return null;
        TaskCodec.checkGeneratedLength(hash, "prefix", prefix == null ? RunSpec.HashSpec.DEFAULT_PREFIX : prefix,
                (long) batches * batchSize);
        if (spec.problems().size() != before) return null;
        return new RunSpec.HashSpec(batches.intValue(), batchSize.intValue(), cost.intValue(),
                prefix == null ? RunSpec.HashSpec.DEFAULT_PREFIX : prefix);
    }
}
