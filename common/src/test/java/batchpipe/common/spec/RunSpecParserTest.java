package batchpipe.common.spec;

import batchpipe.common.task.ScanMatch;
import batchpipe.common.task.TaskLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class RunSpecParserTest {
    private final RunSpecParser parser = new RunSpecParser(TaskLimits.defaults());

    private List<String> problemsOf(RunSpecParser parser, String json) {
        InvalidRunSpecException e = catchThrowableOfType(InvalidRunSpecException.class, () -> parser.parse(json));
        assertThat(e).as("parse(%s) should throw InvalidRunSpecException", json).isNotNull();
        return e.problems();
    }

    private List<String> problemsOf(String json) {
        return problemsOf(parser, json);
    }

    @Test
    void parse_readsAFullSpec() {
        RunSpec spec = parser.parse("""
                {"runId": "nightly-2026.11.30", "label": "nightly",
                 "scan": [{"bucket": "log-archive", "prefix": "app/2026/", "suffix": ".json.zst", "maxObjects": 2500,
                           "countBy": ["level"], "match": {"field": "http.status", "equals": "500"}},
                          {"bucket": "other.bucket-1"}],
                 "hash": {"batches": 40, "batchSize": 100, "cost": 10, "prefix": "pw_"}}
                """);

        assertThat(spec).isEqualTo(new RunSpec("nightly-2026.11.30", "nightly", List.of(
                new RunSpec.ScanSource("log-archive", "app/2026/", ".json.zst", 2500L, List.of("level"),
                        new ScanMatch.FieldEquals("http.status", "500")),
                new RunSpec.ScanSource("other.bucket-1", "", null, null, List.of("level", "status"), null)),
                new RunSpec.HashSpec(40, 100, 10, "pw_")));
    }

    @Test
    void parse_defaultsTheHashPrefixAndLeavesRunIdToThePlanner() {
        RunSpec spec = parser.parse("{\"hash\": {\"batches\": 1, \"batchSize\": 1000, \"cost\": 4}}");

        assertThat(spec).isEqualTo(new RunSpec(null, null, List.of(), new RunSpec.HashSpec(1, 1000, 4, "password_")));
    }

    @Test
    void parse_readsTheSweepIdASweepSetsOnEachConfigurationsRun() {
        RunSpec spec = parser.parse("{\"sweepId\": \"sweep-20261201T173513Z-bd3aae\", \"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 4}}");

        assertThat(spec.sweepId()).isEqualTo("sweep-20261201T173513Z-bd3aae");
        assertThat(problemsOf("{\"sweepId\": \"../x\", \"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 4}}"))
                .singleElement().asString().startsWith("'sweepId' must be 1 to 128 letters");
    }

    @Test
    void parse_rejectsAnUnknownField() {
        assertThat(problemsOf("{\"lable\": \"x\", \"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 4}}"))
                .containsExactly("unknown field 'lable' (allowed: hash, label, runId, scan, sweepId, toleratedFailurePercent)");
    }

    @Test
    void parse_rejectsUnknownFieldsInsideScanAndHash() {
        assertThat(problemsOf("{\"scan\": [{\"bucket\": \"logs\", \"sufix\": \".gz\"}],"
                + " \"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 4, \"salt\": \"x\"}}"))
                .containsExactly(
                        "unknown field 'scan[0].sufix' (allowed: bucket, countBy, match, maxObjects, prefix, suffix)",
                        "unknown field 'hash.salt' (allowed: batchSize, batches, cost, prefix)");
    }

    @Test
    void parse_rejectsAScanSourceWithoutBucket() {
        assertThat(problemsOf("{\"scan\": [{\"prefix\": \"logs/\"}]}"))
                .containsExactly("'scan[0].bucket' is required");
    }

    @ParameterizedTest
    @ValueSource(strings = {"My_Bucket", "ab", "-logs", "logs-", "UPPER", "has space"})
    void parse_rejectsABadBucketName(String bucket) {
        assertThat(problemsOf("{\"scan\": [{\"bucket\": \"" + bucket + "\"}]}"))
                .containsExactly("'scan[0].bucket' is not a valid S3 bucket name: '" + bucket + "'");
    }

    @Test
    void parse_rejectsABucketNameOverSixtyThreeCharacters() {
        assertThat(problemsOf("{\"scan\": [{\"bucket\": \"" + "b".repeat(64) + "\"}]}"))
                .containsExactly("'scan[0].bucket' is 64 characters, over the limit of 63");
    }

    @Test
    void parse_acceptsBucketNamesOfThreeAndSixtyThreeCharacters() {
        RunSpec spec = parser.parse("{\"scan\": [{\"bucket\": \"abc\"}, {\"bucket\": \"" + "b".repeat(63) + "\"}]}");

        assertThat(spec.scan()).extracting(RunSpec.ScanSource::bucket).containsExactly("abc", "b".repeat(63));
    }

    @Test
    void parse_rejectsZeroAndNegativeCounts() {
        assertThat(problemsOf("{\"scan\": [{\"bucket\": \"logs\", \"maxObjects\": 0}], \"hash\": {\"batches\": -3, \"batchSize\": 0, \"cost\": 4}}"))
                .containsExactly(
                        "'scan[0].maxObjects' is 0, outside the allowed range 1 to 10000000",
                        "'hash.batches' is -3, outside the allowed range 1 to 100000",
                        "'hash.batchSize' is 0, outside the allowed range 1 to 1000");
    }

    @Test
    void parse_rejectsBatchSizeOverOneThousand() {
        assertThat(problemsOf("{\"hash\": {\"batches\": 1, \"batchSize\": 1001, \"cost\": 4}}"))
                .containsExactly("'hash.batchSize' is 1001, outside the allowed range 1 to 1000");
    }

    @Test
    void parse_rejectsCostOutsideTheAllowedRange() {
        assertThat(problemsOf("{\"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 3}}"))
                .containsExactly("'hash.cost' is 3, outside the allowed range 4 to 14 (MAX_HASH_COST)");
        assertThat(problemsOf("{\"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 15}}"))
                .containsExactly("'hash.cost' is 15, outside the allowed range 4 to 14 (MAX_HASH_COST)");
    }

    @Test
    void parse_takesTheCostLimitFromTheConfiguration() {
        RunSpecParser strict = new RunSpecParser(new TaskLimits(10));

        assertThat(problemsOf(strict, "{\"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 11}}"))
                .containsExactly("'hash.cost' is 11, outside the allowed range 4 to 10 (MAX_HASH_COST)");
        assertThat(strict.parse("{\"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 10}}").hash().cost()).isEqualTo(10);
    }

    @Test
    void parse_requiresEveryHashField() {
        assertThat(problemsOf("{\"hash\": {}}")).containsExactly(
                "'hash.batches' is required", "'hash.batchSize' is required", "'hash.cost' is required");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{}", "{\"scan\": []}", "{\"label\": \"only a label\"}", "{\"runId\": \"r1\", \"hash\": null}"})
    void parse_rejectsASpecWithNothingToDo(String json) {
        assertThat(problemsOf(json)).containsExactly(
                "the spec has nothing to do: give a non-empty 'scan' list, a 'hash' object, or both");
    }

    @Test
    void parse_reportsSeveralErrorsTogetherInOneException() {
        InvalidRunSpecException e = catchThrowableOfType(InvalidRunSpecException.class, () -> parser.parse("""
                {"labl": 1,
                 "scan": [{"bucket": "Bad_Name", "maxObjects": 0}, {"prefix": "x"}],
                 "hash": {"batches": 0, "batchSize": 1001, "cost": 99}}
                """));

        assertThat(e).isNotNull();
        assertThat(e.problems()).containsExactly(
                "unknown field 'labl' (allowed: hash, label, runId, scan, sweepId, toleratedFailurePercent)",
                "'scan[0].bucket' is not a valid S3 bucket name: 'Bad_Name'",
                "'scan[0].maxObjects' is 0, outside the allowed range 1 to 10000000",
                "'scan[1].bucket' is required",
                "'hash.batches' is 0, outside the allowed range 1 to 100000",
                "'hash.batchSize' is 1001, outside the allowed range 1 to 1000",
                "'hash.cost' is 99, outside the allowed range 4 to 14 (MAX_HASH_COST)");
        assertThat(e).hasMessage("invalid run spec (7 problems; nothing was written or sent):\n"
                + "  - unknown field 'labl' (allowed: hash, label, runId, scan, sweepId, toleratedFailurePercent)\n"
                + "  - 'scan[0].bucket' is not a valid S3 bucket name: 'Bad_Name'\n"
                + "  - 'scan[0].maxObjects' is 0, outside the allowed range 1 to 10000000\n"
                + "  - 'scan[1].bucket' is required\n"
                + "  - 'hash.batches' is 0, outside the allowed range 1 to 100000\n"
                + "  - 'hash.batchSize' is 1001, outside the allowed range 1 to 1000\n"
                + "  - 'hash.cost' is 99, outside the allowed range 4 to 14 (MAX_HASH_COST)");
    }

    @Test
    void parse_saysProblemInTheSingularForOne() {
        InvalidRunSpecException e = catchThrowableOfType(InvalidRunSpecException.class, () -> parser.parse("{}"));

        assertThat(e).hasMessageStartingWith("invalid run spec (1 problem; nothing was written or sent):\n  - the spec has nothing to do");
    }

    @ParameterizedTest
    @ValueSource(strings = {"run 1/x", "..", ".", "a..b", "../../etc", "a/b", "c:x", ".hidden", "-x"})
    void parse_rejectsARunIdThatIsNotOneSafePathSegment(String runId) {
        assertThat(problemsOf("{\"runId\": \"" + runId + "\", \"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 4}}"))
                .containsExactly("'runId' must be 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit and"
                        + " without '..' (got '" + runId + "')");
    }

    @Test
    void parse_acceptsGeneratedStyleAndDottedRunIdsOfUpTo128Characters() {
        String hash = ", \"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 4}}";

        assertThat(parser.parse("{\"runId\": \"20261201T123259Z-958dc5\"" + hash).runId()).isEqualTo("20261201T123259Z-958dc5");
        assertThat(parser.parse("{\"runId\": \"v1.2_nightly-3\"" + hash).runId()).isEqualTo("v1.2_nightly-3");
        assertThat(parser.parse("{\"runId\": \"" + "r".repeat(128) + "\"" + hash).runId()).hasSize(128);
        assertThat(problemsOf("{\"runId\": \"" + "r".repeat(129) + "\"" + hash))
                .containsExactly("'runId' is 129 characters, over the limit of 128");
    }

    @Test
    void parse_rejectsARunIdWithAnEscapeSequenceAndQuotesItEscaped() {
        assertThat(problemsOf("{\"runId\": \"\\u001b[2J\", \"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 4}}"))
                .singleElement().asString()
                .endsWith("(got '\\u001b[2J')")
                .doesNotContain("\u001b");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\\u001b[31mred", "two\\nlines", "tab\\there", "del\\u007f", "csi\\u009b", "line\\u2028sep",
            "right-to-left \\u202eoverride", "isolate \\u2066x\\u2069", "lone \\ud800 half"})
    void parse_rejectsALabelThatIsNotPrintableTextAndNamesTheRule(String jsonLabel) {
        List<String> problems = problemsOf("{\"label\": \"" + jsonLabel + "\", \"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 4}}");

        assertThat(problems).singleElement().asString()
                .startsWith("'label' must be printable text of at most 256 characters, without control characters, line or"
                        + " paragraph separators or bidirectional controls (got '")
                .matches("(?s)[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\ud800]*");
    }

    @Test
    void parse_quotesARefusedLabelWithEachRefusedCharacterEscaped() {
        assertThat(problemsOf("{\"label\": \"a\\nb\\u202ec\", \"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 4}}"))
                .singleElement().asString().endsWith("(got 'a\\u000ab\\u202ec')");
    }

    @Test
    void parse_acceptsPrintableLabelsInAnyScriptUpTo256Characters() {
        String hash = ", \"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 4}}";

        assertThat(parser.parse("{\"label\": \"nightly <arm64> | ünïcödé 数字 🚀 [x](y)\"" + hash).label())
                .isEqualTo("nightly <arm64> | ünïcödé 数字 🚀 [x](y)");
        assertThat(parser.parse("{\"label\": \"" + "l".repeat(256) + "\"" + hash).label()).hasSize(256);
        assertThat(problemsOf("{\"label\": \"" + "l".repeat(257) + "\"" + hash))
                .containsExactly("'label' is 257 characters, over the limit of 256");
    }

    @Test
    void parse_rejectsAScanEntryThatIsNotAnObject() {
        assertThat(problemsOf("{\"scan\": [\"logs\"]}"))
                .containsExactly("'scan[0]' must be an object like {\"bucket\": \"...\", \"prefix\": \"logs/\"}");
    }

    @Test
    void parse_rejectsMoreThanOneHundredScanSources() {
        String sources = String.join(",", java.util.Collections.nCopies(101, "{\"bucket\": \"logs\"}"));

        assertThat(problemsOf("{\"scan\": [" + sources + "]}"))
                .containsExactly("'scan' has 101 entries, over the limit of 100");
    }

    @Test
    void parse_rejectsANonStringPrefixAndABadMatch() {
        assertThat(problemsOf("{\"scan\": [{\"bucket\": \"logs\", \"prefix\": 5, \"match\": {\"contains\": \"\"}}]}"))
                .containsExactly(
                        "'scan[0].prefix' must be a string of at most 1024 characters",
                        "'scan[0].match.contains' must not be empty");
    }

    @Test
    void parse_rejectsTextThatIsNotAJsonObject() {
        assertThat(problemsOf("[1]")).containsExactly("the run spec is not a JSON object: expected a JSON object, got an array");
        assertThat(problemsOf("{\"hash\": ")).singleElement().asString()
                .startsWith("the run spec is not a JSON object: invalid JSON at offset 9");
    }

    @Test
    void parse_rejectsAPrefixWhoseLastPasswordExceedsSeventyTwoBytes() {
        // batches x batchSize = 100,000,000: the last password is the prefix and "100000000", 73 bytes.
        List<String> problems = problemsOf("{\"hash\": {\"batches\": 100000, \"batchSize\": 1000, \"cost\": 4, \"prefix\": \""
                + "a".repeat(64) + "\"}}");

        assertThat(problems).hasSize(1);
    }

    @Test
    void parse_readsAToleratedFailurePercentFrom0To100() {
        RunSpec spec = parser.parse("{\"toleratedFailurePercent\": 5, \"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 4}}");

        assertThat(spec.toleratedFailurePercent()).isEqualTo(5);
        assertThat(problemsOf("{\"toleratedFailurePercent\": 101, \"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 4}}"))
                .singleElement().asString().contains("toleratedFailurePercent").contains("100");
    }
}
