package batchpipe.worker.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
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
}
