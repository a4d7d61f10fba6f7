package batchpipe.common.run;

/**
 * The DynamoDB writes a task made, as its record states them.
 *
 * @param calls   write calls, the record's own put included
 * @param msTotal milliseconds the timed calls took together
 * @param msMax   the slowest timed call
 */
public record WriteTimes(long calls, double msTotal, double msMax) {
}
