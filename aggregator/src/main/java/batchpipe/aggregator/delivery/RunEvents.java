package batchpipe.aggregator.delivery;

/** Announces completed runs, so that users can route them (email, chat) without polling. */
public interface RunEvents {
    /** Where the events go, in words for the summary item (e.g. "EventBridge default bus"). */
    String destination();

    /** Puts the event; throws when it was not accepted, so that the completion message is retried. */
    void publish(RunCompleted event);
}
