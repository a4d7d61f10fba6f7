package batchpipe.producer.plan;

import batchpipe.common.run.PlanCursor;
import batchpipe.common.spec.RunSpec;
import batchpipe.common.table.ProgressShards;
import batchpipe.common.task.HashTask;
import batchpipe.common.task.ScanTask;
import batchpipe.common.task.Task;
import batchpipe.common.task.TaskIds;
import batchpipe.producer.listing.ObjectLister;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cuts a run into pages: each scan source's listing, one ListObjectsV2 page (up to 1,000 keys) at a
 * time, then the hash batches, {@value #HASH_BATCHES_PER_PAGE} at a time. The page at a cursor depends
 * only on the cursor, the spec and the bucket's contents, so an invocation that resumes at a cursor plans
 * the page an earlier one may have begun, and no other.
 */
public final class PlanPager {
    public static final int HASH_BATCHES_PER_PAGE = 1_000;

    private final ObjectLister lister;

    public PlanPager(ObjectLister lister) {
        this.lister = lister;
    }

    /**
     * One planned page: its tasks, the progress shards that count them, and the cursor after it.
     */
    public record Page(List<Task> tasks, ProgressShards.PageShards shards, PlanCursor next) {
        public long scanTasks() {
            return tasks.stream().filter(t -> t instanceof ScanTask).count();
        }
    }

    /** Whether every page of the spec has been planned. */
    public static boolean done(RunSpec spec, PlanCursor cursor) {
        return cursor.source() >= spec.scan().size() + (spec.hash() == null ? 0 : 1);
    }

    /** The page at {@code cursor}, its tasks enqueued at {@code now}. */
    public Page page(String runId, RunSpec spec, PlanCursor cursor, Instant now) {
        if (done(spec, cursor)) throw new IllegalStateException("run " + runId + " has no page after page " + cursor.page());
        return cursor.source() < spec.scan().size() ? scanPage(runId, spec, cursor, now) : hashPage(runId, spec.hash(), cursor, now);
    }

    private Page scanPage(String runId, RunSpec spec, PlanCursor cursor, Instant now) {
        int index = cursor.source();
        RunSpec.ScanSource source = spec.scan().get(index);
        long cap = source.maxObjects() == null ? Long.MAX_VALUE : source.maxObjects();
        ObjectLister.ListedPage listed = lister.page(source, cursor.after());
        List<Task> tasks = new ArrayList<>();
        long counted = cursor.sourcePlanned();
        String last = cursor.after();
        String cappedAt = null;
        for (S3Object object : listed.objects()) {
            last = object.key();
            if (!ObjectLister.scannable(source, object)) continue;
            counted++;
            if (!plannedByAnEarlierSource(spec, index, cursor.cappedAt(), source.bucket(), object.key())) {
                tasks.add(new ScanTask(runId, TaskIds.scanTaskId(runId, source.bucket(), object.key()), now, source.bucket(), object.key(),
                        source.countBy(), source.match()));
            }
            if (counted >= cap) {
                cappedAt = object.key();
                break;
            }
        }
        boolean sourceDone = cappedAt != null || !listed.truncated() || listed.objects().isEmpty();
        ProgressShards.PageShards shards = ProgressShards.PageShards.of(cursor.shards(), tasks.size());
        Map<Integer, String> capped = cursor.cappedAt();
        if (cappedAt != null) {
            capped = new HashMap<>(capped);
            capped.put(index, cappedAt);
        }
        PlanCursor next = sourceDone
                ? new PlanCursor(cursor.page() + 1, index + 1, null, 0, cursor.scan() + tasks.size(), cursor.hash(), shards.next(), capped)
                : new PlanCursor(cursor.page() + 1, index, last, counted, cursor.scan() + tasks.size(), cursor.hash(), shards.next(), capped);
        return new Page(tasks, shards, next);
    }

    /**
     * Whether a source listed before this one plans the key already: sources may overlap (a prefix and a
     * longer one in the same bucket), and an object is scanned once. An earlier source that stopped at its
     * maxObjects planned its keys only up to the one it stopped at.
     */
    static boolean plannedByAnEarlierSource(RunSpec spec, int index, Map<Integer, String> cappedAt, String bucket, String key) {
        for (int i = 0; i < index; i++) {
            RunSpec.ScanSource earlier = spec.scan().get(i);
            if (!earlier.bucket().equals(bucket) || !key.startsWith(earlier.prefix())) continue;
            if (earlier.suffix() != null && !key.endsWith(earlier.suffix())) continue;
            String stop = cappedAt.get(i);
            if (stop == null || compareAsS3Does(key, stop) <= 0) return true;
        }
        return false;
    }

    /** S3 lists keys in the binary order of their UTF-8 bytes, which is not String's UTF-16 order. */
    static int compareAsS3Does(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private static Page hashPage(String runId, RunSpec.HashSpec hash, PlanCursor cursor, Instant now) {
        int after = cursor.after() == null ? 0 : Integer.parseInt(cursor.after());
        int last = Math.min(hash.batches(), after + HASH_BATCHES_PER_PAGE);
        List<Task> tasks = new ArrayList<>(last - after);
        for (int batch = after + 1; batch <= last; batch++) {
            tasks.add(new HashTask(runId, TaskIds.hashTaskId(batch), now, hash.cost(), hash.batchSize(), hash.prefix(), hash.firstIndex(batch),
                    null));
        }
        ProgressShards.PageShards shards = ProgressShards.PageShards.of(cursor.shards(), tasks.size());
        boolean allPlanned = last >= hash.batches();
        PlanCursor next = new PlanCursor(cursor.page() + 1, allPlanned ? cursor.source() + 1 : cursor.source(),
                allPlanned ? null : Integer.toString(last), 0, cursor.scan(), cursor.hash() + tasks.size(), shards.next(), cursor.cappedAt());
        return new Page(tasks, shards, next);
    }
}
