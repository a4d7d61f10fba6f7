package batchpipe.common.task;

import batchpipe.common.json.FieldReader;
import batchpipe.common.json.Json;
import batchpipe.common.json.JsonException;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The task message format, version 1:
 * <pre>
 * {"v":1,"runId":"...","taskId":"...","kind":"scan","enqueuedAt":"2026-11-30T01:02:03.456Z",
 *  "bucket":"...","key":"...","countBy":["level","status"],"match":{"contains":"text"}}
 * {"v":1,"runId":"...","taskId":"...","kind":"hash","enqueuedAt":"...","cost":10,"count":100,
 *  "prefix":"password_","start":1}          (or "inputs":["...", ...] instead of prefix/start)
 * </pre>
 * and, on the messages of runs planned page by page, {@code "shard":n}: the progress shard that counts
 * the task (see {@code ProgressShards.PageShards}). Messages without it are counted in the shard the
 * task id hashes to, as runs planned in one go always were.
 */
public final class TaskCodec {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1," + TaskLimits.MAX_ID_LENGTH + "}");
    private static final Set<String> COMMON_FIELDS = Set.of("v", "runId", "taskId", "kind", "enqueuedAt", "shard");
    private static final Set<String> SCAN_FIELDS = union(COMMON_FIELDS, Set.of("bucket", "key", "countBy", "match"));
    private static final Set<String> HASH_FIELDS = union(COMMON_FIELDS, Set.of("cost", "count", "prefix", "start", "inputs"));

    private final TaskLimits limits;

    public TaskCodec(TaskLimits limits) {
        this.limits = limits;
    }

    /** The limits decoded tasks are held to. */
    public TaskLimits limits() {
        return limits;
    }

    /** A task as read from a message, and the progress shard the message names (null when it names none). */
    public record TaskMessage(Task task, Integer progressShard) {
    }

    public String encode(Task task) {
        return encode(task, null);
    }

    /** The message of a task counted in progress shard {@code progressShard} (none when null). */
    public String encode(Task task, Integer progressShard) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("v", Task.VERSION);
        body.put("runId", task.runId());
        body.put("taskId", task.taskId());
        body.put("kind", task.kind().wireName());
        body.put("enqueuedAt", task.enqueuedAt().toString());
        if (progressShard != null) body.put("shard", progressShard);
        switch (task) {
            case ScanTask scan -> {
                body.put("bucket", scan.bucket());
                body.put("key", scan.key());
                body.put("countBy", scan.countBy());
                if (scan.match() != null) body.put("match", scan.match());
            }
            case HashTask hash -> {
                body.put("cost", hash.cost());
                body.put("count", hash.count());
                if (hash.inputs() != null) {
                    body.put("inputs", hash.inputs());
                } else {
                    body.put("prefix", hash.prefix());
                    body.put("start", hash.start());
                }
            }
        }
        return Json.write(body);
    }

    /**
     * Decodes a message body.
     *
     * @throws NotATaskException     the body cannot be attributed to any run
     * @throws InvalidTaskException  the body names a run and task but can never succeed
     */
    public Task decode(String body) throws NotATaskException, InvalidTaskException {
        return decodeMessage(body).task();
    }

    /**
     * Decodes a message body with the progress shard it names.
     *
     * @throws NotATaskException     the body cannot be attributed to any run
     * @throws InvalidTaskException  the body names a run and task but can never succeed
     */
    public TaskMessage decodeMessage(String body) throws NotATaskException, InvalidTaskException {
        if (body == null) {
            throw new NotATaskException("empty message body");
        }
        int bytes = body.getBytes(StandardCharsets.UTF_8).length;
        Map<String, Object> object;
        try {
            object = Json.parseObject(body);
        } catch (JsonException e) {
            throw new NotATaskException("message body is not a task: " + e.getMessage());
        }
        if (!(object.get("runId") instanceof String runId) || !ID.matcher(runId).matches()
                || !(object.get("taskId") instanceof String taskId) || !ID.matcher(taskId).matches()) {
            throw new NotATaskException("message body is not a task: it needs string fields 'runId' and 'taskId' of 1 to "
                    + TaskLimits.MAX_ID_LENGTH + " characters from [A-Za-z0-9._:-]");
        }
        String kindName = object.get("kind") instanceof String k ? k : null;
        FieldReader fields = FieldReader.root(object);
        Long shardValue = fields.optionalLong("shard", 0, Integer.MAX_VALUE, null);
        Integer shard = shardValue == null ? null : shardValue.intValue();
        if (bytes > TaskLimits.MAX_MESSAGE_BYTES) {
            fields.problem("message is " + bytes + " bytes, over the limit of " + TaskLimits.MAX_MESSAGE_BYTES);
        }
        Object version = object.get("v");
        if (!(version instanceof Long v) || v != Task.VERSION) {
            fields.problem("unsupported message version 'v' = " + version + " (this worker reads version " + Task.VERSION + ")");
        }
        Instant enqueuedAt = readInstant(fields, "enqueuedAt");
        TaskKind kind = TaskKind.fromWireName(kindName);
        Task task = null;
        if (kind == null) {
            fields.problem("unknown task kind " + (kindName == null ? "(missing 'kind')" : "'" + kindName + "'")
                    + "; expected 'scan' or 'hash'");
        } else if (kind == TaskKind.SCAN) {
            fields.rejectUnknown(SCAN_FIELDS);
            task = readScan(fields, runId, taskId, enqueuedAt);
        } else {
            fields.rejectUnknown(HASH_FIELDS);
            task = readHash(fields, runId, taskId, enqueuedAt);
        }
        if (!fields.problems().isEmpty()) {
            throw new InvalidTaskException(runId, taskId, kindName, shard, fields.problems());
        }
        return new TaskMessage(task, shard);
    }

    private static Instant readInstant(FieldReader fields, String field) {
        String text = fields.requiredString(field, 64);
        if (text == null) return null;
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            fields.problem("'" + field + "' must be an ISO-8601 instant such as 2026-11-30T01:02:03.456Z, got '" + text + "'");
            return null;
        }
    }

    private static ScanTask readScan(FieldReader fields, String runId, String taskId, Instant enqueuedAt) {
        String bucket = fields.requiredString("bucket", 63);
        String key = fields.requiredString("key", 1024);
        List<String> countBy = readCountBy(fields);
        ScanMatch match = readMatch(fields);
        if (!fields.problems().isEmpty()) return null;
        return new ScanTask(runId, taskId, enqueuedAt, bucket, key, countBy, match);
    }

    /** Shared with the producer's run spec, which carries the same optional scan settings. */
    public static List<String> readCountBy(FieldReader fields) {
        List<String> countBy = fields.optionalStringList("countBy", TaskLimits.MAX_COUNT_BY_PATHS, TaskLimits.MAX_PATH_LENGTH);
        return countBy == null ? ScanTask.DEFAULT_COUNT_BY : countBy;
    }

    public static ScanMatch readMatch(FieldReader fields) {
        FieldReader match = fields.optionalObject("match");
        if (match == null) return null;
        match.rejectUnknown(Set.of("contains", "field", "equals"));
        if (match.has("contains")) {
            if (match.has("field") || match.has("equals")) {
                match.problem("'" + match.pathOf("contains") + "' cannot be combined with 'field'/'equals'");
                return null;
            }
            String text = match.requiredString("contains", TaskLimits.MAX_MATCH_LENGTH);
            return text == null ? null : new ScanMatch.Contains(text);
        }
        String field = match.requiredString("field", TaskLimits.MAX_PATH_LENGTH);
        Object equals = match.raw("equals");
        if (!(equals instanceof String value)) {
            match.problem("'" + match.pathOf("equals") + "' is required and must be a string (write numbers and booleans as text, e.g. \"200\")");
            return null;
        }
        if (value.length() > TaskLimits.MAX_MATCH_LENGTH) {
            match.problem("'" + match.pathOf("equals") + "' is over the limit of " + TaskLimits.MAX_MATCH_LENGTH + " characters");
            return null;
        }
        return field == null ? null : new ScanMatch.FieldEquals(field, value);
    }

    private HashTask readHash(FieldReader fields, String runId, String taskId, Instant enqueuedAt) {
        Long cost = fields.requiredLong("cost", TaskLimits.MIN_HASH_COST, limits.maxHashCost(), "MAX_HASH_COST");
        Long count = fields.requiredLong("count", 1, TaskLimits.MAX_HASH_COUNT, null);
        List<String> inputs = null;
        String prefix = null;
        long start = 1;
        if (fields.has("inputs")) {
            if (fields.has("prefix") || fields.has("start")) {
                fields.problem("give either 'inputs' or 'prefix' (with optional 'start'), not both");
            }
            inputs = readInputs(fields);
            if (inputs != null && count != null && inputs.size() != count) {
                fields.problem("'count' is " + count + " but 'inputs' has " + inputs.size() + " entries");
            }
        } else {
            prefix = fields.requiredString("prefix", TaskLimits.MAX_PREFIX_LENGTH);
            Long startValue = fields.optionalLong("start", 0, 1_000_000_000L, null);
            if (startValue != null) start = startValue;
            if (prefix != null && count != null) {
                checkGeneratedLength(fields, "prefix", prefix, start + count - 1);
            }
        }
        if (!fields.problems().isEmpty()) return null;
        return new HashTask(runId, taskId, enqueuedAt, cost.intValue(), count.intValue(), prefix, start, inputs);
    }

    /**
     * Generated passwords are the prefix and the index in at least six digits; bcrypt reads only 72
     * bytes, so a longer password would silently lose its tail (and collide with others).
     */
    public static void checkGeneratedLength(FieldReader fields, String field, String prefix, long lastIndex) {
        int bytes = prefix.getBytes(StandardCharsets.UTF_8).length + Math.max(6, Long.toString(lastIndex).length());
        if (bytes > TaskLimits.MAX_PASSWORD_BYTES) {
            fields.problem("'" + fields.pathOf(field) + "' makes passwords of up to " + bytes + " bytes, over bcrypt's limit of "
                    + TaskLimits.MAX_PASSWORD_BYTES + " (longer passwords would be silently truncated); use a shorter prefix");
        }
    }

    /** Reads the password list without ever echoing a password in a problem. */
    private static List<String> readInputs(FieldReader fields) {
        List<?> raw = fields.optionalList("inputs", TaskLimits.MAX_HASH_COUNT);
        if (raw == null) return null;
        List<String> inputs = new ArrayList<>(raw.size());
        for (int i = 0; i < raw.size(); i++) {
            if (!(raw.get(i) instanceof String s) || s.isEmpty()) {
                fields.problem("'inputs[" + i + "]' must be a non-empty string");
                return null;
            }
            int length = s.getBytes(StandardCharsets.UTF_8).length;
            if (length > TaskLimits.MAX_PASSWORD_BYTES) {
                fields.problem("'inputs[" + i + "]' is " + length + " bytes, over bcrypt's limit of "
                        + TaskLimits.MAX_PASSWORD_BYTES + " (longer passwords would be silently truncated)");
                return null;
            }
            inputs.add(s);
        }
        return inputs;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }
}
