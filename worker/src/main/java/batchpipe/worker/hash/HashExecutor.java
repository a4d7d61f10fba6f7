package batchpipe.worker.hash;

import batchpipe.common.table.RunPartitions;
import batchpipe.common.task.HashTask;
import batchpipe.common.trace.Tracing;
import batchpipe.worker.task.WriteStats;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;

/**
 * Hashes a batch on the worker's ForkJoin pool and stores each hash as its own item while hashing
 * goes on: as soon as 25 hashes are ready they are written, so DynamoDB latency overlaps CPU work.
 */
public final class HashExecutor {
    private final ForkJoinPool pool;
    private final HashSink writer;

    public HashExecutor(ForkJoinPool pool, HashSink writer) {
        this.pool = pool;
        this.writer = writer;
    }

    /** Returns the number of hashes stored. With X-Ray on, the whole of it is the subsegment "bcrypt" (its writes are "DynamoDB" ones). */
    public int execute(HashTask task, WriteStats writes) throws InterruptedException {
        return execute(task, RunPartitions.legacy(task.runId()), writes);
    }

    /** As {@link #execute(HashTask, WriteStats)}, its items on the task's partition key of the run's layout. */
    public int execute(HashTask task, RunPartitions layout, WriteStats writes) throws InterruptedException {
        return Tracing.current().trace("bcrypt", () -> hashAndStore(task, layout, writes));
    }

    private int hashAndStore(HashTask task, RunPartitions layout, WriteStats writes) throws InterruptedException {
        ExecutorCompletionService<Map<String, AttributeValue>> completed = new ExecutorCompletionService<>(pool);
        List<Future<Map<String, AttributeValue>>> futures = new ArrayList<>(task.count());
        for (int i = 0; i < task.count(); i++) {
            int position = i;
            futures.add(completed.submit(() -> {
                String hash = Bcrypt.hashpw(task.input(position), Bcrypt.gensalt(task.cost()));
                return HashItemWriter.item(layout, task.taskId(), task.itemIndex(position), hash, task.cost());
            }));
        }
        List<Map<String, AttributeValue>> batch = new ArrayList<>(HashItemWriter.MAX_BATCH);
        try {
            for (int done = 0; done < task.count(); done++) {
                batch.add(completed.take().get());
                if (batch.size() == HashItemWriter.MAX_BATCH) {
                    writer.write(batch, writes);
                    batch = new ArrayList<>(HashItemWriter.MAX_BATCH);
                }
            }
            if (!batch.isEmpty()) {
                writer.write(batch, writes);
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("hashing failed: " + e.getCause().getClass().getSimpleName(), e.getCause());
        } finally {
            futures.forEach(f -> f.cancel(false));
        }
        return task.count();
    }
}
