package batchpipe.worker.batch;

import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;

import java.util.Map;

/** SQS's ApproximateReceiveCount of a message, as the event source mapping hands it over. */
public final class ReceiveCount {
    private ReceiveCount() {
    }

    /** The count, or {@code unknown} when the attribute is missing or not a number. */
    public static int of(SQSMessage message, int unknown) {
        Map<String, String> attributes = message.getAttributes();
        String count = attributes == null ? null : attributes.get("ApproximateReceiveCount");
        try {
            return count == null ? unknown : Integer.parseInt(count);
        } catch (NumberFormatException e) {
            return unknown;
        }
    }
}
