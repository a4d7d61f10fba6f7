package batchpipe.local.run;

import batchpipe.aggregator.Report;
import batchpipe.common.table.RunProgress;
import batchpipe.local.report.RunSummaryItem;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * Follows a run from the outside, as a user would: its progress shards until every task has a final
 * record, then its summary item once the aggregator (triggered by the worker that finished the run)
 * has written it, and the report.json it names. Works the same against the local stack and a deployed one.
 */
public final class RunWatcher {
    /** Polls of an empty tasks queue, 200 ms apart, after which an incomplete run counts as stalled. */
    private static final int STALLED_AFTER_EMPTY_POLLS = 15;

    private final DynamoDbClient dynamoDb;
    private final S3Client s3;
    private final String table;
    private final BooleanSupplier tasksQueueEmpty;

    public RunWatcher(DynamoDbClient dynamoDb, S3Client s3, String table) {
        this(dynamoDb, s3, table, () -> false);
    }

    /**
     * @param tasksQueueEmpty whether nothing is left to deliver: the tasks queue (and, where known, its
     *                        dead-letter queue) holds no message, visible or in flight
     */
    public RunWatcher(DynamoDbClient dynamoDb, S3Client s3, String table, BooleanSupplier tasksQueueEmpty) {
        this.dynamoDb = dynamoDb;
        this.s3 = s3;
        this.table = table;
        this.tasksQueueEmpty = tasksQueueEmpty;
    }

    /** Whether an SQS queue holds no message, visible or in flight. */
    public static boolean queueEmpty(SqsClient sqs, String queueUrl) {
        Map<String, String> attributes = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl)
                .attributeNamesWithStrings("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings();
        return "0".equals(attributes.get("ApproximateNumberOfMessages")) && "0".equals(attributes.get("ApproximateNumberOfMessagesNotVisible"));
    }

    /**
     * Polls until the run is complete; reports (finished, planned) on every poll. When nothing is left to
     * deliver for a while and the run is still incomplete, some task was lost: every task either has a
     * record or a message in the tasks queue or its dead-letter queue (whose recorder records it). That
     * is reported as {@link RunStalledException}, so the books can be audited.
     */
    public RunProgress awaitCompletion(String runId, Duration timeout, BiConsumer<Long, Long> progress) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        RunProgress status;
        int emptyPolls = 0;
        do {
            status = RunProgress.read(dynamoDb, table, runId);
            progress.accept(status.finished(), status.planned());
            if (status.complete()) return status;
            emptyPolls = tasksQueueEmpty.getAsBoolean() ? emptyPolls + 1 : 0;
            if (emptyPolls >= STALLED_AFTER_EMPTY_POLLS) {
                throw new RunStalledException(runId, "stalled: " + status.finished() + " of " + status.planned()
                        + " tasks counted and nothing is left to deliver: the rest were lost (no message, no record)", status);
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new RunIncompleteException(runId, "did not complete within " + timeout.toSeconds() + " s: " + status.finished() + " of "
                + status.planned() + " tasks counted", status,
                status.planned() == 0 ? " (is the run id right, and are workers consuming the tasks queue?)" : "");
    }

    /**
     * A run that did not complete while it was watched: thrown with its id and how far it got, so that a
     * caller can report it (a sweep marks its configuration failed) or audit its books.
     */
    public static class RunIncompleteException extends IllegalStateException {
        private final String runId;
        private final String reason;
        private final RunProgress progress;

        public RunIncompleteException(String runId, String reason, RunProgress progress) {
            this(runId, reason, progress, "");
        }

        RunIncompleteException(String runId, String reason, RunProgress progress, String hint) {
            super("run " + runId + " " + reason + hint);
            this.runId = runId;
            this.reason = reason;
            this.progress = progress;
        }

        public String runId() {
            return runId;
        }

        /** Why, without the run id: "did not complete within 60 s: 3 of 8 tasks counted". */
        public String reason() {
            return reason;
        }

        public RunProgress progress() {
            return progress;
        }
    }

    /** A run that cannot complete: nothing is left to deliver and some tasks have no record. */
    public static final class RunStalledException extends RunIncompleteException {
        RunStalledException(String runId, String reason, RunProgress progress) {
            super(runId, reason, progress, "");
        }
    }

    /** The aggregator's report of a complete run: its report.json. */
    public Report awaitReport(String runId, Duration timeout) throws InterruptedException {
        return awaitSummary(runId, timeout).fullReport(s3);
    }

    /** The summary item of a complete run, once the aggregator has written it (and, before it, the files it names). */
    public RunSummaryItem awaitSummary(String runId, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            RunSummaryItem summary = RunSummaryItem.read(dynamoDb, table, runId);
            if (summary != null && summary.complete()) return summary;
            Thread.sleep(100);
        }
        throw new IllegalStateException("run " + runId + " completed but no report was written within " + timeout.toSeconds()
                + " s (is the aggregator consuming the completions queue?)");
    }
}
