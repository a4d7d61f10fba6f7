package batchpipe.worker.deadletter;

import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

import java.util.Map;

/**
 * The queue for messages that cannot be recorded against any run (not a task at all, or a task of a
 * run that has no run record). They wait there, with the reason, for a person to read; an alarm on the
 * queue says they are there. Nothing polls it, so they are not retried for ever.
 */
public final class PoisonQueue {
    private final SqsClient sqs;
    private final String queueUrl;

    public PoisonQueue(SqsClient sqs, String queueUrl) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
    }

    /** Moves the message's body, with why and where it came from as message attributes. */
    public void send(SQSMessage message, String reason) {
        String why = reason.length() <= 1000 ? reason : reason.substring(0, 1000) + "…";
        sqs.sendMessage(b -> b.queueUrl(queueUrl)
                .messageBody(message.getBody() == null || message.getBody().isEmpty() ? "(empty body)" : message.getBody())
                .messageAttributes(Map.of(
                        "reason", text(why),
                        "originalMessageId", text(message.getMessageId()),
                        "sourceQueue", text(message.getEventSourceArn() == null ? "unknown" : message.getEventSourceArn()))));
    }

    private static MessageAttributeValue text(String value) {
        return MessageAttributeValue.builder().dataType("String").stringValue(value == null || value.isEmpty() ? "-" : value).build();
    }
}
