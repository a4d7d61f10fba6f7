package batchpipe.worker.scan;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Counts per distinct byte string, without creating a String per line: keys are copied once into a
 * byte arena when first seen, looked up by hash with open addressing. Strings are made only when the
 * final result is built. Not thread-safe.
 *
 * <p>The table refuses a new key that would take it past {@code maxKeys} keys or {@code maxKeyBytes}
 * bytes of keys ({@link #add} returns false); {@link BoundedValueCounts} then goes on approximately.
 */
final class ValueCountTable {

    private final int maxKeys;
    private final int maxKeyBytes;
    private byte[] arena;
    private int arenaUsed;
    private int[] keyOffset;
    private int[] keyLength;
    private int[] keyHash;
    private long[] counts;
    private int size;
    /** Open-addressing slots holding entry index + 1; 0 is empty. */
    private int[] slots;

    ValueCountTable(int expectedKeys, int maxKeys, int maxKeyBytes) {
        this.maxKeys = maxKeys;
        this.maxKeyBytes = maxKeyBytes;
        int capacity = Integer.highestOneBit(Math.max(4, expectedKeys) * 2 - 1) << 1;
        slots = new int[capacity];
        keyOffset = new int[capacity / 2];
        keyLength = new int[capacity / 2];
        keyHash = new int[capacity / 2];
        counts = new long[capacity / 2];
        arena = new byte[Math.min(Math.max(64, expectedKeys * 16), Math.max(64, maxKeyBytes))];
    }

    int size() {
        return size;
    }

    /** Adds {@code delta} to the key's count; false, changing nothing, when the key is new and does not fit. */
    boolean add(byte[] key, int off, int len, long delta) {
        long head = ByteWords.headWord(key, off, len);
        return add(key, off, len, hash(head, key, off, len), head, delta);
    }

    /** {@link #add(byte[], int, int, long)} with the key's {@link #hash} already known. */
    boolean add(byte[] key, int off, int len, int hash, long delta) {
        return add(key, off, len, hash, ByteWords.headWord(key, off, len), delta);
    }

    private boolean add(byte[] key, int off, int len, int hash, long head, long delta) {
        int mask = slots.length - 1;
        int slot = hash & mask;
        for (;;) {
            int entry = slots[slot] - 1;
            if (entry < 0) {
                if (size >= maxKeys || len > maxKeyBytes - arenaUsed) {
                    return false;
                }
                insert(slot, hash, key, off, len, delta);
                return true;
            }
            // a short key (a level, a status) compares in one test of its first eight bytes
            if (keyHash[entry] == hash && keyLength[entry] == len
                    && ByteWords.headWord(arena, keyOffset[entry], len) == head
                    && (len <= 8 || sameBytes(arena, keyOffset[entry] + 8, key, off + 8, len - 8))) {
                counts[entry] += delta;
                return true;
            }
            slot = (slot + 1) & mask;
        }
    }

    // Entries are numbered 0 to size() - 1 in the order their keys were first added.

    byte[] arena() {
        return arena;
    }

    int keyOffset(int entry) {
        return keyOffset[entry];
    }

    int keyLength(int entry) {
        return keyLength[entry];
    }

    int keyHash(int entry) {
        return keyHash[entry];
    }

    long count(int entry) {
        return counts[entry];
    }

    /** The sum of all counts. */
    long total() {
        long total = 0;
        for (int i = 0; i < size; i++) {
            total += counts[i];
        }
        return total;
    }

    /** Bytes of the table's own arrays (object headers aside). */
    long retainedBytes() {
        return arena.length + 4L * (slots.length + keyOffset.length + keyLength.length + keyHash.length)
                + 8L * counts.length;
    }

    /** Decodes each key as UTF-8 (keys are validated UTF-8) and adds its count to {@code target}. */
    void addTo(Map<String, Long> target) {
        for (int i = 0; i < size; i++) {
            String key = new String(arena, keyOffset[i], keyLength[i], StandardCharsets.UTF_8);
            target.merge(key, counts[i], Long::sum);
        }
    }

    private void insert(int slot, int hash, byte[] key, int off, int len, long delta) {
        if (arenaUsed + len > arena.length) {
            // doubling, but never past the limit the caller checked the key against
            int grown = (int) Math.min((long) arena.length * 2, maxKeyBytes);
            arena = Arrays.copyOf(arena, Math.max(grown, arenaUsed + len));
        }
        System.arraycopy(key, off, arena, arenaUsed, len);
        int entry = size++;
        keyOffset[entry] = arenaUsed;
        keyLength[entry] = len;
        keyHash[entry] = hash;
        counts[entry] = delta;
        arenaUsed += len;
        slots[slot] = entry + 1;
        if (size * 2 >= slots.length) {
            grow();
        }
    }

    private void grow() {
        int capacity = slots.length * 2;
        keyOffset = Arrays.copyOf(keyOffset, capacity / 2);
        keyLength = Arrays.copyOf(keyLength, capacity / 2);
        keyHash = Arrays.copyOf(keyHash, capacity / 2);
        counts = Arrays.copyOf(counts, capacity / 2);
        slots = new int[capacity];
        int mask = capacity - 1;
        for (int entry = 0; entry < size; entry++) {
            int slot = keyHash[entry] & mask;
            while (slots[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = entry + 1;
        }
    }

    /** Values are short: a plain loop beats the vectorized mismatch's setup. */
    private static boolean sameBytes(byte[] a, int aOff, byte[] b, int bOff, int len) {
        for (int i = 0; i < len; i++) {
            if (a[aOff + i] != b[bOff + i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * A word at a time: FNV-1a took a dependent multiply per byte (ValueCountTable.hash was 4-5% of a narrow
     * log's parse samples, async-profiler, issue 19's seventh pass). The length and each word go through a
     * multiply, and a final mix brings every bit of the key down to the low bits that pick a slot: a single
     * multiply would leave keys that differ only in their eighth byte (ids, "value-10" to "value-19") on one slot.
     */
    static int hash(byte[] key, int off, int len) {
        return hash(ByteWords.headWord(key, off, len), key, off, len);
    }

    /** {@link #hash(byte[], int, int)} with the key's {@link ByteWords#headWord} already read. */
    private static int hash(long head, byte[] key, int off, int len) {
        long h = (len + 1) * 0x9E3779B97F4A7C15L ^ head;
        for (int i = off + 8, end = off + len; i < end; i += 8) {
            h = (h ^ h >>> 32) * 0xBF58476D1CE4E5B9L ^ ByteWords.headWord(key, i, Math.min(8, end - i));
        }
        h = (h ^ h >>> 31) * 0x94D049BB133111EBL;
        h ^= h >>> 29;
        return (int) (h ^ h >>> 32);
    }
}
