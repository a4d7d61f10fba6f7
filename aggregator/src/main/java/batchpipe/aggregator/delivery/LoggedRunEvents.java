package batchpipe.aggregator.delivery;

import batchpipe.common.json.Json;
import batchpipe.common.log.StructuredLog;

/**
 * The event as a log line of the function, sent nowhere: for a function on local endpoints that has
 * no EventBridge endpoint among them (sam local invoke against the local stack), where EventBridge
 * would mean whatever AWS account the credentials name.
 */
public final class LoggedRunEvents implements RunEvents {
    private static final StructuredLog LOG = StructuredLog.of(LoggedRunEvents.class);

    private final String why;

    /** @param why why the event is not sent, for the summary item and the log line */
    public LoggedRunEvents(String why) {
        this.why = why;
    }

    @Override
    public String destination() {
        return "not sent, logged: " + why;
    }

    @Override
    public void publish(RunCompleted event) {
        LOG.warn("Run Completed event not sent", "why", why, "source", RunCompleted.SOURCE, "detailType", RunCompleted.DETAIL_TYPE,
                "detail",
                // as plain JSON values: the log encoder writes maps and lists as JSON objects and arrays
                Json.parse(Json.write(event.detail())));
    }
}
