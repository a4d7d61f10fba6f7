package batchpipe.worker.batch;

import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;

import java.util.Map;

/**
 * When SQS accepted a message (its {@code SentTimestamp} system attribute, epoch milliseconds, as the
 * event source mapping hands it over): where a task's queue wait starts.
 */
public final class SentTimestamp {
    private SentTimestamp() {
    }

    /** The timestamp, or null when the attribute is missing or not a number. */
    public static Long of(SQSMessage message) {
        Map<String, String> attributes = message.getAttributes();
        String sent = attributes == null ? null : attributes.get("SentTimestamp");
        try {
            return sent == null ? null : Long.parseLong(sent);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
