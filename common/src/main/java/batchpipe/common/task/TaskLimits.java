package batchpipe.common.task;

/**
 * The limits every task must respect, so that one message cannot buy an hour of CPU or a huge item.
 *
 * @param maxHashCost the highest bcrypt cost accepted ({@code MAX_HASH_COST}, 4 to 31, default 14:
 *                    each step doubles the work; cost 14 is about 1 s per hash on one vCPU)
 */
public record TaskLimits(int maxHashCost) {
    public static final int MIN_HASH_COST = 4;
    public static final int DEFAULT_MAX_HASH_COST = 14;
    /** The highest MAX_HASH_COST a stack may set: bcrypt's own highest cost. */
    public static final int HIGHEST_MAX_HASH_COST = 31;
    public static final int MAX_HASH_COUNT = 1_000;
    /** SQS's own limit on a message body. */
    public static final int MAX_MESSAGE_BYTES = 256 * 1024;
    /** bcrypt only reads the first 72 bytes of a password; longer ones would be silently truncated. */
    public static final int MAX_PASSWORD_BYTES = 72;
    public static final int MAX_ID_LENGTH = 128;
    public static final int MAX_COUNT_BY_PATHS = 16;
    public static final int MAX_PATH_LENGTH = 256;
    public static final int MAX_MATCH_LENGTH = 1_024;
    public static final int MAX_PREFIX_LENGTH = 64;

    public TaskLimits {
        if (maxHashCost < MIN_HASH_COST || maxHashCost > HIGHEST_MAX_HASH_COST) {
            throw new IllegalArgumentException("MAX_HASH_COST is " + maxHashCost + "; it must be between "
                    + MIN_HASH_COST + " and " + HIGHEST_MAX_HASH_COST);
        }
    }

    public static TaskLimits defaults() {
        return new TaskLimits(DEFAULT_MAX_HASH_COST);
    }
}
