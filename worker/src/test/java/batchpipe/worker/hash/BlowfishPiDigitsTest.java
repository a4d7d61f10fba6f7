package batchpipe.worker.hash;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Blowfish's initial state is the hexadecimal expansion of pi; Bcrypt reads it from a resource, this test computes it. */
class BlowfishPiDigitsTest {
    private static final int WORDS = 18 + 4 * 256;

    @Test
    void initialPiWords_areTheHexadecimalDigitsOfPiAfterThePoint() {
        int[] expected = piFractionWords(WORDS);
        int[] actual = Bcrypt.initialPiWords();
        assertThat(actual).hasSize(WORDS);
        for (int i = 0; i < WORDS; i++) {
            assertThat(actual[i]).as("word %d (%s)", i, i < 18 ? "P[" + i + "]" : "S" + (i - 18) / 256 + "[" + (i - 18) % 256 + "]")
                    .isEqualTo(expected[i]);
        }
    }

    @Test
    void piFractionWords_agreeWithBlowfishsPublishedFirstAndLastWords() {
        // Schneier's 1993 tables: P[0] and the last word of the fourth S-box. Guards the computation below.
        int[] words = piFractionWords(WORDS);
        assertThat(words[0]).isEqualTo(0x243F6A88);
        assertThat(words[17]).isEqualTo(0x8979FB1B);
        assertThat(words[18]).isEqualTo(0xD1310BA6);
        assertThat(words[WORDS - 1]).isEqualTo(0x3AC372E6);
    }

    /**
     * The first {@code count} 32-bit words of pi's fraction, by Machin's formula
     * pi = 16 atan(1/5) - 4 atan(1/239), in binary fixed point with 64 guard bits.
     */
    private static int[] piFractionWords(int count) {
        int bits = 32 * count + 64;
        BigInteger one = BigInteger.ONE.shiftLeft(bits);
        BigInteger pi = arctanOfInverse(5, one).shiftLeft(4).subtract(arctanOfInverse(239, one).shiftLeft(2));
        BigInteger fraction = pi.subtract(BigInteger.valueOf(3).shiftLeft(bits)).shiftRight(64);
        int[] words = new int[count];
        for (int i = 0; i < count; i++) {
            words[i] = fraction.shiftRight(32 * (count - 1 - i)).intValue();
        }
        return words;
    }

    /** atan(1/x) * one, by its Taylor series: 1/x - 1/(3x^3) + 1/(5x^5) - ... */
    private static BigInteger arctanOfInverse(int x, BigInteger one) {
        BigInteger power = one.divide(BigInteger.valueOf(x));
        BigInteger sum = power;
        BigInteger xSquared = BigInteger.valueOf((long) x * x);
        for (int n = 3, sign = -1; power.signum() != 0; n += 2, sign = -sign) {
            power = power.divide(xSquared);
            BigInteger term = power.divide(BigInteger.valueOf(n));
            sum = sign < 0 ? sum.subtract(term) : sum.add(term);
        }
        return sum;
    }
}
