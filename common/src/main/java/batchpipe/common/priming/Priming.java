package batchpipe.common.priming;

import batchpipe.common.log.StructuredLog;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A function's SnapStart runtime hooks. Lambda calls {@link #beforeCheckpoint} once, after the
 * handler is constructed and before it snapshots the JVM for a published version, and
 * {@link #afterRestore} in every execution environment it resumes from that snapshot.
 *
 * <p>Before the checkpoint, the named warm-up steps run the function's hot paths on built-in data
 * (never on the user's buckets, queues or table) so the snapshot holds loaded, initialised and
 * partly compiled classes. A step that fails is logged and skipped: the function works unprimed,
 * only its first invocations are slower. After a restore, the JVM-wide {@code SecureRandom} state
 * (the mixer every default {@code SecureRandom} shares, run ids and SDK invocation ids included) is
 * reseeded with entropy drawn after the restore, because every copy resumed from one snapshot
 * starts with the same state.
 *
 * <p>The handler must hold the returned instance in a field: the runtime keeps registered
 * resources only weakly.
 */
public final class Priming implements Resource {
    private static final StructuredLog LOG = StructuredLog.of(Priming.class);
    private static final int RESEED_BYTES = 32;

    /** One warm-up: any exception it throws is logged and the next step runs. */
    @FunctionalInterface
    public interface Step {
        void run() throws Exception;
    }

    /** What {@link #prime()} did: milliseconds per step, in order, and the steps that failed. */
    public record Report(Map<String, Long> millis, List<String> failed) {
    }

    private final String function;
    private final Map<String, Step> steps;
    private final List<Runnable> afterRestore;

    private Priming(String function, Map<String, Step> steps, List<Runnable> afterRestore) {
        this.function = function;
        this.steps = new LinkedHashMap<>(steps);
        this.afterRestore = List.copyOf(afterRestore);
    }

    public static Builder of(String function) {
        return new Builder(function);
    }

    public static final class Builder {
        private final String function;
        private final Map<String, Step> steps = new LinkedHashMap<>();
        private final List<Runnable> afterRestore = new ArrayList<>();

        private Builder(String function) {
            this.function = Objects.requireNonNull(function, "function");
        }

        public Builder warm(String name, Step step) {
            if (steps.putIfAbsent(name, Objects.requireNonNull(step, "step")) != null) {
                throw new IllegalArgumentException("priming step '" + name + "' is declared twice");
            }
            return this;
        }

        /** Runs after every restore, once the entropy is fresh (e.g. marking the next invocation a cold start). */
        public Builder afterRestore(Runnable action) {
            afterRestore.add(Objects.requireNonNull(action, "action"));
            return this;
        }

        /** The hooks, not registered anywhere (tests call {@link #prime()} themselves). */
        public Priming build() {
            return new Priming(function, steps, afterRestore);
        }

        /** The hooks, registered with the global CRaC context that Lambda's runtime drives. */
        public Priming register() {
            Priming priming = build();
            Core.getGlobalContext().register(priming);
            return priming;
        }
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        prime();
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
        restore();
    }

    public Report prime() {
        Map<String, Long> millis = new LinkedHashMap<>();
        List<String> failed = new ArrayList<>();
        long all = System.nanoTime();
        steps.forEach((name, step) -> {
            long start = System.nanoTime();
            try {
                step.run();
            } catch (Exception | LinkageError e) {
                failed.add(name);
                LOG.warn("priming step failed; the function works, its first invocations are slower",
                        "function", function, "step", name, "error", e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            millis.put(name, (System.nanoTime() - start) / 1_000_000);
        });
        LOG.info("primed before the snapshot", "function", function, "stepMillis", millis, "failed", failed,
                "totalMillis", (System.nanoTime() - all) / 1_000_000);
        return new Report(millis, List.copyOf(failed));
    }

    public void restore() {
        String algorithm = reseedSharedSecureRandom();
        afterRestore.forEach(Runnable::run);
        LOG.info("restored from the snapshot", "function", function, "reseeded", algorithm);
    }

    /**
     * Feeds fresh entropy to the default {@code SecureRandom}. On Linux that is NativePRNG, whose
     * instances share one mixing generator, so one {@code setSeed} reaches every instance created
     * before the snapshot; the seed comes from {@code /dev/urandom} read now, plus the clock.
     * Returns the algorithm reseeded.
     */
    static String reseedSharedSecureRandom() {
        SecureRandom shared = new SecureRandom();
        byte[] seed;
        try {
            seed = SecureRandom.getInstance("NativePRNGNonBlocking").generateSeed(RESEED_BYTES);
        } catch (NoSuchAlgorithmException notUnix) {
            seed = SecureRandom.getSeed(RESEED_BYTES);
        }
        shared.setSeed(seed);
        shared.setSeed(System.nanoTime() ^ System.currentTimeMillis());
        return shared.getAlgorithm();
    }
}
