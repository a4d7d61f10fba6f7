package batchpipe.common.run;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a run's planning has got, kept on the run record ({@code planning}) while the run is being
 * planned, so that planning can go on in another producer invocation and pick up exactly where the
 * last one left off. The producer plans a run one page at a time (up to 1,000 listed keys, or 1,000
 * hash batches); each page's progress shards are written before its tasks are sent, and the cursor
 * moves past the page with a write conditional on {@code page}, so a page is planned once however often
 * an invocation that planned it dies and is retried. The record loses its cursor, and gains its shard
 * count, when the last page is planned: until then the run cannot complete.
 *
 * @param page          pages planned so far (the next page's number)
 * @param source        the scan source being listed (its index in the spec); the number of scan sources
 *                      once every source is listed and the hash batches are being planned
 * @param after         the last key S3 listed for {@code source} (ListObjectsV2's StartAfter), or the last
 *                      hash batch planned, as text; null at the start of a source
 * @param sourcePlanned keys of {@code source} planned so far (for its {@code maxObjects})
 * @param scan          scan tasks planned so far
 * @param hash          hash tasks planned so far
 * @param shards        progress shards given out so far: the next page's first shard
 * @param cappedAt      for each finished source that stopped at its {@code maxObjects}, the last key it planned:
 *                      a later overlapping source plans the keys after it
 */
public record PlanCursor(long page, int source, String after, long sourcePlanned, long scan, long hash, int shards,
                         Map<Integer, String> cappedAt) {
    public static final PlanCursor START = new PlanCursor(0, 0, null, 0, 0, 0, 0, Map.of());

    public PlanCursor {
        cappedAt = Map.copyOf(cappedAt);
    }

    public AttributeValue toAttribute() {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        m.put("page", AttributeValue.fromN(Long.toString(page)));
        m.put("source", AttributeValue.fromN(Integer.toString(source)));
        if (after != null) m.put("after", AttributeValue.fromS(after));
        m.put("sourcePlanned", AttributeValue.fromN(Long.toString(sourcePlanned)));
        m.put("scan", AttributeValue.fromN(Long.toString(scan)));
        m.put("hash", AttributeValue.fromN(Long.toString(hash)));
        m.put("shards", AttributeValue.fromN(Integer.toString(shards)));
        Map<String, AttributeValue> capped = new TreeMap<>();
        cappedAt.forEach((source, key) -> capped.put(Integer.toString(source), AttributeValue.fromS(key)));
        m.put("cappedAt", AttributeValue.fromM(capped));
        return AttributeValue.fromM(m);
    }

    public static PlanCursor fromAttribute(Map<String, AttributeValue> stored) {
        ItemReader m = new ItemReader(stored, "run record planning");
        Map<Integer, String> capped = new TreeMap<>();
        Map<String, AttributeValue> cappedItem = m.map("cappedAt");
        if (cappedItem != null) cappedItem.forEach((source, key) -> capped.put(Integer.parseInt(source), key.s()));
        return new PlanCursor(m.longOr("page", 0), Math.toIntExact(m.longOr("source", 0)), m.string("after"), m.longOr("sourcePlanned", 0),
                m.longOr("scan", 0), m.longOr("hash", 0), Math.toIntExact(m.longOr("shards", 0)), capped);
    }
}
