package batchpipe.worker.scan;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * HyperLogLog with 2^14 one-byte registers (16 KiB): estimates how many distinct byte strings were added,
 * with a standard error of 1.04 / sqrt(2^14) = 0.81 %, whatever their number. The estimate is Ertl's
 * improved raw estimator ("New cardinality estimation algorithms for HyperLogLog sketches", 2017), which
 * needs neither the small-range switch to linear counting nor HLL++'s empirical bias tables. Two
 * estimators merge by taking each register's maximum. Not thread-safe.
 */
final class DistinctValueEstimator {

    static final int PRECISION = 14;
    private static final int REGISTERS = 1 << PRECISION;
    /** Register values run from 0 (empty) to 64 - PRECISION + 1. */
    private static final int MAX_RANK = 64 - PRECISION + 1;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[] registers = new byte[REGISTERS];

    void add(byte[] key, int off, int len) {
        long hash = hash64(key, off, len);
        int register = (int) (hash >>> (64 - PRECISION));
        // the marker bit caps the rank at MAX_RANK when the remaining bits are all zero
        int rank = Long.numberOfLeadingZeros((hash << PRECISION) | (1L << (PRECISION - 1))) + 1;
        if (rank > registers[register]) {
            registers[register] = (byte) rank;
        }
    }

    void merge(DistinctValueEstimator other) {
        for (int i = 0; i < REGISTERS; i++) {
            if (other.registers[i] > registers[i]) {
                registers[i] = other.registers[i];
            }
        }
    }

    long estimate() {
        int[] histogram = new int[MAX_RANK + 1];
        for (byte r : registers) {
            histogram[r]++;
        }
        double m = REGISTERS;
        double z = m * tau(1 - histogram[MAX_RANK] / m);
        for (int k = MAX_RANK - 1; k >= 1; k--) {
            z = 0.5 * (z + histogram[k]);
        }
        z += m * sigma(histogram[0] / m);
        return Math.round(m * m / (2 * Math.log(2)) / z);
    }

    private static double sigma(double x) {
        if (x == 1) {
            return Double.POSITIVE_INFINITY;
        }
        double y = 1;
        double z = x;
        double previous;
        do {
            x *= x;
            previous = z;
            z += x * y;
            y += y;
        } while (z != previous);
        return z;
    }

    private static double tau(double x) {
        if (x == 0 || x == 1) {
            return 0;
        }
        double y = 1;
        double z = 1 - x;
        double previous;
        do {
            x = Math.sqrt(x);
            previous = z;
            y *= 0.5;
            z -= (1 - x) * (1 - x) * y;
        } while (z != previous);
        return z / 3;
    }

    long retainedBytes() {
        return registers.length;
    }

    /**
     * 64 bits of MurmurHash3's x64 mixing over 8-byte words: HyperLogLog needs every bit of the hash to
     * look random, which the tables' 32-bit hash (one multiply per word) does not promise.
     */
    static long hash64(byte[] key, int off, int len) {
        long h = 0x9E3779B97F4A7C15L ^ len;
        int i = off;
        for (int end = off + len - 7; i < end; i += 8) {
            h ^= mixWord((long) LONGS.get(key, i));
            h = Long.rotateLeft(h, 27) * 5 + 0x52DCE729;
        }
        long tail = 0;
        for (int shift = 0, end = off + len; i < end; i++, shift += 8) {
            tail |= (key[i] & 0xFFL) << shift;
        }
        h ^= mixWord(tail);
        return finalMix(h);
    }

    private static long mixWord(long k) {
        k *= 0x87C37B91114253D5L;
        k = Long.rotateLeft(k, 31);
        return k * 0x4CF5AD432745937FL;
    }

    private static long finalMix(long h) {
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ (h >>> 33);
    }
}
