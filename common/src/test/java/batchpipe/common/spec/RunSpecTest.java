package batchpipe.common.spec;

import batchpipe.common.task.ScanMatch;
import batchpipe.common.task.TaskLimits;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The spec's JSON form: what the producer's event carries and what the run record stores. */
class RunSpecTest {
    private final RunSpecParser parser = new RunSpecParser(TaskLimits.defaults());

    /** Every field of the spec and of its sources, both kinds of match. */
    private static final RunSpec FULL = new RunSpec("nightly-2026.11.30", "nightly", List.of(
            new RunSpec.ScanSource("log-archive", "app/2026/", ".json.zst", 2500L, List.of("level", "http.status"),
                    new ScanMatch.FieldEquals("http.status", "500")),
            new RunSpec.ScanSource("other.bucket-1", "", null, null, List.of("level"), new ScanMatch.Contains("timeout"))),
            new RunSpec.HashSpec(40, 100, 10, "pw_"), 5, "sweep-20261201T173513Z-bd3aae");

    @Test
    void toJson_writesEveryFieldInTheFormAUserWrites() {
        assertThat(FULL.toJson()).isEqualTo("{\"runId\":\"nightly-2026.11.30\",\"label\":\"nightly\",\"scan\":["
                + "{\"bucket\":\"log-archive\",\"prefix\":\"app/2026/\",\"suffix\":\".json.zst\",\"maxObjects\":2500,"
                + "\"countBy\":[\"level\",\"http.status\"],\"match\":{\"field\":\"http.status\",\"equals\":\"500\"}},"
                + "{\"bucket\":\"other.bucket-1\",\"prefix\":\"\",\"countBy\":[\"level\"],\"match\":{\"contains\":\"timeout\"}}],"
                + "\"hash\":{\"batches\":40,\"batchSize\":100,\"cost\":10,\"prefix\":\"pw_\"},"
                + "\"toleratedFailurePercent\":5,\"sweepId\":\"sweep-20261201T173513Z-bd3aae\"}");
    }

    @Test
    void parseOfToJson_givesTheSpecAgain() {
        assertThat(parser.parse(FULL.toJson())).isEqualTo(FULL);
        assertThat(RunSpec.fromJson(FULL.toJson())).isEqualTo(FULL);
        RunSpec hashOnly = new RunSpec(null, null, List.of(), new RunSpec.HashSpec(1, 1, 4, null));
        assertThat(parser.parse(hashOnly.toJson())).isEqualTo(hashOnly);
        RunSpec scanOnly = new RunSpec(null, null, List.of(new RunSpec.ScanSource("logs", null, null, null, null, null)), null);
        assertThat(parser.parse(scanOnly.toJson())).isEqualTo(scanOnly);
    }

    @Test
    void toJson_writesNoFieldThatIsAbsent() {
        RunSpec hashOnly = new RunSpec(null, null, List.of(), new RunSpec.HashSpec(1, 1000, 4, null));
        RunSpec scanOnly = new RunSpec(null, null, List.of(new RunSpec.ScanSource("logs", "app/", null, null, null, null)), null);

        assertThat(hashOnly.toJson()).isEqualTo("{\"hash\":{\"batches\":1,\"batchSize\":1000,\"cost\":4,\"prefix\":\"password_\"}}");
        assertThat(scanOnly.toJson()).isEqualTo("{\"scan\":[{\"bucket\":\"logs\",\"prefix\":\"app/\",\"countBy\":[\"level\",\"status\"]}]}");
        assertThat(hashOnly.toJson() + scanOnly.toJson()).doesNotContain("null");
    }

    @Test
    void theTypeHoldsThePlanningDefaultsAsTheParserFillsThemIn() {
        RunSpec read = parser.parse("{\"scan\": [{\"bucket\": \"logs\"}], \"hash\": {\"batches\": 1, \"batchSize\": 1, \"cost\": 4}}");

        assertThat(read).isEqualTo(new RunSpec(null, null, List.of(new RunSpec.ScanSource("logs", null, null, null, null, null)),
                new RunSpec.HashSpec(1, 1, 4, null)));
        assertThat(read.scan().get(0).prefix()).isEmpty();
        assertThat(read.scan().get(0).countBy()).containsExactly("level", "status");
        assertThat(read.hash().prefix()).isEqualTo(RunSpec.HashSpec.DEFAULT_PREFIX);
    }

    @Test
    void aSpecTheProducerStoredBeforeThisFormReadsTheSame() {
        // as the producer stored the event a user wrote: fields in the user's order, defaults left out
        String stored = "{\"label\":\"demo\",\"scan\":[{\"bucket\":\"batchpipe-local-databucket\",\"prefix\":\"logs/\",\"suffix\":\".zst\","
                + "\"countBy\":[\"level\",\"status\",\"service\"]}],\"hash\":{\"batches\":8,\"batchSize\":25,\"cost\":4}}";

        RunSpec spec = RunSpec.fromJson(stored);

        assertThat(spec).isEqualTo(new RunSpec(null, "demo", List.of(new RunSpec.ScanSource("batchpipe-local-databucket", "logs/", ".zst",
                null, List.of("level", "status", "service"), null)), new RunSpec.HashSpec(8, 25, 4, null)));
        assertThat(parser.parse(stored)).isEqualTo(spec);
    }

    @Test
    void fromJson_readsAStoredSpecByItsShapeOnly_notByTheRulesItMetWhenItWasStored() {
        // a label and a run id from before their rules, a cost over this stack's limit, a bucket name S3 would refuse
        String stored = "{\"runId\":\"a/b\",\"label\":\"red \\u001b[31m\",\"scan\":[{\"bucket\":\"b\"}],"
                + "\"hash\":{\"batches\":1,\"batchSize\":1,\"cost\":20},\"toleratedFailurePercent\":40}";

        RunSpec spec = RunSpec.fromJson(stored);

        assertThat(spec.runId()).isEqualTo("a/b");
        assertThat(spec.label()).isEqualTo("red \u001b[31m");
        assertThat(spec.scan()).extracting(RunSpec.ScanSource::bucket).containsExactly("b");
        assertThat(spec.hash().cost()).isEqualTo(20);
        assertThat(spec.toleratedFailurePercent()).isEqualTo(40);
        assertThat(RunSpec.fromJson("{\"toleratedFailurePercent\":40}").toleratedFailurePercent()).isEqualTo(40);
        assertThatThrownBy(() -> parser.parse(stored)).isInstanceOf(InvalidRunSpecException.class);
    }

    @Test
    void fromJson_stillRefusesWhatIsNotASpecsShape() {
        assertThatThrownBy(() -> RunSpec.fromJson("{\"scan\":\"logs\"}")).isInstanceOf(InvalidRunSpecException.class)
                .hasMessageContaining("'scan' must be an array");
        assertThatThrownBy(() -> RunSpec.fromJson("{\"lable\":\"x\"}")).isInstanceOf(InvalidRunSpecException.class)
                .hasMessageContaining("unknown field 'lable'");
        assertThatThrownBy(() -> RunSpec.fromJson("not json")).isInstanceOf(InvalidRunSpecException.class);
    }

    @Test
    void with_changesOneFieldAndKeepsTheRest() {
        RunSpec run = FULL.withRunId("sweep-1-x86_64-885").withSweepId("sweep-1").withLabel("nightly x86_64-885");

        assertThat(run).isEqualTo(new RunSpec("sweep-1-x86_64-885", "nightly x86_64-885", FULL.scan(), FULL.hash(),
                FULL.toleratedFailurePercent(), "sweep-1"));
        assertThat(FULL.withRunId(null).toJson()).doesNotContain("runId");
    }

    @Test
    void check_appliesTheParsersRulesToASpecBuiltInCode() {
        RunSpec tooLong = FULL.withLabel("x".repeat(RunSpecParser.MAX_LABEL_LENGTH + 1));

        assertThat(parser.check(FULL)).isEqualTo(FULL);
        assertThatThrownBy(() -> parser.check(tooLong)).isInstanceOf(InvalidRunSpecException.class)
                .hasMessageContaining("'label' is 257 characters, over the limit of 256");
    }

    @Test
    void hashSpec_firstIndex_countsTheBatchesPasswordsUpFromOneWithoutAGap() {
        RunSpec.HashSpec hash = new RunSpec.HashSpec(3, 25, 4, null);

        assertThat(hash.firstIndex(1)).isEqualTo(1);
        assertThat(hash.firstIndex(2)).isEqualTo(26);
        assertThat(hash.firstIndex(3)).isEqualTo(51);
    }
}
