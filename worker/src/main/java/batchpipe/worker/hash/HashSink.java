package batchpipe.worker.hash;

import batchpipe.worker.task.WriteStats;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;

/** Where finished hash items go: DynamoDB in the worker ({@link HashItemWriter}), a counter in the CLI. */
@FunctionalInterface
public interface HashSink {
    /** Stores at most {@link HashItemWriter#MAX_BATCH} items and returns when all are stored. */
    void write(List<Map<String, AttributeValue>> items, WriteStats writes) throws InterruptedException;
}
