package batchpipe.local.esm;

import batchpipe.common.json.Json;
import batchpipe.common.json.JsonException;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What Lambda's SQS event source mapping does with a batch once the function has answered:
 * <ul>
 *   <li>an error or a timeout fails the whole batch: nothing is deleted, every message comes back after
 *       its visibility timeout;</li>
 *   <li>without ReportBatchItemFailures, success deletes the whole batch;</li>
 *   <li>with it, the listed ids stay on the queue and the rest are deleted; a null, missing or empty
 *       list means all succeeded; a response that is malformed, or names an id that is not in the
 *       batch, or an empty/null id, fails the whole batch.</li>
 * </ul>
 *
 * @param toDelete    message ids to delete
 * @param wholeBatchFailed why nothing is deleted, or null
 */
public record BatchOutcome(Set<String> toDelete, Set<String> toRetry, String wholeBatchFailed) {

    public static BatchOutcome of(List<String> batchIds, String error, String response, boolean reportBatchItemFailures) {
        if (error != null) {
            return failAll(batchIds, "the invocation failed (" + error + ")");
        }
        if (!reportBatchItemFailures) {
            return new BatchOutcome(new LinkedHashSet<>(batchIds), Set.of(), null);
        }
        Set<String> failed = new LinkedHashSet<>();
        Object parsed;
        try {
            parsed = response == null || response.isBlank() ? null : Json.parse(response);
        } catch (JsonException e) {
            return failAll(batchIds, "the response is not JSON");
        }
        if (parsed != null) {
            if (!(parsed instanceof Map<?, ?> body)) {
                return failAll(batchIds, "the response is not a JSON object");
            }
            Object failures = body.get("batchItemFailures");
            if (failures != null) {
                if (!(failures instanceof List<?> list)) {
                    return failAll(batchIds, "batchItemFailures is not a list");
                }
                for (Object item : list) {
                    if (!(item instanceof Map<?, ?> failure) || !(failure.get("itemIdentifier") instanceof String id) || id.isEmpty()) {
                        return failAll(batchIds, "a batchItemFailures entry has no itemIdentifier");
                    }
                    if (!batchIds.contains(id)) {
                        return failAll(batchIds, "batchItemFailures names " + id + ", which is not in the batch");
                    }
                    failed.add(id);
                }
            }
        }
        Set<String> delete = new LinkedHashSet<>(batchIds);
        delete.removeAll(failed);
        return new BatchOutcome(delete, failed, null);
    }

    private static BatchOutcome failAll(List<String> batchIds, String why) {
        return new BatchOutcome(Set.of(), new LinkedHashSet<>(batchIds), why);
    }
}
