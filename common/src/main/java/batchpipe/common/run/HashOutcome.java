package batchpipe.common.run;

/**
 * What hashing one batch of passwords did.
 *
 * @param hashes bcrypt hashes written
 * @param cost   the bcrypt cost (log2 rounds) they were computed at
 */
public record HashOutcome(long hashes, int cost) {
}
