package batchpipe.local.chaos;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One local invocation as the fault injector sees it. Inherited by every thread the handler starts
 * (the worker's per-message virtual threads inherit it), so SDK calls made for this invocation can be
 * told apart from the harness's own. Once {@link #kill}ed, every further SDK call of the invocation
 * fails: the instance is dead, whatever its threads still try.
 */
public final class InvocationScope {
    private static final InheritableThreadLocal<InvocationScope> CURRENT = new InheritableThreadLocal<>();

    private final String functionLogicalId;
    private final AtomicInteger writes = new AtomicInteger();
    private final AtomicBoolean dead = new AtomicBoolean();
    private final CompletableFuture<String> killed = new CompletableFuture<>();
    private volatile int crashAfterWrites = -1;
    private volatile boolean abort;

    public InvocationScope(String functionLogicalId) {
        this.functionLogicalId = functionLogicalId;
    }

    public static InvocationScope current() {
        return CURRENT.get();
    }

    public static void enter(InvocationScope scope) {
        CURRENT.set(scope);
    }

    public static void leave() {
        CURRENT.remove();
    }

    public String functionLogicalId() {
        return functionLogicalId;
    }

    /** Arms a crash after the given number of DynamoDB writes; {@code abort} skips the handler's cleanup too. */
    public void armCrash(int afterWrites, boolean abort) {
        this.crashAfterWrites = afterWrites;
        this.abort = abort;
    }

    /** Counts a write; true when this write is the one the armed crash happens after. */
    boolean countWriteAndCheckCrash() {
        int n = writes.incrementAndGet();
        return crashAfterWrites > 0 && n == crashAfterWrites;
    }

    public boolean aborts() {
        return abort;
    }

    public void kill(String why) {
        dead.set(true);
        killed.complete(why);
    }

    public boolean dead() {
        return dead.get();
    }

    /** Completes when the instance is killed: the runtime stops waiting for the handler then. */
    public CompletableFuture<String> killed() {
        return killed;
    }
}
