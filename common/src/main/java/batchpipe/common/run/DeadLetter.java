package batchpipe.common.run;

/**
 * A task whose message went through the dead-letter queue: when the dead-letter recorder closed its books,
 * and the receive count SQS reported there.
 */
public record DeadLetter(long at, int receives) {
}
