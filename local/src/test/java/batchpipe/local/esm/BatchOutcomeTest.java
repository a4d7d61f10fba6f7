package batchpipe.local.esm;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Each rule Lambda's SQS event source mapping applies to a function's answer. */
class BatchOutcomeTest {
    private static final List<String> BATCH = List.of("m1", "m2", "m3");

    @Test
    void listedIdsStayAndTheRestAreDeleted() {
        BatchOutcome outcome = BatchOutcome.of(BATCH, null, "{\"batchItemFailures\":[{\"itemIdentifier\":\"m2\"}]}", true);
        assertThat(outcome.wholeBatchFailed()).isNull();
        assertThat(outcome.toDelete()).containsExactly("m1", "m3");
        assertThat(outcome.toRetry()).containsExactly("m2");
    }

    @Test
    void emptyListMeansAllSucceeded() {
        BatchOutcome outcome = BatchOutcome.of(BATCH, null, "{\"batchItemFailures\":[]}", true);
        assertThat(outcome.toDelete()).containsExactly("m1", "m2", "m3");
        assertThat(outcome.toRetry()).isEmpty();
    }

    @Test
    void nullListOrNullResponseMeansAllSucceeded() {
        assertThat(BatchOutcome.of(BATCH, null, "{\"batchItemFailures\":null}", true).toDelete()).hasSize(3);
        assertThat(BatchOutcome.of(BATCH, null, "null", true).toDelete()).hasSize(3);
        assertThat(BatchOutcome.of(BATCH, null, "{}", true).toDelete()).hasSize(3);
        assertThat(BatchOutcome.of(BATCH, null, "", true).toDelete()).hasSize(3);
    }

    @Test
    void anErrorFailsTheWholeBatch() {
        BatchOutcome outcome = BatchOutcome.of(BATCH, "java.lang.IllegalStateException", "{\"errorMessage\":\"boom\"}", true);
        assertThat(outcome.toDelete()).isEmpty();
        assertThat(outcome.toRetry()).containsExactly("m1", "m2", "m3");
        assertThat(outcome.wholeBatchFailed()).contains("IllegalStateException");
    }

    @Test
    void aTimeoutFailsTheWholeBatch() {
        BatchOutcome outcome = BatchOutcome.of(BATCH, "Runtime.Timeout", "{}", true);
        assertThat(outcome.toDelete()).isEmpty();
        assertThat(outcome.wholeBatchFailed()).contains("Runtime.Timeout");
    }

    @Test
    void anIdNotInTheBatchFailsTheWholeBatch() {
        BatchOutcome outcome = BatchOutcome.of(BATCH, null, "{\"batchItemFailures\":[{\"itemIdentifier\":\"m9\"}]}", true);
        assertThat(outcome.toDelete()).isEmpty();
        assertThat(outcome.wholeBatchFailed()).contains("m9");
    }

    @Test
    void anEmptyOrMissingItemIdentifierFailsTheWholeBatch() {
        assertThat(BatchOutcome.of(BATCH, null, "{\"batchItemFailures\":[{\"itemIdentifier\":\"\"}]}", true).toDelete()).isEmpty();
        assertThat(BatchOutcome.of(BATCH, null, "{\"batchItemFailures\":[{}]}", true).toDelete()).isEmpty();
        assertThat(BatchOutcome.of(BATCH, null, "{\"batchItemFailures\":[{\"itemIdentifier\":null}]}", true).toDelete()).isEmpty();
    }

    @Test
    void aMalformedResponseFailsTheWholeBatch() {
        assertThat(BatchOutcome.of(BATCH, null, "not json", true).wholeBatchFailed()).isNotNull();
        assertThat(BatchOutcome.of(BATCH, null, "[1,2]", true).wholeBatchFailed()).isNotNull();
        assertThat(BatchOutcome.of(BATCH, null, "{\"batchItemFailures\":\"m1\"}", true).wholeBatchFailed()).isNotNull();
    }

    @Test
    void withoutReportBatchItemFailuresSuccessDeletesEverythingWhateverTheResponse() {
        BatchOutcome outcome = BatchOutcome.of(BATCH, null, "{\"batchItemFailures\":[{\"itemIdentifier\":\"m2\"}]}", false);
        assertThat(outcome.toDelete()).containsExactly("m1", "m2", "m3");
    }
}
