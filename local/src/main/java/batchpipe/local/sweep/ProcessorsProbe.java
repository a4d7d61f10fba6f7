package batchpipe.local.sweep;

/**
 * Started by the sweep inside a configuration's cgroup: prints the processors the JVM sees there, which
 * it derives from the CFS quota (rounded up to whole CPUs). The worker sizes its pool from the memory
 * size, capped by this number, so this is the check that the quota reaches the JVM.
 */
public final class ProcessorsProbe {
    private ProcessorsProbe() {
    }

    public static void main(String[] args) {
        System.out.println(Runtime.getRuntime().availableProcessors());
    }
}
