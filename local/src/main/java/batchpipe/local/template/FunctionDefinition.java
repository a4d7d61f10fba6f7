package batchpipe.local.template;

import java.util.List;
import java.util.Map;

/**
 * A function as template.yaml declares it, with Globals merged and every reference resolved to the
 * local stack's names.
 */
public record FunctionDefinition(String logicalId, String functionName, String handler, String runtime, int memoryMb,
                                 int timeoutSeconds, List<String> architectures, Map<String, String> environment,
                                 List<SqsEventSource> sqsEvents) {

    /** An SQS event of the function: the event source mapping's settings. */
    public record SqsEventSource(String name, String queueLogicalId, int batchSize, int maximumBatchingWindowSeconds,
                                 int maximumConcurrency, boolean reportBatchItemFailures) {
    }

    public String handlerClass() {
        int separator = handler.indexOf("::");
        return separator < 0 ? handler : handler.substring(0, separator);
    }

    public String handlerMethod() {
        int separator = handler.indexOf("::");
        return separator < 0 ? "handleRequest" : handler.substring(separator + 2);
    }
}
