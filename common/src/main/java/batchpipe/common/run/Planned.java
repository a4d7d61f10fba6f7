package batchpipe.common.run;

/**
 * The tasks a run planned.
 *
 * @param scan  scan tasks (one per object)
 * @param hash  hash tasks (one per batch of passwords)
 * @param total scan + hash
 */
public record Planned(long scan, long hash, long total) {
}
