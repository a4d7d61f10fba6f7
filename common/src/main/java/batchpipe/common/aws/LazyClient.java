package batchpipe.common.aws;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * An SDK client built the first time it is needed, then reused. A worker that is only ever given hash
 * tasks never builds its S3 client, and most tasks never need the SQS client (only the one that
 * completes a run does); building a client loads hundreds of classes and its endpoint rules, which an
 * on-demand cold start would otherwise pay before the first response. With SnapStart the handler forces
 * its lazy clients in a priming step, so the snapshot holds them built, as before.
 */
public final class LazyClient<T> implements Supplier<T> {
    private final Supplier<T> factory;
    private volatile T client;

    private LazyClient(Supplier<T> factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    public static <T> LazyClient<T> of(Supplier<T> factory) {
        return new LazyClient<>(factory);
    }

    /** A client that is already built (tests, and callers that have one). */
    public static <T> LazyClient<T> built(T client) {
        LazyClient<T> lazy = new LazyClient<>(() -> client);
        lazy.client = Objects.requireNonNull(client, "client");
        return lazy;
    }

    @Override
    public T get() {
        T built = client;
        if (built == null) {
            synchronized (this) {
                built = client;
                if (built == null) {
                    built = Objects.requireNonNull(factory.get(), "the client factory returned null");
                    client = built;
                }
            }
        }
        return built;
    }

    /** True once the client exists. */
    public boolean isBuilt() {
        return client != null;
    }
}
