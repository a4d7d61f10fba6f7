package batchpipe.worker.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The table hashes and compares keys eight bytes at a time: it must still count like a HashMap. */
class ValueCountTableTest {

    @Test
    void keysThatShareTheirFirstEightBytesOrDifferOnlyInLength_countApartLikeAHashMap() {
        Random random = new Random(19);
        byte[] alphabet = "ab\u0000/".getBytes(StandardCharsets.ISO_8859_1);
        ValueCountTable table = new ValueCountTable(4, 100_000, 1 << 20);
        Map<String, Long> truth = new HashMap<>();
        for (int i = 0; i < 200_000; i++) {
            // a common prefix of 0 to 12 bytes, then up to 4 bytes from a tiny alphabet (with NUL, so that a key
            // and the same key with zero bytes added differ only in length): every key collides in its first word
            // with many others
            int length = random.nextInt(17);
            byte[] key = new byte[length];
            for (int j = 0; j < length; j++) {
                key[j] = j < 12 ? (byte) ('p' + j % 3) : alphabet[random.nextInt(alphabet.length)];
            }
            if (length > 0 && random.nextBoolean()) {
                key[length - 1] = alphabet[random.nextInt(alphabet.length)];
            }
            // keys inside a larger array and at its very end, where fewer than eight bytes follow
            byte[] line = new byte[3 + length + random.nextInt(3)];
            int off = random.nextBoolean() ? 3 : line.length - length;
            System.arraycopy(key, 0, line, off, length);
            assertThat(table.add(line, off, length, 1)).isTrue();
            truth.merge(new String(key, StandardCharsets.ISO_8859_1), 1L, Long::sum);
        }
        Map<String, Long> counted = new HashMap<>();
        for (int entry = 0; entry < table.size(); entry++) {
            counted.put(new String(table.arena(), table.keyOffset(entry), table.keyLength(entry), StandardCharsets.ISO_8859_1),
                    table.count(entry));
        }
        assertThat(counted).isEqualTo(truth);
        assertThat(table.total()).isEqualTo(200_000);
    }

    @Test
    void keysThatDifferInOneByteWhereverItIs_spreadOverTheLowBitsThatPickASlot() {
        // the table and the sketch take a slot from the hash's low bits; a hash whose low bits miss some byte of
        // the key (the eighth, say, which a single multiply only carries upwards) would put ids on one slot
        for (int length = 1; length <= 24; length++) {
            for (int at = 0; at < length; at++) {
                Set<Integer> slots = new HashSet<>();
                byte[] key = new byte[length + 8];
                Arrays.fill(key, (byte) 'k');
                for (int value = 0; value < 256; value++) {
                    key[at] = (byte) value;
                    slots.add(ValueCountTable.hash(key, 0, length) & 255);
                }
                // 256 random keys in 256 slots fill ~162 of them; one fixed byte position can only lower that
                assertThat(slots).as("key of %d bytes varying at byte %d", length, at).hasSizeGreaterThan(128);
            }
        }
    }
}
