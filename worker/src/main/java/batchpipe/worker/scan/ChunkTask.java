package batchpipe.worker.scan;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A batch of consecutive chunks of whole lines waiting to be tallied, one tally per chunk. Whoever claims it
 * first runs it: a pool thread, or the reading thread when it would otherwise wait for a free buffer. A
 * batch of several chunks hands the pool the same tallies as one task per chunk would, with fewer hand-offs.
 */
final class ChunkTask implements Runnable {

    private static final int PENDING = 0;
    private static final int RUNNING = 1;
    private static final int DONE = 2;
    private static final int CANCELLED = 3;

    private final ScanRun run;
    private final AtomicInteger state;
    private final CountDownLatch finished;
    private final byte[][] buffers;
    private final int[] lengths;
    private final ChunkTally[] tallies;
    private Throwable failure;

    ChunkTask(ScanRun run, byte[][] buffers, int[] lengths, int count) {
        this.run = run;
        this.buffers = Arrays.copyOf(buffers, count);
        this.lengths = Arrays.copyOf(lengths, count);
        this.tallies = new ChunkTally[count];
        this.state = new AtomicInteger(PENDING);
        this.finished = new CountDownLatch(1);
    }

    /** An already tallied chunk (a long line parsed by the reader, or a skipped oversized line). */
    static ChunkTask completed(ScanRun run, ChunkTally tally) {
        ChunkTask task = new ChunkTask(run, new byte[][] {null}, new int[] {0}, 1);
        task.tallies[0] = tally;
        task.state.set(DONE);
        task.finished.countDown();
        return task;
    }

    /** Pool entry point. */
    @Override
    public void run() {
        if (state.compareAndSet(PENDING, RUNNING)) {
            ChunkParser parser;
            try {
                parser = run.borrowParser();
            } catch (Throwable t) { // a new parser's tables did not fit: the task still ends, failed, and the reader sees it
                fail(t);
                return;
            }
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
        int i = 0;
        try {
            for (; i < buffers.length; i++) {
                tallies[i] = parser.parse(buffers[i], 0, lengths[i]);
                release(i); // at once: the reader may be waiting for a buffer
            }
        } catch (Throwable t) {
            failure = t;
        } finally {
            finish(i);
        }
    }

    private void fail(Throwable t) {
        failure = t;
        finish(0);
    }

    /** Gives back the buffers from {@code from} on and marks the task done. */
    private void finish(int from) {
        for (int i = from; i < buffers.length; i++) {
            release(i);
        }
        state.set(DONE);
        finished.countDown();
    }

    private void release(int i) {
        byte[] b = buffers[i];
        buffers[i] = null;
        run.releaseBuffer(b);
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

    /** The tallies of a done batch, one per chunk in order; rethrows what a parse threw. */
    ChunkTally[] tallies() {
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure != null) {
            throw new IllegalStateException("chunk parse failed", failure);
        }
        return tallies;
    }
}
