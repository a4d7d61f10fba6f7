package batchpipe.worker.scan;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Counts per distinct byte string, without creating a String per line: keys are copied once into a
 * byte arena when first seen, looked up by hash with open addressing. Strings are made only when the
 * final result is built. Not thread-safe.
 */
final class ValueCountTable {

    private byte[] arena;
    private int arenaUsed;
    private int[] keyOffset;
    private int[] keyLength;
    private int[] keyHash;
    private long[] counts;
    private int size;
    /** Open-addressing slots holding entry index + 1; 0 is empty. */
    private int[] slots;

    ValueCountTable() {
        this(16);
    }

    ValueCountTable(int expectedKeys) {
        int capacity = Integer.highestOneBit(Math.max(4, expectedKeys) * 2 - 1) << 1;
        slots = new int[capacity];
        keyOffset = new int[capacity / 2];
        keyLength = new int[capacity / 2];
        keyHash = new int[capacity / 2];
        counts = new long[capacity / 2];
        arena = new byte[Math.max(64, expectedKeys * 16)];
    }

    int size() {
        return size;
    }

    void add(byte[] key, int off, int len, long delta) {
        int hash = hash(key, off, len);
        int mask = slots.length - 1;
        int slot = hash & mask;
        for (;;) {
            int entry = slots[slot] - 1;
            if (entry < 0) {
                insert(slot, hash, key, off, len, delta);
                return;
            }
            if (keyHash[entry] == hash && keyLength[entry] == len && sameBytes(arena, keyOffset[entry], key, off, len)) {
                counts[entry] += delta;
                return;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** Adds every count of {@code other} to this table. */
    void addAll(ValueCountTable other) {
        for (int i = 0; i < other.size; i++) {
            add(other.arena, other.keyOffset[i], other.keyLength[i], other.counts[i]);
        }
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
            arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaUsed + len));
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

    private static int hash(byte[] key, int off, int len) {
        int h = 0x811C9DC5 ^ len;
        for (int i = off, end = off + len; i < end; i++) {
            h = (h ^ key[i]) * 0x01000193;
        }
        return h ^ (h >>> 16);
    }
}
