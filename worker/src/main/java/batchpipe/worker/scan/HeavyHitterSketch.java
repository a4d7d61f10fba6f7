package batchpipe.worker.scan;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Space-Saving (Metwally, Agrawal, El Abbadi 2005): the most frequent byte strings of a stream, in at most
 * {@code maxCounters} counters and {@code maxKeyBytes} bytes of keys, whatever the stream's length.
 *
 * <p>Each monitored key has a count and an error, and {@code count - error <= true count <= count}. A key
 * that is not monitored occurred at most {@link #floor()} times, the largest count ever dropped. When the
 * sketch is full a new key takes the counter of the smallest count {@code m}: it starts at {@code m + its
 * weight} with error {@code m}, since it may have been among the dropped ones. The counts never sum to
 * more than the stream's total weight N, so with k counters in use every error is at most
 * {@code floor <= N / k}; {@link #merge} adds counts and errors and the bound becomes {@code 2N / k}
 * (see there).
 *
 * <p>Keys live in a byte arena twice the size of {@code maxKeyBytes}: a replaced key's bytes become
 * garbage, and the arena is compacted in place when full, at least {@code maxKeyBytes} of appends apart.
 * When long keys fill {@code maxKeyBytes} before the counters run out, the smallest counts are dropped to
 * make room (the floor rises, the bound holds with fewer counters), down to {@code minCounters}; past
 * that the keys are too long for the counts to mean anything and {@link ValuesTooLongException} is
 * thrown. Not thread-safe.
 */
final class HeavyHitterSketch {

    /** The countBy path whose values these are, named when they are too long to hold. */
    private final String path;
    private final int maxCounters;
    private final int minCounters;
    private final int maxKeyBytes;
    private byte[] arena;
    private int arenaUsed;
    private long keyBytes;
    private final int[] keyOffset;
    private final int[] keyLength;
    private final int[] keyHash;
    private final long[] counts;
    private final long[] errors;
    private int size;
    /** Entries as a min-heap on count, and each entry's place in it. */
    private final int[] heap;
    private final int[] heapIndex;
    /** Open-addressing slots holding entry index + 1; 0 is empty. At most half full. */
    private final int[] slots;
    private long floor;

    HeavyHitterSketch(String path, int maxCounters, int minCounters, int maxKeyBytes) {
        this.path = path;
        if (minCounters < 1 || minCounters > maxCounters) {
            throw new IllegalArgumentException("minCounters must be between 1 and maxCounters");
        }
        this.maxCounters = maxCounters;
        this.minCounters = minCounters;
        this.maxKeyBytes = maxKeyBytes;
        this.arena = new byte[Math.min(64 << 10, 2 * maxKeyBytes)];
        this.keyOffset = new int[maxCounters];
        this.keyLength = new int[maxCounters];
        this.keyHash = new int[maxCounters];
        this.counts = new long[maxCounters];
        this.errors = new long[maxCounters];
        this.heap = new int[maxCounters];
        this.heapIndex = new int[maxCounters];
        this.slots = new int[Integer.highestOneBit(maxCounters * 2 - 1) << 1];
    }

    int size() {
        return size;
    }

    /** The largest count ever dropped: no key that is not monitored occurred more often. */
    long floor() {
        return floor;
    }

    /**
     * Adds {@code weight} occurrences of a key ({@link ValueCountTable#hash} {@code hash}). A key not
     * monitored may already have occurred up to {@link #floor()} times.
     */
    void add(byte[] key, int off, int len, int hash, long weight) {
        int entry = find(key, off, len, hash);
        if (entry >= 0) {
            counts[entry] += weight;
            siftDown(heapIndex[entry]);
        } else {
            offer(key, off, len, hash, floor + weight, floor);
        }
    }

    /**
     * Adds a key known not to be monitored, with bounds established elsewhere
     * ({@code count - error <= true <= count}): kept if there is room or it beats the smallest count,
     * which it then replaces; otherwise dropped. Whatever is dropped raises the floor to its count.
     */
    private void offer(byte[] key, int off, int len, int hash, long count, long error) {
        if (len > maxKeyBytes) {
            throw new ValuesTooLongException(path, len, 0, maxKeyBytes);
        }
        while (size == maxCounters || keyBytes + len > maxKeyBytes) {
            if (count <= counts[heap[0]]) {
                floor = Math.max(floor, count);
                return;
            }
            if (size <= minCounters && keyBytes + len > maxKeyBytes) {
                throw new ValuesTooLongException(path, len, size, maxKeyBytes);
            }
            evictSmallest();
        }
        int entry = size++;
        keyOffset[entry] = append(key, off, len);
        keyLength[entry] = len;
        keyHash[entry] = hash;
        keyBytes += len;
        counts[entry] = count;
        errors[entry] = error;
        int mask = slots.length - 1;
        int slot = hash & mask;
        while (slots[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        slots[slot] = entry + 1;
        heap[entry] = entry;
        heapIndex[entry] = entry;
        siftUp(entry);
    }

    /**
     * Adds {@code other}'s counts to this sketch. A key monitored on one side only may have occurred up to
     * the other side's floor times there, so it gets that floor added to its count and to its error; the
     * largest of the combined counts are kept, and the floor becomes the larger of the two floors' sum and
     * the largest count dropped. Every kept key still has {@code count - error <= true <= count}. The
     * counts before dropping sum to at most {@code N_this + N_other + k * (floor_this + floor_other) <= 2N},
     * so the floor, and with it every error, is at most {@code 2N / k}.
     */
    void merge(HeavyHitterSketch other) {
        long floorBefore = floor;
        long otherFloor = other.floor;
        if (otherFloor > 0) {
            for (int e = 0; e < size; e++) {
                if (other.find(arena, keyOffset[e], keyLength[e], keyHash[e]) < 0) {
                    counts[e] += otherFloor;
                    errors[e] += otherFloor;
                }
            }
        }
        boolean[] monitoredHere = new boolean[other.size];
        for (int o = 0; o < other.size; o++) {
            int entry = find(other.arena, other.keyOffset[o], other.keyLength[o], other.keyHash[o]);
            if (entry >= 0) {
                counts[entry] += other.counts[o];
                errors[entry] += other.errors[o];
                monitoredHere[o] = true;
            }
        }
        for (int i = size / 2 - 1; i >= 0; i--) {
            siftDown(i);
        }
        // Keys new to this sketch come last, so that none of the keys above is dropped before its
        // count from the other side is added. Each occurred at most floorBefore times here.
        for (int o = 0; o < other.size; o++) {
            if (!monitoredHere[o]) {
                offer(other.arena, other.keyOffset[o], other.keyLength[o], other.keyHash[o],
                        floorBefore + other.counts[o], floorBefore + other.errors[o]);
            }
        }
        floor = Math.max(floor, floorBefore + otherFloor);
    }

    /** Adds a key of an exact count (error 0), known not to be monitored yet. */
    void offerExact(byte[] key, int off, int len, int hash, long count) {
        offer(key, off, len, hash, count, 0);
    }

    private int find(byte[] key, int off, int len, int hash) {
        int mask = slots.length - 1;
        int slot = hash & mask;
        for (;;) {
            int entry = slots[slot] - 1;
            if (entry < 0) {
                return -1;
            }
            if (keyHash[entry] == hash && keyLength[entry] == len
                    && Arrays.equals(arena, keyOffset[entry], keyOffset[entry] + len, key, off, off + len)) {
                return entry;
            }
            slot = (slot + 1) & mask;
        }
    }

    private void evictSmallest() {
        int victim = heap[0];
        floor = Math.max(floor, counts[victim]);
        keyBytes -= keyLength[victim];
        removeSlot(victim);
        int lastInHeap = heap[size - 1];
        heap[0] = lastInHeap;
        heapIndex[lastInHeap] = 0;
        int last = size - 1;
        size--;
        siftDown(0);
        if (victim != last) {
            // keep entries dense: the last entry moves into the victim's place
            keyOffset[victim] = keyOffset[last];
            keyLength[victim] = keyLength[last];
            keyHash[victim] = keyHash[last];
            counts[victim] = counts[last];
            errors[victim] = errors[last];
            heapIndex[victim] = heapIndex[last];
            heap[heapIndex[victim]] = victim;
            int mask = slots.length - 1;
            int slot = keyHash[victim] & mask;
            while (slots[slot] != last + 1) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = victim + 1;
        }
    }

    /** Linear probing deletion: later keys of the same run move back so that no lookup stops early. */
    private void removeSlot(int entry) {
        int mask = slots.length - 1;
        int hole = keyHash[entry] & mask;
        while (slots[hole] != entry + 1) {
            hole = (hole + 1) & mask;
        }
        int slot = hole;
        for (;;) {
            slot = (slot + 1) & mask;
            int moved = slots[slot] - 1;
            if (moved < 0) {
                break;
            }
            int home = keyHash[moved] & mask;
            // the key may fill the hole when its home is not inside (hole, slot], cyclically
            boolean homeBetween = hole <= slot ? (hole < home && home <= slot) : (hole < home || home <= slot);
            if (!homeBetween) {
                slots[hole] = slots[slot];
                hole = slot;
            }
        }
        slots[hole] = 0;
    }

    private void siftUp(int i) {
        int entry = heap[i];
        long count = counts[entry];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            int p = heap[parent];
            if (counts[p] <= count) {
                break;
            }
            heap[i] = p;
            heapIndex[p] = i;
            i = parent;
        }
        heap[i] = entry;
        heapIndex[entry] = i;
    }

    private void siftDown(int i) {
        int entry = heap[i];
        long count = counts[entry];
        for (;;) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && counts[heap[child + 1]] < counts[heap[child]]) {
                child++;
            }
            int c = heap[child];
            if (counts[c] >= count) {
                break;
            }
            heap[i] = c;
            heapIndex[c] = i;
            i = child;
        }
        heap[i] = entry;
        heapIndex[entry] = i;
    }

    private int append(byte[] key, int off, int len) {
        if (arenaUsed + len > arena.length) {
            if (arena.length < 2 * maxKeyBytes) {
                arena = Arrays.copyOf(arena, (int) Math.min(2L * maxKeyBytes,
                        Math.max(2L * arena.length, (long) arenaUsed + len)));
            }
            if (arenaUsed + len > arena.length) {
                compact();
            }
        }
        System.arraycopy(key, off, arena, arenaUsed, len);
        int at = arenaUsed;
        arenaUsed += len;
        return at;
    }

    /** Moves the live keys to the front of the arena, in place, in the order they lie. */
    private void compact() {
        long[] byOffset = new long[size];
        for (int e = 0; e < size; e++) {
            byOffset[e] = ((long) keyOffset[e] << 32) | e;
        }
        Arrays.sort(byOffset);
        int to = 0;
        for (long packed : byOffset) {
            int e = (int) packed;
            System.arraycopy(arena, keyOffset[e], arena, to, keyLength[e]);
            keyOffset[e] = to;
            to += keyLength[e];
        }
        arenaUsed = to;
    }

    /** Calls {@code action} for every monitored key, decoded as UTF-8 (keys are validated UTF-8). */
    void forEach(KeyAction action) {
        for (int e = 0; e < size; e++) {
            action.accept(new String(arena, keyOffset[e], keyLength[e], StandardCharsets.UTF_8), counts[e], errors[e]);
        }
    }

    interface KeyAction {
        void accept(String key, long count, long error);
    }

    /** Bytes of the sketch's own arrays (object headers aside). */
    long retainedBytes() {
        return arena.length + 4L * (keyOffset.length + keyLength.length + keyHash.length + heap.length
                + heapIndex.length + slots.length) + 8L * (counts.length + errors.length);
    }

    /** The largest {@code retainedBytes()} a sketch of these limits reaches. */
    static long maxRetainedBytes(int maxCounters, int maxKeyBytes) {
        long slotCount = Integer.highestOneBit(maxCounters * 2 - 1) << 1;
        return 2L * maxKeyBytes + 4L * (5L * maxCounters + slotCount) + 16L * maxCounters;
    }
}
