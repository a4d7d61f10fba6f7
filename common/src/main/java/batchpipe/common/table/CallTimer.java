package batchpipe.common.table;

import java.util.function.Supplier;

/** Times the DynamoDB calls made for one task, so its record can state them. */
public interface CallTimer {
    /** Calls that nobody reports on. */
    CallTimer UNTIMED = new CallTimer() {
        @Override
        public <T> T time(Supplier<T> call) {
            return call.get();
        }
    };

    <T> T time(Supplier<T> call);
}
