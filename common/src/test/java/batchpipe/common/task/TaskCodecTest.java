package batchpipe.common.task;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class TaskCodecTest {
    private static final Instant ENQUEUED = Instant.parse("2026-11-30T01:02:03.456Z");
    private static final String HASH_HEAD = "{\"v\":1,\"runId\":\"run-1\",\"taskId\":\"hash-000001\",\"kind\":\"hash\","
            + "\"enqueuedAt\":\"2026-11-30T01:02:03.456Z\"";

    private final TaskCodec codec = new TaskCodec(TaskLimits.defaults());

    private static String hash(String rest) {
        return HASH_HEAD + "," + rest + "}";
    }

    private InvalidTaskException invalid(TaskCodec codec, String body) {
        InvalidTaskException e = catchThrowableOfType(InvalidTaskException.class, () -> codec.decode(body));
        assertThat(e).as("decode(%s) should throw InvalidTaskException", body.length() > 200 ? body.substring(0, 200) : body)
                .isNotNull();
        return e;
    }

    // ---- round trips ---------------------------------------------------------------------

    @Test
    void roundTrip_scanWithoutMatch() throws Exception {
        ScanTask task = new ScanTask("run-1", "scan-0123456789abcdef", ENQUEUED, "logs-bucket", "2026/11/30/a.json.zst",
                ScanTask.DEFAULT_COUNT_BY, null);

        assertThat(codec.decode(codec.encode(task))).isEqualTo(task);
    }

    @Test
    void roundTrip_scanWithContainsMatch() throws Exception {
        ScanTask task = new ScanTask("run-1", "scan-1", ENQUEUED, "logs-bucket", "k", List.of("http.status"),
                new ScanMatch.Contains("ERROR \"quoted\""));

        Task decoded = codec.decode(codec.encode(task));

        assertThat(decoded).isEqualTo(task);
        assertThat(((ScanTask) decoded).match()).isEqualTo(new ScanMatch.Contains("ERROR \"quoted\""));
    }

    @Test
    void roundTrip_scanWithFieldEqualsMatch() throws Exception {
        ScanTask task = new ScanTask("run-1", "scan-2", ENQUEUED, "logs-bucket", "dir/file.log",
                List.of("level", "service.name", "status"), new ScanMatch.FieldEquals("http.status", "500"));

        assertThat(codec.decode(codec.encode(task))).isEqualTo(task);
    }

    @Test
    void roundTrip_hashWithPrefix() throws Exception {
        HashTask task = new HashTask("run-1", "hash-000002", ENQUEUED, 10, 100, "password_", 101, null);

        assertThat(codec.decode(codec.encode(task))).isEqualTo(task);
    }

    @Test
    void roundTrip_carriesTheProgressShardAMessageNames() throws Exception {
        HashTask task = new HashTask("run-1", "hash-000002", ENQUEUED, 10, 100, "password_", 101, null);

        assertThat(codec.decodeMessage(codec.encode(task, 42))).isEqualTo(new TaskCodec.TaskMessage(task, 42));
        assertThat(codec.decodeMessage(codec.encode(task))).isEqualTo(new TaskCodec.TaskMessage(task, null));
        assertThat(codec.encode(task, 42)).contains("\"shard\":42");
    }

    @Test
    void decode_aShardThatIsNotAWholeNumberRejectsTheTaskButStillNamesNone() {
        String body = hash("\"cost\":4,\"count\":1,\"prefix\":\"p\",\"shard\":-1");

        InvalidTaskException e = invalid(codec, body);

        assertThat(e).hasMessageContaining("'shard' is -1, outside the allowed range 0 to 2147483647");
        assertThat(e.progressShard()).isNull();
    }

    @Test
    void roundTrip_hashWithInputs() throws Exception {
        HashTask task = new HashTask("run-1", "hash-000003", ENQUEUED, 4, 3, null, 1, List.of("a", "béé", "x".repeat(72)));

        assertThat(codec.decode(codec.encode(task))).isEqualTo(task);
    }

    @Test
    void encode_writesTheVersionOneWireFormat() {
        HashTask hashTask = new HashTask("run-1", "hash-000001", ENQUEUED, 10, 100, "password_", 1, null);
        ScanTask scanTask = new ScanTask("run-1", "scan-1", ENQUEUED, "b1", "k.json", List.of("level"),
                new ScanMatch.FieldEquals("status", "200"));

        assertThat(codec.encode(hashTask)).isEqualTo(
                "{\"v\":1,\"runId\":\"run-1\",\"taskId\":\"hash-000001\",\"kind\":\"hash\",\"enqueuedAt\":\"2026-11-30T01:02:03.456Z\","
                        + "\"cost\":10,\"count\":100,\"prefix\":\"password_\",\"start\":1}");
        assertThat(codec.encode(scanTask)).isEqualTo(
                "{\"v\":1,\"runId\":\"run-1\",\"taskId\":\"scan-1\",\"kind\":\"scan\",\"enqueuedAt\":\"2026-11-30T01:02:03.456Z\","
                        + "\"bucket\":\"b1\",\"key\":\"k.json\",\"countBy\":[\"level\"],\"match\":{\"field\":\"status\",\"equals\":\"200\"}}");
    }

    @Test
    void decode_fillsScanDefaultsAndHashStart() throws Exception {
        String scan = "{\"v\":1,\"runId\":\"r\",\"taskId\":\"t\",\"kind\":\"scan\",\"enqueuedAt\":\"2026-11-30T01:02:03Z\","
                + "\"bucket\":\"b\",\"key\":\"k\"}";

        assertThat(codec.decode(scan)).isEqualTo(new ScanTask("r", "t", Instant.parse("2026-11-30T01:02:03Z"), "b", "k",
                List.of("level", "status"), null));
        assertThat(codec.decode(hash("\"cost\":4,\"count\":2,\"prefix\":\"p\"")))
                .isEqualTo(new HashTask("run-1", "hash-000001", ENQUEUED, 4, 2, "p", 1, null));
    }

    // ---- not a task ----------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"not json", "", "[1,2]", "\"text\"", "{}", "{\"runId\":\"r\"}", "{\"taskId\":\"t\"}",
            "{\"runId\":\"has space\",\"taskId\":\"t\"}", "{\"runId\":\"r\",\"taskId\":7}", "{\"runId\":\"r\",\"taskId\":\"\"}"})
    void decode_throwsNotATaskWhenTheBodyNamesNoRunAndTask(String body) {
        assertThatThrownBy(() -> codec.decode(body))
                .isInstanceOf(NotATaskException.class)
                .hasMessageStartingWith("message body is not a task");
    }

    @Test
    void decode_throwsNotATaskForNullBody() {
        assertThatThrownBy(() -> codec.decode(null))
                .isInstanceOf(NotATaskException.class)
                .hasMessage("empty message body");
    }

    @Test
    void decode_throwsNotATaskForRunIdOverTheLengthLimit() {
        String body = "{\"runId\":\"" + "r".repeat(129) + "\",\"taskId\":\"t\"}";

        assertThatThrownBy(() -> codec.decode(body)).isInstanceOf(NotATaskException.class);
    }

    // ---- invalid tasks -------------------------------------------------------------------

    @Test
    void decode_invalidTaskCarriesRunTaskAndKind() {
        InvalidTaskException e = invalid(codec, hash("\"cost\":4,\"count\":1,\"prefix\":\"p\"").replace("\"v\":1", "\"v\":2"));

        assertThat(e.runId()).isEqualTo("run-1");
        assertThat(e.taskId()).isEqualTo("hash-000001");
        assertThat(e.kind()).isEqualTo("hash");
        assertThat(e).hasMessage("unsupported message version 'v' = 2 (this worker reads version 1)");
    }

    @Test
    void decode_rejectsMissingOrNonNumericVersion() {
        String noVersion = hash("\"cost\":4,\"count\":1,\"prefix\":\"p\"").replace("\"v\":1,", "");
        String textVersion = hash("\"cost\":4,\"count\":1,\"prefix\":\"p\"").replace("\"v\":1", "\"v\":\"1\"");

        assertThat(invalid(codec, noVersion)).hasMessage("unsupported message version 'v' = null (this worker reads version 1)");
        assertThat(invalid(codec, textVersion)).hasMessage("unsupported message version 'v' = 1 (this worker reads version 1)");
    }

    @Test
    void decode_rejectsUnknownKind() {
        String body = "{\"v\":1,\"runId\":\"r\",\"taskId\":\"t\",\"kind\":\"sort\",\"enqueuedAt\":\"2026-11-30T01:02:03Z\"}";

        InvalidTaskException e = invalid(codec, body);

        assertThat(e.kind()).isEqualTo("sort");
        assertThat(e).hasMessage("unknown task kind 'sort'; expected 'scan' or 'hash'");
    }

    @Test
    void decode_rejectsMissingKindWithNullKind() {
        String body = "{\"v\":1,\"runId\":\"r\",\"taskId\":\"t\",\"enqueuedAt\":\"2026-11-30T01:02:03Z\"}";

        InvalidTaskException e = invalid(codec, body);

        assertThat(e.kind()).isNull();
        assertThat(e).hasMessage("unknown task kind (missing 'kind'); expected 'scan' or 'hash'");
    }

    @Test
    void decode_rejectsCostAboveTheConfiguredLimit() throws Exception {
        TaskCodec strict = new TaskCodec(new TaskLimits(12));

        assertThat(invalid(strict, hash("\"cost\":13,\"count\":1,\"prefix\":\"p\"")))
                .hasMessage("'cost' is 13, outside the allowed range 4 to 12 (MAX_HASH_COST)");
        assertThat(invalid(strict, hash("\"cost\":3,\"count\":1,\"prefix\":\"p\"")))
                .hasMessage("'cost' is 3, outside the allowed range 4 to 12 (MAX_HASH_COST)");
        assertThat(((HashTask) strict.decode(hash("\"cost\":12,\"count\":1,\"prefix\":\"p\""))).cost()).isEqualTo(12);
    }

    @Test
    void decode_rejectsCountZeroAndOverOneThousand() throws Exception {
        assertThat(invalid(codec, hash("\"cost\":4,\"count\":0,\"prefix\":\"p\"")))
                .hasMessage("'count' is 0, outside the allowed range 1 to 1000");
        assertThat(invalid(codec, hash("\"cost\":4,\"count\":1001,\"prefix\":\"p\"")))
                .hasMessage("'count' is 1001, outside the allowed range 1 to 1000");
        assertThat(((HashTask) codec.decode(hash("\"cost\":4,\"count\":1000,\"prefix\":\"p\""))).count()).isEqualTo(1000);
    }

    @Test
    void decode_rejectsInputsCountMismatch() {
        assertThat(invalid(codec, hash("\"cost\":4,\"count\":3,\"inputs\":[\"a\",\"b\"]")))
                .hasMessage("'count' is 3 but 'inputs' has 2 entries");
    }

    @Test
    void decode_rejectsInputsTogetherWithPrefix() {
        assertThat(invalid(codec, hash("\"cost\":4,\"count\":1,\"inputs\":[\"a\"],\"prefix\":\"p\"")))
                .hasMessage("give either 'inputs' or 'prefix' (with optional 'start'), not both");
    }

    @Test
    void decode_rejectsAPasswordOverSeventyTwoBytesWithoutShowingIt() {
        // 73 bytes: 71 ASCII characters and one two-byte 'é'.
        String secret = "Tr0ub4dor&3-correct-horse-battery-staple-" + "s".repeat(30) + "é";
        assertThat(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSize(73);

        InvalidTaskException e = invalid(codec, hash("\"cost\":4,\"count\":2,\"inputs\":[\"ok\",\"" + secret + "\"]"));

        assertThat(e).hasMessage("'inputs[1]' is 73 bytes, over bcrypt's limit of 72 (longer passwords would be silently truncated)");
        assertThat(e.getMessage()).doesNotContain("Tr0ub4dor").doesNotContain("sssss");
        assertThat(e.toString()).doesNotContain("Tr0ub4dor");
    }

    @Test
    void decode_acceptsAPasswordOfExactlySeventyTwoBytes() throws Exception {
        String password = "p".repeat(72);

        HashTask task = (HashTask) codec.decode(hash("\"cost\":4,\"count\":1,\"inputs\":[\"" + password + "\"]"));

        assertThat(task.inputs()).containsExactly(password);
    }

    @Test
    void decode_rejectsEmptyOrNonStringInputs() {
        assertThat(invalid(codec, hash("\"cost\":4,\"count\":2,\"inputs\":[\"a\",\"\"]")))
                .hasMessage("'inputs[1]' must be a non-empty string");
        assertThat(invalid(codec, hash("\"cost\":4,\"count\":1,\"inputs\":[5]")))
                .hasMessage("'inputs[0]' must be a non-empty string");
    }

    @Test
    void decode_rejectsAMessageOverTwoHundredFiftySixKiB() {
        String valid = hash("\"cost\":4,\"count\":1,\"prefix\":\"p\"");
        // Whitespace is legal JSON: the only problem left is the size, 262,145 bytes.
        String body = valid.substring(0, valid.length() - 1) + " ".repeat(262_145 - valid.length()) + "}";
        assertThat(body).hasSize(262_145);

        assertThat(invalid(codec, body)).hasMessage("message is 262145 bytes, over the limit of 262144");
    }

    @Test
    void decode_acceptsAMessageOfExactlyTwoHundredFiftySixKiB() throws Exception {
        String valid = hash("\"cost\":4,\"count\":1,\"prefix\":\"p\"");
        String body = valid.substring(0, valid.length() - 1) + " ".repeat(262_144 - valid.length()) + "}";

        assertThat(codec.decode(body)).isInstanceOf(HashTask.class);
    }

    @Test
    void decode_rejectsUnknownFieldsAndListsTheAllowedOnes() {
        assertThat(invalid(codec, hash("\"cost\":4,\"count\":1,\"prefix\":\"p\",\"colour\":\"red\"")))
                .hasMessage("unknown field 'colour' (allowed: cost, count, enqueuedAt, inputs, kind, prefix, runId, shard, start, taskId, v)");
    }

    @Test
    void decode_reportsEveryProblemAtOnce() {
        String body = hash("\"cost\":99,\"count\":0,\"prefix\":\"p\",\"colour\":\"red\"").replace("\"v\":1", "\"v\":2");

        InvalidTaskException e = invalid(codec, body);

        assertThat(e).hasMessage("unsupported message version 'v' = 2 (this worker reads version 1); "
                + "unknown field 'colour' (allowed: cost, count, enqueuedAt, inputs, kind, prefix, runId, shard, start, taskId, v); "
                + "'cost' is 99, outside the allowed range 4 to 14 (MAX_HASH_COST); "
                + "'count' is 0, outside the allowed range 1 to 1000");
    }

    @Test
    void decode_rejectsAnInstantThatIsNotIso8601() {
        String body = "{\"v\":1,\"runId\":\"r\",\"taskId\":\"t\",\"kind\":\"hash\",\"enqueuedAt\":\"yesterday\","
                + "\"cost\":4,\"count\":1,\"prefix\":\"p\"}";

        assertThat(invalid(codec, body)).hasMessage(
                "'enqueuedAt' must be an ISO-8601 instant such as 2026-11-30T01:02:03.456Z, got 'yesterday'");
    }

    @Test
    void decode_rejectsScanWithoutBucketAndKey() {
        String body = "{\"v\":1,\"runId\":\"r\",\"taskId\":\"t\",\"kind\":\"scan\",\"enqueuedAt\":\"2026-11-30T01:02:03Z\"}";

        InvalidTaskException e = invalid(codec, body);

        assertThat(e.kind()).isEqualTo("scan");
        assertThat(e).hasMessage("'bucket' is required; 'key' is required");
    }

    @Test
    void decode_rejectsScanMatchCombiningContainsWithField() {
        String body = "{\"v\":1,\"runId\":\"r\",\"taskId\":\"t\",\"kind\":\"scan\",\"enqueuedAt\":\"2026-11-30T01:02:03Z\","
                + "\"bucket\":\"b\",\"key\":\"k\",\"match\":{\"contains\":\"x\",\"field\":\"f\",\"equals\":\"y\"}}";

        assertThat(invalid(codec, body)).hasMessage("'match.contains' cannot be combined with 'field'/'equals'");
    }

    @Test
    void decode_rejectsScanMatchWithNonStringEquals() {
        String body = "{\"v\":1,\"runId\":\"r\",\"taskId\":\"t\",\"kind\":\"scan\",\"enqueuedAt\":\"2026-11-30T01:02:03Z\","
                + "\"bucket\":\"b\",\"key\":\"k\",\"match\":{\"field\":\"status\",\"equals\":500}}";

        assertThat(invalid(codec, body)).hasMessage(
                "'match.equals' is required and must be a string (write numbers and booleans as text, e.g. \"200\")");
    }

    @Test
    void decode_rejectsAPrefixWhoseGeneratedPasswordsExceedSeventyTwoBytes() {
        // 40 x 'ü' is 80 bytes of UTF-8: every generated password is over bcrypt's limit.
        assertThatThrownBy(() -> codec.decode(hash("\"cost\":4,\"count\":1,\"prefix\":\"" + "ü".repeat(40) + "\"")))
                .isInstanceOf(InvalidTaskException.class);
        // 64 ASCII characters and a ten-digit index: 74 bytes.
        assertThatThrownBy(() -> codec.decode(hash("\"cost\":4,\"count\":1,\"prefix\":\"" + "a".repeat(64) + "\",\"start\":1000000000")))
                .isInstanceOf(InvalidTaskException.class);
    }

    @Test
    void taskLimits_rejectsAMaximumCostOutsideFourToThirtyOne() {
        assertThatThrownBy(() -> new TaskLimits(3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("MAX_HASH_COST is 3; it must be between 4 and 31");
        assertThatThrownBy(() -> new TaskLimits(32)).isInstanceOf(IllegalArgumentException.class);
        assertThat(TaskLimits.defaults().maxHashCost()).isEqualTo(14);
    }
}
