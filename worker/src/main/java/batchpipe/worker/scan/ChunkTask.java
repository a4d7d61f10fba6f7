package batchpipe.worker.scan;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One chunk of whole lines waiting to be tallied. Whoever claims it first runs it: a pool thread, or the
 * reading thread when it would otherwise wait for a free buffer.
 */
final class ChunkTask implements Runnable {

    private static final int PENDING = 0;
    private static final int RUNNING = 1;
    private static final int DONE = 2;
    private static final int CANCELLED = 3;

    private final ScanRun run;
    private final AtomicInteger state;
    private final CountDownLatch finished;
    private byte[] buffer;
    private final int length;
    private ChunkTally tally;
    private Throwable failure;

    ChunkTask(ScanRun run, byte[] buffer, int length) {
        this.run = run;
        this.buffer = buffer;
        this.length = length;
        this.state = new AtomicInteger(PENDING);
        this.finished = new CountDownLatch(1);
    }

    /** An already tallied chunk (a long line parsed by the reader, or a skipped oversized line). */
    static ChunkTask completed(ScanRun run, ChunkTally tally) {
        ChunkTask task = new ChunkTask(run, null, 0);
        task.tally = tally;
        task.state.set(DONE);
        task.finished.countDown();
        return task;
    }

    /** Pool entry point. */
    @Override
    public void run() {
        if (state.compareAndSet(PENDING, RUNNING)) {
            ChunkParser parser = run.borrowParser();
            try {
                execute(parser);
            } finally {
                run.returnParser(parser);
            }
        }
    }

    /** Runs the chunk on the calling thread if nobody has started it; true when it did. */
    boolean runIfPending(ChunkParser parser) {
        if (state.compareAndSet(PENDING, RUNNING)) {
            execute(parser);
            return true;
        }
        return false;
    }

    private void execute(ChunkParser parser) {
        try {
            tally = parser.parse(buffer, 0, length);
        } catch (Throwable t) {
            failure = t;
        } finally {
            byte[] b = buffer;
            buffer = null;
            run.releaseBuffer(b);
            state.set(DONE);
            finished.countDown();
        }
    }

    boolean isPending() {
        return state.get() == PENDING;
    }

    boolean isDone() {
        return state.get() == DONE;
    }

    void awaitDone() throws InterruptedException {
        finished.await();
    }

    /** Stops a chunk nobody started; returns false when it is already running or done. */
    boolean cancelIfPending() {
        return state.compareAndSet(PENDING, CANCELLED);
    }

    /** The tally of a done chunk; rethrows what the parse threw. */
    ChunkTally tally() {
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure != null) {
            throw new IllegalStateException("chunk parse failed", failure);
        }
        return tally;
    }
}
