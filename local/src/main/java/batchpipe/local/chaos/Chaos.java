package batchpipe.local.chaos;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fault injector's decisions and counts. One seeded random source, so a seed replays the same
 * decisions for the same sequence of calls (thread scheduling can still reorder calls between runs).
 * Process-wide because the SDK builds its global interceptor by class name; inactive unless
 * {@link #activate} was called, and only ever active in the local CLI and its tests.
 */
public final class Chaos {
    private static volatile Chaos active;

    private final Set<ChaosProfile> profiles;
    private final double rate;
    private final long seed;
    private final SplittableRandom random;
    private final Map<String, AtomicLong> injected = new ConcurrentHashMap<>();
    private final boolean firstChanceStrikes;
    private final Set<ChaosProfile> struck = EnumSet.noneOf(ChaosProfile.class);
    /** A task whose every delivery crashes its instance, or null. */
    private final String crashedTaskId;

    private Chaos(Set<ChaosProfile> profiles, double rate, long seed, boolean firstChanceStrikes, String crashedTaskId) {
        this.profiles = profiles.isEmpty() ? EnumSet.noneOf(ChaosProfile.class) : EnumSet.copyOf(profiles);
        this.crashedTaskId = crashedTaskId;
        this.rate = rate;
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.firstChanceStrikes = firstChanceStrikes;
    }

    public static Chaos activate(Set<ChaosProfile> profiles, double rate, long seed) {
        return activate(profiles, rate, seed, false);
    }

    /**
     * @param firstChanceStrikes every profile's first chance injects its fault, whatever the rate: a run
     *                           then proves each fault was met, not merely that it might have been
     */
    public static Chaos activate(Set<ChaosProfile> profiles, double rate, long seed, boolean firstChanceStrikes) {
        return activate(profiles, rate, seed, firstChanceStrikes, null);
    }

    /**
     * @param crashedTaskId a task id whose every delivery crashes the worker instance that runs it (after
     *                      its first DynamoDB write, or before any when it makes none), or null; with it,
     *                      {@code profiles} may be empty
     */
    public static Chaos activate(Set<ChaosProfile> profiles, double rate, long seed, boolean firstChanceStrikes, String crashedTaskId) {
        if (rate < 0 || rate > 1) throw new IllegalArgumentException("chaos rate must be between 0 and 1, got " + rate);
        if (profiles.isEmpty() && crashedTaskId == null) throw new IllegalArgumentException("no chaos profile given");
        if (crashedTaskId != null && !crashedTaskId.matches("[A-Za-z0-9._-]{1,128}")) {
            throw new IllegalArgumentException("--chaos-crash-task must be a task id such as hash-000002 or scan-2b4f03872174d4d6, got '"
                    + crashedTaskId.replaceAll("\\p{Cntrl}", "?") + "'");
        }
        Chaos chaos = new Chaos(profiles, rate, seed, firstChanceStrikes, crashedTaskId);
        active = chaos;
        return chaos;
    }

    /** The task whose every delivery crashes its instance, or null. */
    public String crashedTaskId() {
        return crashedTaskId;
    }

    /** Whether an invocation's event delivers the task whose every delivery crashes; counts it when so. */
    public boolean deliversCrashedTask(String event) {
        if (crashedTaskId == null) return false;
        // The task is a JSON string inside the SQS event's JSON: its quotes arrive escaped.
        boolean delivers = event.contains("\\\"taskId\\\":\\\"" + crashedTaskId + "\\\"") || event.contains("\"taskId\":\"" + crashedTaskId + "\"");
        if (delivers) count("forced crash of task " + crashedTaskId);
        return delivers;
    }

    public static void deactivate() {
        active = null;
    }

    /** The active injector, or null. */
    public static Chaos active() {
        return active;
    }

    /**
     * Faults hit the worker, the function that does the work; the producer, the aggregator and the
     * dead-letter recorder run clean.
     */
    public boolean targets(String functionLogicalId) {
        return "WorkerFunction".equals(functionLogicalId);
    }

    public boolean has(ChaosProfile profile) {
        return profiles.contains(profile);
    }

    /** Whether to inject a fault of {@code profile} now (at the configured rate); counts it when so. */
    public boolean strike(ChaosProfile profile, String what) {
        if (!profiles.contains(profile)) return false;
        boolean strike;
        synchronized (random) {
            strike = (firstChanceStrikes && struck.add(profile)) || random.nextDouble() < rate;
        }
        if (strike) count(what);
        return strike;
    }

    /** A seeded number in [1, bound]. */
    public int upTo(int bound) {
        synchronized (random) {
            return 1 + random.nextInt(Math.max(1, bound));
        }
    }

    public void count(String what) {
        injected.computeIfAbsent(what, k -> new AtomicLong()).incrementAndGet();
    }

    /** How many faults of each kind were injected so far. */
    public Map<String, Long> injected() {
        Map<String, Long> counts = new TreeMap<>();
        injected.forEach((k, v) -> counts.put(k, v.get()));
        return counts;
    }

    public Set<ChaosProfile> profiles() {
        return EnumSet.copyOf(profiles);
    }

    public double rate() {
        return rate;
    }

    public long seed() {
        return seed;
    }
}
