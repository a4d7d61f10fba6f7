package batchpipe.aggregator.delivery;

import batchpipe.common.json.Json;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

/** The event on the account's default bus, where a rule matching source and detail-type can route it. */
public final class EventBridgeRunEvents implements RunEvents {
    static final String BUS = "default";

    private final EventBridgeClient eventBridge;

    public EventBridgeRunEvents(EventBridgeClient eventBridge) {
        this.eventBridge = eventBridge;
    }

    @Override
    public String destination() {
        return "EventBridge " + BUS + " bus";
    }

    @Override
    public void publish(RunCompleted event) {
        PutEventsResponse response = eventBridge.putEvents(b -> b.entries(e -> e.eventBusName(BUS)
                .source(RunCompleted.SOURCE).detailType(RunCompleted.DETAIL_TYPE)
                .detail(Json.write(event.detail()))));
        // PutEvents answers 200 with per-entry failures (throttling, internal errors): count them as failures.
        if (response.failedEntryCount() != null && response.failedEntryCount() > 0) {
            PutEventsResultEntry entry = response.entries().isEmpty() ? null : response.entries().get(0);
            throw new IllegalStateException("EventBridge did not accept the Run Completed event of run " + event.runId() + ": "
                    + (entry == null ? "no entry in the response" : entry.errorCode() + " " + entry.errorMessage()));
        }
    }
}
