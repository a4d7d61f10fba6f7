package batchpipe.worker.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Counting a countBy path in bounded memory: exact under the budget, a heavy-hitters sketch with a
 * distinct estimate past it. Values are fed as the scanner feeds them: counted into a chunk's counts, then
 * merged in chunk order into the scan's.
 */
class BoundedValueCountsTest {

    /** Three standard errors of the 2^14-register HyperLogLog (0.81 % each). */
    private static final double DISTINCT_TOLERANCE = 0.025;

    /** Feeds values through chunk-sized counts merged into one scan's, as ScanRun does. */
    private static final class Scan {
        private final BoundedValueCounts.Limits limits;
        private final int valuesPerChunk;
        final BoundedValueCounts counts;
        private BoundedValueCounts chunk;
        private int inChunk;
        long maxRetainedBytes;

        Scan(BoundedValueCounts.Limits limits, int valuesPerChunk) {
            this.limits = limits;
            this.valuesPerChunk = valuesPerChunk;
            this.counts = new BoundedValueCounts("user.id", 64, limits);
        }

        void add(byte[] value) {
            if (chunk == null) {
                chunk = new BoundedValueCounts("user.id", 16, limits);
            }
            chunk.add(value, 0, value.length);
            if (++inChunk == valuesPerChunk) {
                flush();
            }
        }

        void add(String value) {
            add(value.getBytes(StandardCharsets.UTF_8));
        }

        BoundedValueCounts finish() {
            flush();
            return counts;
        }

        private void flush() {
            if (chunk != null) {
                counts.addAll(chunk);
                maxRetainedBytes = Math.max(maxRetainedBytes, counts.retainedBytes());
                chunk = null;
                inChunk = 0;
            }
        }
    }

    private record Counted(Map<String, Long> counts, Map<String, Long> overCounts) {
        List<String> topValues(int n) {
            List<String> values = new ArrayList<>(counts.keySet());
            values.sort(Comparator.comparing((String v) -> counts.get(v)).reversed());
            return values.subList(0, n);
        }
    }

    private static Counted counted(BoundedValueCounts counts) {
        Map<String, Long> values = new TreeMap<>();
        Map<String, Long> overCounts = new TreeMap<>();
        counts.addTo(values, overCounts);
        return new Counted(values, overCounts);
    }

    /** Every kept value's count brackets the truth, and no value left out could beat the smallest error bound. */
    private static void assertEveryCountWithinItsBound(Counted counted, Map<String, Long> truth, long defaultTruth) {
        counted.counts().forEach((value, count) -> {
            long overCount = counted.overCounts().get(value);
            long actual = truth.getOrDefault(value, defaultTruth);
            assertThat(actual).as("true count of %s", value).isBetween(count - overCount, count);
        });
    }

    @Test
    void belowTheBudget_countsEveryValueExactlyLikeAHashMap() {
        SplittableRandom random = new SplittableRandom(7);
        Map<String, Long> oracle = new HashMap<>();
        Scan scan = new Scan(BoundedValueCounts.Limits.DEFAULT, 4_500);
        for (int i = 0; i < 400_000; i++) {
            // skewed: a few values take most events, most of the 64,000 values occur a handful of times
            int v = random.nextInt(4) == 0 ? random.nextInt(20) : random.nextInt(64_000);
            String value = "u-" + v;
            oracle.merge(value, 1L, Long::sum);
            scan.add(value);
        }
        BoundedValueCounts counts = scan.finish();

        assertThat(counts.isExact()).isTrue();
        Counted counted = counted(counts);
        assertThat(counted.counts()).isEqualTo(oracle);
        assertThat(counted.overCounts()).isEmpty();
        assertThat(counts.distinct()).isEqualTo(oracle.size());
        assertThat(counts.events()).isEqualTo(400_000);
    }

    @Test
    void theValuePastTheBudget_switchesToApproximateCountsThatStillBracketTheTruth() {
        BoundedValueCounts counts = new BoundedValueCounts("user.id", 64);
        for (int i = 0; i < BoundedValueCounts.MAX_EXACT_VALUES; i++) {
            byte[] value = ("u-" + i).getBytes(StandardCharsets.UTF_8);
            counts.add(value, 0, value.length);
            counts.add(value, 0, value.length);
        }
        assertThat(counts.isExact()).isTrue();

        byte[] oneMore = "u-new".getBytes(StandardCharsets.UTF_8);
        counts.add(oneMore, 0, oneMore.length);

        assertThat(counts.isExact()).isFalse();
        assertThat(counts.events()).isEqualTo(2L * BoundedValueCounts.MAX_EXACT_VALUES + 1);
        assertThat(counts.distinct()).isCloseTo(BoundedValueCounts.MAX_EXACT_VALUES + 1L,
                within((long) (DISTINCT_TOLERANCE * BoundedValueCounts.MAX_EXACT_VALUES)));
        Counted counted = counted(counts);
        assertThat(counted.counts()).hasSize(BoundedValueCounts.SKETCH_COUNTERS);
        assertEveryCountWithinItsBound(counted, Map.of("u-new", 1L), 2);
    }

    @Test
    void aboveTheBudget_findsTheTrueHeavyHittersAndBracketsEveryCount() {
        // About 3,000,000 values seen once; 20 heavy hitters seen 1,000 to 20,000 times; and 200 values seen
        // 150 times each, all in the second half, so they come after the switch, below the heavy hitters,
        // and are dropped and taken back. In random order.
        long events = 3_240_000;
        Map<String, Long> heavy = new HashMap<>();
        Map<String, Long> repeated = new HashMap<>();
        for (int h = 0; h < 20; h++) {
            heavy.put("heavy-" + h, 1_000L * (h + 1));
        }
        repeated.putAll(heavy);
        for (int m = 0; m < 200; m++) {
            repeated.put("medium-" + m, 150L);
        }
        long heavyLeft = heavy.values().stream().mapToLong(Long::longValue).sum();
        long mediumLeft = 200 * 150;
        Map<String, Long> leftOf = new HashMap<>(repeated);
        SplittableRandom random = new SplittableRandom(11);
        Scan scan = new Scan(BoundedValueCounts.Limits.DEFAULT, 9_000);
        int uniques = 0;
        for (long i = 0; i < events; i++) {
            long r = random.nextLong(events - i);
            if (r < heavyLeft) {
                heavyLeft--;
                scan.add(takeOne(leftOf, "heavy-", 20, random));
            } else if (i >= events / 2 && r < heavyLeft + mediumLeft) {
                mediumLeft--;
                scan.add(takeOne(leftOf, "medium-", 200, random));
            } else {
                scan.add("unique-" + uniques++);
            }
        }
        assertThat(heavyLeft + mediumLeft).isZero();
        BoundedValueCounts counts = scan.finish();

        assertThat(counts.isExact()).isFalse();
        assertThat(counts.events()).isEqualTo(events);
        Counted counted = counted(counts);
        assertThat(counted.topValues(20)).containsExactlyInAnyOrderElementsOf(heavy.keySet());
        assertEveryCountWithinItsBound(counted, repeated, 1);
        assertThat(counted.counts().keySet()).as("values dropped and taken back").anyMatch(v -> v.startsWith("medium-"));
        long maxOverCount = counted.overCounts().values().stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(maxOverCount).as("largest error, at most N / counters").isLessThanOrEqualTo(events / BoundedValueCounts.SKETCH_COUNTERS);
        assertThat((double) counts.distinct()).isCloseTo(uniques + 220, within(DISTINCT_TOLERANCE * uniques));
    }

    /** One of the values prefix + 0 to prefix + (n - 1) that has occurrences left; takes one. */
    private static String takeOne(Map<String, Long> leftOf, String prefix, int n, SplittableRandom random) {
        String value;
        do {
            value = prefix + random.nextInt(n);
        } while (leftOf.get(value) == 0);
        leftOf.merge(value, -1L, Long::sum);
        return value;
    }

    @Test
    void mergingTwoSketches_keepsEveryCountWithinItsBound() {
        // small limits, so that both sides and the merge itself drop many values
        BoundedValueCounts.Limits small = new BoundedValueCounts.Limits(500, 1 << 20, 256, 16, 1 << 20);
        Map<String, Long> truth = new HashMap<>();
        SplittableRandom random = new SplittableRandom(3);
        BoundedValueCounts[] sides = new BoundedValueCounts[2];
        for (int side = 0; side < 2; side++) {
            sides[side] = new BoundedValueCounts("user.id", 16, small);
            for (int i = 0; i < 200_000; i++) {
                String value;
                int roll = random.nextInt(1000);
                if (roll < 300) {
                    value = "shared-" + random.nextInt(10); // heavy on both sides: ~12,000 in all
                } else if (roll < 500) {
                    value = "only-" + side + "-" + random.nextInt(5); // heavy on one side only: ~8,000
                } else if (roll < (side == 0 ? 600 : 510)) {
                    // kept on the first side (~2,000 each), too rare to be kept on the second (~200 each):
                    // the merge must allow for what the second side dropped of them
                    value = "echo-" + random.nextInt(10);
                } else {
                    value = "tail-" + random.nextInt(1_000_000);
                }
                truth.merge(value, 1L, Long::sum);
                byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
                sides[side].add(bytes, 0, bytes.length);
            }
            assertThat(sides[side].isExact()).isFalse();
        }

        sides[0].addAll(sides[1]);

        BoundedValueCounts merged = sides[0];
        Counted counted = counted(merged);
        long events = 400_000;
        assertThat(merged.events()).isEqualTo(events);
        assertEveryCountWithinItsBound(counted, truth, 0);
        long maxOverCount = counted.overCounts().values().stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(maxOverCount).as("largest error after a merge, at most 2N / counters").isLessThanOrEqualTo(2 * events / 256);
        List<String> heavy = truth.entrySet().stream().filter(e -> e.getValue() > 2 * events / 256).map(Map.Entry::getKey).toList();
        assertThat(heavy).hasSize(20).allMatch(v -> v.startsWith("shared-") || v.startsWith("only-"));
        assertThat(counted.counts()).containsKeys(heavy.toArray(String[]::new));
        assertThat((double) merged.distinct()).isCloseTo(truth.size(), within(DISTINCT_TOLERANCE * truth.size()));
    }

    @Test
    void sixMillionDistinctHundredByteValues_keepTheRetainedBytesUnderTheBudget() {
        Scan scan = new Scan(BoundedValueCounts.Limits.DEFAULT, 9_000); // a 1 MiB chunk of ~115-byte lines
        byte[] value = new byte[100];
        Arrays.fill(value, (byte) '0');
        for (int i = 0; i < 6_000_000; i++) {
            for (int n = i, d = 99; n > 0; n /= 10, d--) {
                value[d] = (byte) ('0' + n % 10);
            }
            scan.add(value);
        }
        BoundedValueCounts counts = scan.finish();

        assertThat(counts.isExact()).isFalse();
        assertThat(scan.maxRetainedBytes).as("most bytes held by the scan's counts of one path")
                .isLessThanOrEqualTo(BoundedValueCounts.maxRetainedBytes(BoundedValueCounts.Limits.DEFAULT))
                .isLessThan(6L << 20);
        assertThat(counts.events()).isEqualTo(6_000_000);
        assertThat((double) counts.distinct()).isCloseTo(6_000_000, within(DISTINCT_TOLERANCE * 6_000_000));
    }

    @Test
    void valuesTooLongToKeepEnoughOfThem_failWithAReasonThatNamesThePath() {
        BoundedValueCounts.Limits small = new BoundedValueCounts.Limits(1_000, 64 << 10, 256, 16, 64 << 10);
        BoundedValueCounts counts = new BoundedValueCounts("message", 16, small);
        byte[] value = new byte[8 << 10];
        assertThatThrownBy(() -> {
            for (int i = 0; i < 100; i++) {
                value[0] = (byte) i;
                counts.add(value, 0, value.length);
            }
        }).isInstanceOf(ValuesTooLongException.class)
                .hasMessageStartingWith("countBy path 'message' has values too long to count in bounded memory")
                .hasMessageEndingWith("count a shorter field");
    }
}
