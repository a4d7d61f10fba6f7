package batchpipe.worker.batch;

/** What the batch needs of Lambda's Context: how long the invocation has left. */
@FunctionalInterface
public interface RemainingTime {
    long millis();
}
