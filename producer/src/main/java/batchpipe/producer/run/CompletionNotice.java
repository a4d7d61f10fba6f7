package batchpipe.producer.run;

import batchpipe.common.json.Json;
import batchpipe.common.log.StructuredLog;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.util.Map;

/**
 * Tells the aggregator that a run is complete when the end of its planning is what completed it (every
 * task had finished before the producer set the shard count; see {@code ProgressCounter}). The producer
 * claims the completion on the run record as a worker's count would, and sends {@code {"runId"}} to the
 * completions queue; a retried continuation that finds its own claim sends again, which the idempotent
 * aggregator absorbs.
 */
public final class CompletionNotice {
    /** Who claims a completion that the end of planning made: no task id looks like it. */
    public static final String CLAIMANT = "producer:planning";
    private static final StructuredLog LOG = StructuredLog.of(CompletionNotice.class);

    private final RunStore runs;
    private final SqsClient sqs;
    private final String completionsQueueUrl;

    public CompletionNotice(RunStore runs, SqsClient sqs, String completionsQueueUrl) {
        this.runs = runs;
        this.sqs = sqs;
        this.completionsQueueUrl = completionsQueueUrl;
    }

    /** @param claimedBy the claim the run record held when it was found complete, or null */
    public void announce(String runId, String claimedBy, long nowMillis) {
        if (claimedBy != null && !claimedBy.equals(CLAIMANT)) {
            LOG.info("run complete; a worker sends its completion", "runId", runId, "completionSentBy", claimedBy);
            return;
        }
        if (!runs.claimCompletion(runId, CLAIMANT, nowMillis)) {
            LOG.info("run complete; a worker claimed sending its completion", "runId", runId);
            return;
        }
        if (completionsQueueUrl == null) {
            throw new IllegalStateException("run " + runId + " completed when its planning ended, and no completions queue is configured"
                    + " (COMPLETIONS_QUEUE_URL) to tell the aggregator");
        }
        sqs.sendMessage(b -> b.queueUrl(completionsQueueUrl).messageBody(Json.write(Map.of("runId", runId))));
        LOG.info("run complete when its planning ended; aggregator notified", "runId", runId);
    }
}
