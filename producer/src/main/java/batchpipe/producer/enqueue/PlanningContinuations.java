package batchpipe.producer.enqueue;

import batchpipe.common.json.Json;
import batchpipe.common.json.JsonException;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.util.Map;

/**
 * The messages that carry a run's planning from one producer invocation to the next, on the planning
 * queue (its event source mapping invokes the producer). A message names only the run: where to go on
 * is the cursor on the run record, so a late or repeated message resumes from wherever planning is, and
 * the cursor's conditional moves keep two invocations from planning one page twice. docs/SCALE.md says
 * why a queue rather than an asynchronous self-invocation or the tasks queue.
 */
public final class PlanningContinuations {
    static final String FIELD = "continuePlanning";

    private final SqsClient sqs;
    private final String queueUrl;

    public PlanningContinuations(SqsClient sqs, String queueUrl) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
    }

    /** Whether there is a planning queue (the producer Lambda's; the CLI plans in one go without one). */
    public boolean configured() {
        return queueUrl != null;
    }

    /** Asks for another invocation to go on planning the run. */
    public void send(String runId) {
        if (queueUrl == null) {
            throw new IllegalStateException("run " + runId + " needs another invocation to finish planning, and no planning queue is"
                    + " configured (PLANNING_QUEUE_URL)");
        }
        sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody(body(runId)));
    }

    public static String body(String runId) {
        return Json.write(Map.of(FIELD, runId));
    }

    /** The run a continuation's body names, or null when the body is not a continuation. */
    public static String runIdOf(String body) {
        try {
            return Json.parseObject(body).get(FIELD) instanceof String runId ? runId : null;
        } catch (JsonException notJson) {
            return null;
        }
    }
}
