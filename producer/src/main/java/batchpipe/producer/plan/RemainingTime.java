package batchpipe.producer.plan;

/** How long the invocation has left, in milliseconds: Lambda's {@code Context}, or no limit for the CLI. */
@FunctionalInterface
public interface RemainingTime {
    RemainingTime UNLIMITED = () -> Long.MAX_VALUE;

    long millis();
}
