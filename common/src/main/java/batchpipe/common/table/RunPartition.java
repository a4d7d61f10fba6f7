package batchpipe.common.table;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * Reads a run's items from the partition keys its layout ({@link RunPartitions}) puts them on, page by
 * page until DynamoDB has no more, with consistent reads: whoever reads them (the aggregator, the
 * progress count, the audit) must see every write that came first. A run spread over several keys is
 * read with one Query per key, {@value #QUERIES_IN_FLIGHT} at a time.
 */
public final class RunPartition {
    /** Queries in flight at once over a run's keys: each key serves 3,000 read units a second of its own. */
    static final int QUERIES_IN_FLIGHT = 16;

    private RunPartition() {
    }

    /**
     * The run's layout as its run record states it; the single-key layout when the record has no
     * partition count (or there is no record: then there is nothing but {@code run#<runId>} to read).
     */
    public static RunPartitions layoutOf(DynamoDbClient dynamoDb, String table, String runId) {
        return layoutOf(runId, runItem(dynamoDb, table, runId));
    }

    /** The layout a stored run record states (null or empty: there is no record, nothing but the run's own key). */
    public static RunPartitions layoutOf(String runId, Map<String, AttributeValue> runItem) {
        AttributeValue partitions = runItem == null ? null : runItem.get("partitions");
        return partitions == null || partitions.n() == null ? RunPartitions.legacy(runId)
                : RunPartitions.of(runId, Integer.parseInt(partitions.n()));
    }

    /** The run record's item as stored, read consistently with a Query (the readers' one call); null when there is none. */
    public static Map<String, AttributeValue> runItem(DynamoDbClient dynamoDb, String table, String runId) {
        QueryResponse response = dynamoDb.query(QueryRequest.builder().tableName(table).consistentRead(true)
                .keyConditionExpression("pk = :pk AND sk = :sk")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(TableKeys.runPk(runId)), ":sk", AttributeValue.fromS(TableKeys.RUN_SK)))
                .build());
        return response.items().isEmpty() ? null : response.items().get(0);
    }

    /**
     * Hands every item of the run whose sort key starts with {@code skPrefix} (every item when null) to
     * {@code each}, one page at a time, so a caller that only sums need not hold them all. Pages of
     * different keys come in no set order; {@code each} is called by one thread at a time.
     */
    public static void forEach(DynamoDbClient dynamoDb, String table, String runId, String skPrefix, Consumer<Map<String, AttributeValue>> each) {
        forEach(dynamoDb, table, layoutOf(dynamoDb, table, runId), skPrefix, each);
    }

    /** As {@link #forEach(DynamoDbClient, String, String, String, Consumer)}, with the layout already known. */
    public static void forEach(DynamoDbClient dynamoDb, String table, RunPartitions layout, String skPrefix,
                               Consumer<Map<String, AttributeValue>> each) {
        List<String> pks = pksFor(layout, skPrefix);
        if (pks.size() == 1) {
            forEachOnKey(dynamoDb, table, pks.get(0), skPrefix, page -> page.forEach(each));
            return;
        }
        Object delivery = new Object();
        Semaphore slots = new Semaphore(QUERIES_IN_FLIGHT);
        List<Future<?>> queries = new ArrayList<>(pks.size());
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (String pk : pks) {
                queries.add(threads.submit(() -> {
                    slots.acquire();
                    try {
                        forEachOnKey(dynamoDb, table, pk, skPrefix, page -> {
                            synchronized (delivery) {
                                page.forEach(each);
                            }
                        });
                    } finally {
                        slots.release();
                    }
                    return null;
                }));
            }
            for (Future<?> query : queries) {
                try {
                    query.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while reading run " + layout.runId(), e);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException r) throw r;
                    throw new IllegalStateException("could not read run " + layout.runId(), e.getCause());
                }
            }
        }
    }

    /**
     * The keys holding items whose sort key starts with {@code skPrefix}: the run record's key for the run
     * record and summary, the item partitions for tasks, hashes, progress shards, attempts and
     * invocations, every key for null.
     */
    public static List<String> pksFor(RunPartitions layout, String skPrefix) {
        if (skPrefix == null) return layout.allPks();
        boolean onItemPartitions = skPrefix.startsWith(TableKeys.TASK_PREFIX) || skPrefix.startsWith(TableKeys.HASH_PREFIX)
                || skPrefix.startsWith(TableKeys.PROGRESS_PREFIX) || skPrefix.startsWith(TableKeys.ATTEMPT_PREFIX)
                || skPrefix.startsWith(TableKeys.INVOCATION_PREFIX);
        return onItemPartitions ? layout.itemPks() : List.of(layout.runPk());
    }

    /**
     * Items buffered at most by {@link #forEachInSortKeyOrder} over all keys: two pages of each key (the one
     * being merged and the next, fetched ahead), a page holding this over twice the keys. Small because an
     * item is large in the heap: a task record as the SDK's AttributeValue map is ~14 KB against ~850 bytes
     * stored, and 16,000 buffered records (220 MB) made the million-task aggregation under -Xmx768m spend
     * 38 s in collections (91 s in all, against 45 s on one key); 2,000 (~28 MB) cost more, smaller
     * Queries, whose round trips the read-ahead hides (docs/SCALE.md, "Order").
     */
    static final int MERGE_BUFFER_ITEMS = 2_000;
    /** The smallest page a merge asks for, however many keys: below it the Queries, not the buffer, cost. */
    static final int MERGE_MIN_PAGE = 8;

    /**
     * Hands every item of the run whose sort key starts with {@code skPrefix} to {@code each} in the order
     * one Query would return them if the run were on one key: by sort key ({@link TableKeys#SORT_KEY_ORDER}).
     * A Query returns one key's items in that order, so the keys' Queries are merged, k ways, holding at most
     * two pages of each key, pages of {@code max(}{@value #MERGE_MIN_PAGE}{@code , }{@value #MERGE_BUFFER_ITEMS}
     * {@code / (2 x keys))} items (or 1 MB), each key's next page fetched while its current one is merged,
     * {@value #QUERIES_IN_FLIGHT} Queries at a time. {@code each} is called by the caller's thread.
     */
    public static void forEachInSortKeyOrder(DynamoDbClient dynamoDb, String table, RunPartitions layout, String skPrefix,
                                             Consumer<Map<String, AttributeValue>> each) {
        List<String> pks = pksFor(layout, skPrefix);
        if (pks.size() == 1) {
            forEachOnKey(dynamoDb, table, pks.get(0), skPrefix, page -> page.forEach(each));
            return;
        }
        int pageItems = Math.max(MERGE_MIN_PAGE, MERGE_BUFFER_ITEMS / (2 * pks.size()));
        Semaphore slots = new Semaphore(QUERIES_IN_FLIGHT);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            PriorityQueue<KeyCursor> heads = new PriorityQueue<>(Comparator.comparing(KeyCursor::headSk, TableKeys.SORT_KEY_ORDER));
            List<KeyCursor> cursors = new ArrayList<>(pks.size());
            for (String pk : pks) cursors.add(new KeyCursor(dynamoDb, table, pk, skPrefix, pageItems, threads, slots, layout.runId()));
            for (KeyCursor cursor : cursors) if (cursor.advance()) heads.add(cursor);
            while (!heads.isEmpty()) {
                KeyCursor next = heads.poll();
                each.accept(next.take());
                if (next.advance()) heads.add(next);
            }
        }
    }

    /** One key's items in sort-key order, a page at a time, the next page fetched while this one is read. */
    private static final class KeyCursor {
        private final DynamoDbClient dynamoDb;
        private final String table;
        private final String pk;
        private final String skPrefix;
        private final int pageItems;
        private final ExecutorService threads;
        private final Semaphore slots;
        private final String runId;
        private Future<QueryResponse> nextPage;
        private List<Map<String, AttributeValue>> page = List.of();
        private int at;
        private String headSk;

        KeyCursor(DynamoDbClient dynamoDb, String table, String pk, String skPrefix, int pageItems, ExecutorService threads,
                  Semaphore slots, String runId) {
            this.dynamoDb = dynamoDb;
            this.table = table;
            this.pk = pk;
            this.skPrefix = skPrefix;
            this.pageItems = pageItems;
            this.threads = threads;
            this.slots = slots;
            this.runId = runId;
            this.nextPage = fetch(null);
        }

        private Future<QueryResponse> fetch(Map<String, AttributeValue> startKey) {
            QueryRequest request = query(table, pk, skPrefix).limit(pageItems).exclusiveStartKey(startKey).build();
            return threads.submit(() -> {
                slots.acquire();
                try {
                    return dynamoDb.query(request);
                } finally {
                    slots.release();
                }
            });
        }

        /** Moves to the next item, waiting for the next page when this one is used up; false when the key has no more. */
        boolean advance() {
            while (at >= page.size()) {
                if (nextPage == null) return false;
                QueryResponse response = await(nextPage);
                page = response.items();
                at = 0;
                nextPage = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                        ? fetch(response.lastEvaluatedKey()) : null;
            }
            headSk = page.get(at).get(TableKeys.SK).s();
            return true;
        }

        String headSk() {
            return headSk;
        }

        Map<String, AttributeValue> take() {
            return page.get(at++);
        }

        private QueryResponse await(Future<QueryResponse> response) {
            try {
                return response.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while reading run " + runId, e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException r) throw r;
                throw new IllegalStateException("could not read run " + runId + " on " + pk, e.getCause());
            }
        }
    }

    private static QueryRequest.Builder query(String table, String pk, String skPrefix) {
        QueryRequest.Builder request = QueryRequest.builder().tableName(table).consistentRead(true);
        if (skPrefix == null) {
            request.keyConditionExpression("pk = :pk").expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(pk)));
        } else {
            request.keyConditionExpression("pk = :pk AND begins_with(sk, :sk)")
                    .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(pk), ":sk", AttributeValue.fromS(skPrefix)));
        }
        return request;
    }

    /** Every item on one partition key whose sort key starts with {@code skPrefix} (all when null), a page at a time. */
    public static void forEachOnKey(DynamoDbClient dynamoDb, String table, String pk, String skPrefix,
                                    Consumer<List<Map<String, AttributeValue>>> eachPage) {
        QueryRequest.Builder request = query(table, pk, skPrefix);
        Map<String, AttributeValue> startKey = null;
        do {
            QueryResponse page = dynamoDb.query(request.exclusiveStartKey(startKey).build());
            eachPage.accept(page.items());
            startKey = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (startKey != null);
    }

    /** Every item of the run whose sort key starts with {@code skPrefix} (every item when null). */
    public static List<Map<String, AttributeValue>> items(DynamoDbClient dynamoDb, String table, String runId, String skPrefix) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        forEach(dynamoDb, table, runId, skPrefix, items::add);
        return items;
    }

    /** As {@link #items(DynamoDbClient, String, String, String)}, with the layout already known. */
    public static List<Map<String, AttributeValue>> items(DynamoDbClient dynamoDb, String table, RunPartitions layout, String skPrefix) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        forEach(dynamoDb, table, layout, skPrefix, items::add);
        return items;
    }
}
