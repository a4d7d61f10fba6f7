package batchpipe.common.table;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressShardsTest {

    @Test
    void shardCount_roundsUpToWholeShardsOfEightHundred() {
        assertThat(ProgressShards.shardCount(0)).isEqualTo(1);
        assertThat(ProgressShards.shardCount(1)).isEqualTo(1);
        assertThat(ProgressShards.shardCount(800)).isEqualTo(1);
        assertThat(ProgressShards.shardCount(801)).isEqualTo(2);
        assertThat(ProgressShards.shardCount(1_600)).isEqualTo(2);
        assertThat(ProgressShards.shardCount(1_601)).isEqualTo(3);
        assertThat(ProgressShards.shardCount(2_540)).isEqualTo(4);
        assertThat(ProgressShards.shardCount(100_000_000L)).isEqualTo(125_000);
    }

    @Test
    void shardOf_isTheCrc32OfTheIdModuloTheShardCount() {
        // CRC-32 check value: crc32("123456789") = 0xCBF43926 = 3,421,780,262.
        assertThat(ProgressShards.shardOf("123456789", 10)).isEqualTo(2);
        assertThat(ProgressShards.shardOf("123456789", 7)).isEqualTo(5);
        // crc32("a") = 0xE8B7BE43 = 3,904,355,907, whose digits sum to 45.
        assertThat(ProgressShards.shardOf("a", 3)).isEqualTo(0);
        assertThat(ProgressShards.shardOf("a", 10)).isEqualTo(7);
    }

    @Test
    void shardOf_isStableAndInRange() {
        for (int shards : new int[]{1, 2, 3, 17, 125}) {
            for (int batch = 1; batch <= 2_000; batch++) {
                String taskId = String.format(java.util.Locale.ROOT, "hash-%06d", batch);
                int shard = ProgressShards.shardOf(taskId, shards);
                assertThat(shard).isBetween(0, shards - 1);
                assertThat(ProgressShards.shardOf(taskId, shards)).isEqualTo(shard);
            }
        }
    }

    @Test
    void shardOf_withOneShardIsAlwaysZero() {
        assertThat(ProgressShards.shardOf("scan-a6771c54ba0adad2", 1)).isZero();
        assertThat(ProgressShards.shardOf("", 1)).isZero();
    }

    @Test
    void shardOf_spreadsIdsOverEveryShard() {
        int[] perShard = new int[4];
        for (int batch = 1; batch <= 2_400; batch++) {
            perShard[ProgressShards.shardOf(String.format(java.util.Locale.ROOT, "hash-%06d", batch), 4)]++;
        }

        // 600 expected per shard; no shard may be empty or hold more than twice its share.
        for (int n : perShard) {
            assertThat(n).isBetween(1, 1_200);
        }
    }

    @Test
    void pageShards_numberAPagesShardsOnFromTheFirstAndCountEachTaskInOne() {
        ProgressShards.PageShards shards = ProgressShards.PageShards.of(5, 1_000);
        java.util.List<String> ids = java.util.stream.IntStream.rangeClosed(1, 1_000)
                .mapToObj(i -> String.format(java.util.Locale.ROOT, "hash-%06d", i)).toList();

        assertThat(shards).isEqualTo(new ProgressShards.PageShards(5, 2));
        assertThat(shards.next()).isEqualTo(7);
        assertThat(ids).allSatisfy(id -> assertThat(shards.shardOf(id)).isBetween(5, 6));
        long[] planned = shards.planned(ids);
        assertThat(planned[0] + planned[1]).isEqualTo(1_000);
        assertThat(ProgressShards.PageShards.of(3, 0)).as("a page without tasks has no shard to complete").isEqualTo(new ProgressShards.PageShards(3, 0));
    }

    @Test
    void completion_needsAKnownShardCountAndEveryShardComplete() {
        java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> planning = java.util.Map.of(
                "completeShards", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromSs(java.util.List.of("0")));
        assertThat(ProgressShards.completion(planning).runComplete()).as("no shard count yet: still planning").isFalse();
        java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> oneOfTwo = java.util.Map.of(
                "shards", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN("2"),
                "completeShards", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromSs(java.util.List.of("0")));
        assertThat(ProgressShards.completion(oneOfTwo).runComplete()).isFalse();
        java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> all = java.util.Map.of(
                "shards", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN("2"),
                "completeShards", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromSs(java.util.List.of("0", "1")),
                ProgressShards.COMPLETION_CLAIM, software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("hash-000002"));
        assertThat(ProgressShards.completion(all)).isEqualTo(new ProgressShards.Count(true, "hash-000002"));
    }
}
