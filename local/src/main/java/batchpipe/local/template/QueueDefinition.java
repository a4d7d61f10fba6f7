package batchpipe.local.template;

/**
 * A queue as template.yaml declares it.
 *
 * @param deadLetterLogicalId the logical id of its redrive target, or null without a redrive policy
 */
public record QueueDefinition(String logicalId, int visibilityTimeoutSeconds, Integer messageRetentionSeconds,
                              String deadLetterLogicalId, int maxReceiveCount) {
}
