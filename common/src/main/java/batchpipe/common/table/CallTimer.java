package batchpipe.common.table;

import java.util.function.Supplier;

/** Times the DynamoDB calls made for one task, each named by what it is for, so their latencies can be reported. */
public interface CallTimer {
    /** Calls that nobody reports on. */
    CallTimer UNTIMED = new CallTimer() {
        @Override
        public <T> T time(TableCall call, Supplier<T> work) {
            return work.get();
        }
    };

    <T> T time(TableCall call, Supplier<T> work);
}
