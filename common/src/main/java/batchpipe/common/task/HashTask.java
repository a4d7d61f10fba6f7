package batchpipe.common.task;

import java.util.Locale;
import java.time.Instant;
import java.util.List;

/**
 * Bcrypt a batch of passwords at a cost. Inputs are either generated ({@code prefix} followed by the
 * index as six digits, starting at {@code start}, as in the published Lambda bcrypt benchmark) or given
 * explicitly. {@link #toString()} never shows the inputs: they are secrets.
 */
public record HashTask(String runId, String taskId, Instant enqueuedAt, int cost, int count, String prefix,
                       long start, List<String> inputs) implements Task {
    public HashTask {
        inputs = inputs == null ? null : List.copyOf(inputs);
    }

    @Override
    public TaskKind kind() {
        return TaskKind.HASH;
    }

    /** The password at position {@code i} (0-based) of this batch. */
    public String input(int i) {
        return inputs != null ? inputs.get(i) : prefix + String.format(Locale.ROOT, "%06d", start + i);
    }

    /** The index under which hash number {@code i} of this batch is stored. */
    public long itemIndex(int i) {
        return start + i;
    }

    @Override
    public String toString() {
        return "HashTask[runId=" + runId + ", taskId=" + taskId + ", cost=" + cost + ", count=" + count
                + (inputs != null ? ", inputs=<" + inputs.size() + " hidden>" : ", prefix=<hidden>") + "]";
    }
}
