package batchpipe.common.run;

import java.util.Locale;

/**
 * How a task ended. Every task gets exactly one final record with one of these, and the run counts it
 * under that status ({@code done}, {@code rejected} or {@code failed} in the progress shards).
 */
public enum TaskStatus {
    /** Its work was done and its result written. */
    DONE,
    /** Its input can never succeed (a corrupt object, an invalid task): not retried. */
    REJECTED,
    /** It failed on every allowed receive, or went through the dead-letter queue without a record. */
    FAILED;

    /** The lower-case name stored in records and shown in reports. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The status a record stores; an unknown name is an error that names it. */
    public static TaskStatus fromWireName(String name) {
        for (TaskStatus status : values()) {
            if (status.wireName().equals(name)) return status;
        }
        throw new IllegalArgumentException("unknown task status '" + name + "': expected done, rejected or failed");
    }

    @Override
    public String toString() {
        return wireName();
    }
}
