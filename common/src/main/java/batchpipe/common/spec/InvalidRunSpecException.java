package batchpipe.common.spec;

import java.util.List;

/** Every problem of a run spec at once, so a user fixes them in one go. Nothing was written. */
public final class InvalidRunSpecException extends IllegalArgumentException {
    private final List<String> problems;

    public InvalidRunSpecException(List<String> problems) {
        super("invalid run spec (" + problems.size() + (problems.size() == 1 ? " problem" : " problems") + "; nothing was written or sent):\n  - "
                + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
