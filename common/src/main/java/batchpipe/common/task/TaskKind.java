package batchpipe.common.task;

import java.util.Locale;

public enum TaskKind {
    SCAN, HASH;

    /** The lower-case name used in messages, records and reports. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TaskKind fromWireName(String name) {
        for (TaskKind kind : values()) {
            if (kind.wireName().equals(name)) return kind;
        }
        return null;
    }
}
