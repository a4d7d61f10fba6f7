package batchpipe.worker.hash;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;

/**
 * bcrypt (Provos and Mazières, "A Future-Adaptable Password Scheme", 1999): the hashes jBCrypt and
 * OpenBSD make, computed without allocating inside the {@code 2^cost} loop.
 *
 * <h2>Formats</h2>
 * {@link #gensalt} makes {@code $2a$} salts, as jBCrypt does, so the stored hashes stay the ones we always
 * stored. {@link #hashpw} and {@link #checkpw} also accept {@code $2b$} (OpenBSD since 2014) and
 * {@code $2y$} (crypt_blowfish), which differ from {@code $2a$} only in C implementations' handling of
 * long passwords; the output keeps the input's letter. The pre-1999 {@code $2$} and crypt_blowfish's
 * buggy {@code $2x$} are refused.
 *
 * <h2>The key: which password bytes count</h2>
 * The key is the password's UTF-8 bytes followed by one zero byte, repeated until it fills 72 bytes.
 * So a password of 72 UTF-8 bytes or more is cut to its first 72 bytes (the zero byte no longer fits),
 * and two passwords that agree on their first 72 bytes have the same hash. This is jBCrypt 0.4's rule
 * for {@code $2a$}, and OpenBSD's rule for {@code $2b$}; it differs only from OpenBSD's old
 * {@code $2a$}, whose length counter wrapped at 256 bytes. A character that is not valid UTF-16 (a lone
 * surrogate) is encoded as {@code ?}, and a NUL character is kept as a zero byte, again as jBCrypt does;
 * C libraries would end the password there. The task limits refuse passwords over 72 bytes up front
 * ({@code TaskLimits.MAX_PASSWORD_BYTES}), so the cut never happens silently in a run.
 *
 * <h2>Speed</h2>
 * The cost is all in {@link #expandKey}, called {@code 2^(cost+1)} times, each time enciphering 521
 * blocks through the 16-round Feistel network. The password and salt become their 18 key words once;
 * the state is one {@code int[]} (the S-boxes, then the P-array) so every lookup is one base register
 * plus a constant displacement; the rounds are written out; nothing inside the loop allocates, so
 * hashing threads share no memory traffic and scale with cores.
 */
public final class Bcrypt {
    public static final int MIN_COST = 4;
    public static final int MAX_COST = 31;

    private static final String ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final byte[] ALPHABET_INDEX = alphabetIndex();

    private static final int SALT_BYTES = 16;
    private static final int SALT_CHARS = 22;
    /** "$2a$10$": version, cost, separators. */
    private static final int PREFIX_CHARS = 7;
    private static final int SETTING_CHARS = PREFIX_CHARS + SALT_CHARS;
    /** Every implementation drops the last of the 24 ciphertext bytes. */
    private static final int HASH_BYTES = 23;
    private static final int HASH_CHARS = SETTING_CHARS + 31;

    private static final int KEY_BYTES = 72;
    private static final int P_WORDS = 18;
    private static final int S_WORDS = 4 * 256;
    private static final int STATE_WORDS = S_WORDS + P_WORDS;
    /**
     * Where the four S-boxes and the P-array are in the state. The first S-box at 0 spares the lookup
     * with the highest byte an addition; P after the S-boxes needs none, being read at constant indexes.
     */
    private static final int S0 = 0;
    private static final int S1 = 256;
    private static final int S2 = 512;
    private static final int S3 = 768;
    private static final int P = S_WORDS;
    private static final int[] INITIAL_STATE = readPiWords();
    private static final int[] MAGIC = bigEndianWords("OrpheanBeholderScryDoubt".getBytes(StandardCharsets.US_ASCII), 6);
    private static final int MAGIC_ENCRYPTIONS = 64;

    private Bcrypt() {
    }

    /** A {@code $2a$} salt at {@code cost} from a new {@link SecureRandom}. */
    public static String gensalt(int cost) {
        // A new SecureRandom per salt, never one kept in a static: with SnapStart a generator seeded before
        // the snapshot would hand every restored instance the same salts. It costs microseconds; a hash
        // costs milliseconds.
        return gensalt(cost, new SecureRandom());
    }

    /** A {@code $2a$} salt at {@code cost} (4 to 31: each step doubles the work) drawn from {@code random}. */
    public static String gensalt(int cost, SecureRandom random) {
        checkCost(cost, "gensalt");
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        StringBuilder out = new StringBuilder(SETTING_CHARS).append("$2a$");
        appendCost(out, cost).append('$');
        return encode(out, salt, SALT_BYTES).toString();
    }

    /**
     * The bcrypt hash of {@code password} with {@code salt}: a 29-character setting such as
     * {@code $2a$10$N9qo8uLOickgx2ZMRZoMye}, or a whole 60-character hash, whose salt and cost are used.
     */
    public static String hashpw(String password, String salt) {
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(salt, "salt");
        Setting setting = Setting.parse(salt);
        byte[] ciphertext = hash(keyBytes(password), setting.salt, setting.cost);
        StringBuilder out = new StringBuilder(HASH_CHARS).append("$2").append(setting.minor).append('$');
        appendCost(out, setting.cost).append('$');
        encode(out, setting.salt, SALT_BYTES);
        return encode(out, ciphertext, HASH_BYTES).toString();
    }

    /**
     * Whether {@code password} hashes to {@code hash}, compared in time independent of where they differ.
     *
     * @throws IllegalArgumentException if {@code hash} is not a bcrypt hash: a stored value that is not one
     *                                  is a fault to report, not a wrong password
     */
    public static boolean checkpw(String password, String hash) {
        Objects.requireNonNull(hash, "hash");
        if (hash.length() != HASH_CHARS) {
            throw new IllegalArgumentException("a bcrypt hash has " + HASH_CHARS + " characters; this one has " + hash.length());
        }
        byte[] expected = hash.getBytes(StandardCharsets.UTF_8);
        byte[] actual = hashpw(password, hash).getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(expected, actual);
    }

    /** The version letter, cost and 16 salt bytes of a setting. */
    private record Setting(char minor, int cost, byte[] salt) {
        static Setting parse(String setting) {
            if (setting.length() != SETTING_CHARS && setting.length() != HASH_CHARS) {
                throw new IllegalArgumentException("a bcrypt salt has " + SETTING_CHARS + " characters (or is a whole "
                        + HASH_CHARS + "-character hash); this one has " + setting.length());
            }
            char minor = setting.charAt(2);
            if (setting.charAt(0) != '$' || setting.charAt(1) != '2' || setting.charAt(3) != '$'
                    || (minor != 'a' && minor != 'b' && minor != 'y')) {
                throw new IllegalArgumentException("a bcrypt salt starts with $2a$, $2b$ or $2y$; this one starts with "
                        + quote(setting.substring(0, 4)));
            }
            char tens = setting.charAt(4);
            char ones = setting.charAt(5);
            if (tens < '0' || tens > '9' || ones < '0' || ones > '9' || setting.charAt(6) != '$') {
                throw new IllegalArgumentException("a bcrypt salt has a two-digit cost and a $ after its version, as in $2a$10$; this one has "
                        + quote(setting.substring(0, PREFIX_CHARS)));
            }
            int cost = (tens - '0') * 10 + (ones - '0');
            checkCost(cost, "salt " + quote(setting.substring(0, PREFIX_CHARS)));
            return new Setting(minor, cost, decodeSalt(setting));
        }
    }

    private static void checkCost(int cost, String where) {
        if (cost < MIN_COST || cost > MAX_COST) {
            throw new IllegalArgumentException("bcrypt cost " + cost + " (in " + where + ") is out of range: it must be between "
                    + MIN_COST + " and " + MAX_COST);
        }
    }

    private static String quote(String s) {
        return "\"" + s + "\"";
    }

    // ------------------------------------------------------------------ the hash

    /** The 24 ciphertext bytes of bcrypt for a key of {@link #keyBytes} form. */
    static byte[] hash(byte[] key, byte[] salt, int cost) {
        int[] keyWords = cyclicWords(key);
        int[] saltWords = cyclicWords(salt);
        int[] state = INITIAL_STATE.clone();
        expandKeyWithSalt(state, keyWords, saltWords);
        long rounds = 1L << cost;
        for (long i = 0; i < rounds; i++) {
            expandKey(state, keyWords);
            expandKey(state, saltWords);
        }
        byte[] out = new byte[MAGIC.length * 4];
        for (int block = 0; block < MAGIC.length; block += 2) {
            long lr = ((long) MAGIC[block] << 32) | (MAGIC[block + 1] & 0xffffffffL);
            for (int i = 0; i < MAGIC_ENCRYPTIONS; i++) {
                lr = encipher(state, (int) (lr >>> 32), (int) lr);
            }
            putBigEndian(out, block * 4, (int) (lr >>> 32));
            putBigEndian(out, block * 4 + 4, (int) lr);
        }
        return out;
    }

    /** The password's UTF-8 bytes and the zero byte that ends it. */
    private static byte[] keyBytes(String password) {
        byte[] utf8 = password.getBytes(StandardCharsets.UTF_8);
        return Arrays.copyOf(utf8, utf8.length + 1);
    }

    /** The 18 words a key contributes to the P-array: its bytes repeated to fill 72, read big-endian. */
    private static int[] cyclicWords(byte[] bytes) {
        byte[] filled = new byte[KEY_BYTES];
        for (int i = 0; i < KEY_BYTES; i++) {
            filled[i] = bytes[i % bytes.length];
        }
        return bigEndianWords(filled, P_WORDS);
    }

    /**
     * Blowfish's key schedule with bcrypt's salt: P is mixed with the key, then P and the S-boxes are
     * replaced, in that order, by enciphering a block that is xored with the next two salt words each
     * time. Runs once a hash, so it favours plainness.
     */
    private static void expandKeyWithSalt(int[] state, int[] key, int[] salt) {
        for (int i = 0; i < P_WORDS; i++) {
            state[P + i] ^= key[i];
        }
        long lr = 0;
        int saltWord = 0;
        for (int i = 0; i < STATE_WORDS; i += 2, saltWord ^= 2) {
            int at = (P + i) % STATE_WORDS;
            lr = encipher(state, (int) (lr >>> 32) ^ salt[saltWord], (int) lr ^ salt[saltWord + 1]);
            state[at] = (int) (lr >>> 32);
            state[at + 1] = (int) lr;
        }
    }

    /**
     * Blowfish's key schedule without salt: P is mixed with the key, then P and the S-boxes are replaced,
     * in that order, by the chain of encipherments of a zero block. This is all of bcrypt's work, so the
     * rounds are written out. Two choices keep the JIT's work small as well as its code fast:
     * <ul>
     *   <li>P is read from the state rather than copied into 18 locals: that many live values push the
     *       state's own address out of the registers (C2 kept it in an XMM register and moved it back
     *       before every lookup), which cost 10%;</li>
     *   <li>one loop walks P and then the S-boxes, so the rounds appear once, and its store index is
     *       not a linear function of the loop counter, so C2 does not copy the loop to drop the stores'
     *       two range checks. With separate P and S loops the on-stack-replacement compile was 10.8 KB
     *       of code and took 2 to 5 times as long (0.1 to 0.5 s under load); now it is 5.9 KB. That
     *       compile runs while the first hashes do, and takes a core from them when every core
     *       hashes.</li>
     * </ul>
     */
    private static void expandKey(int[] state, int[] key) {
        for (int i = 0; i < P_WORDS; i++) {
            state[P + i] ^= key[i];
        }
        int l = 0;
        int r = 0;
        for (int block = 0; block < STATE_WORDS; block += 2) {
            // x = x ^ p ^ f(y) rather than x ^= f(y) ^ p: x ^ p does not wait for the lookups, so only
            // one xor follows them on the critical path.
            l ^= state[P];
            r = r ^ state[P + 1] ^ f(state, l);
            l = l ^ state[P + 2] ^ f(state, r);
            r = r ^ state[P + 3] ^ f(state, l);
            l = l ^ state[P + 4] ^ f(state, r);
            r = r ^ state[P + 5] ^ f(state, l);
            l = l ^ state[P + 6] ^ f(state, r);
            r = r ^ state[P + 7] ^ f(state, l);
            l = l ^ state[P + 8] ^ f(state, r);
            r = r ^ state[P + 9] ^ f(state, l);
            l = l ^ state[P + 10] ^ f(state, r);
            r = r ^ state[P + 11] ^ f(state, l);
            l = l ^ state[P + 12] ^ f(state, r);
            r = r ^ state[P + 13] ^ f(state, l);
            l = l ^ state[P + 14] ^ f(state, r);
            r = r ^ state[P + 15] ^ f(state, l);
            l = l ^ state[P + 16] ^ f(state, r);
            // The halves swap on the way out.
            int out = r ^ state[P + 17];
            r = l;
            l = out;
            int at = block < P_WORDS ? P + block : block - P_WORDS;
            state[at] = l;
            state[at + 1] = r;
        }
    }

    /** One Blowfish encipherment of (l, r) with the state's current P-array: the result as l << 32 | r. */
    private static long encipher(int[] state, int l, int r) {
        l ^= state[P];
        for (int i = 1; i < P_WORDS - 1; i += 2) {
            r = r ^ state[P + i] ^ f(state, l);
            l = l ^ state[P + i + 1] ^ f(state, r);
        }
        return ((long) (r ^ state[P + P_WORDS - 1]) << 32) | (l & 0xffffffffL);
    }

    /** Blowfish's round function: each byte of x picks a word from its S-box. */
    private static int f(int[] state, int x) {
        // Constant offsets plus (not or) a byte: the JIT folds them into the load's displacement.
        return ((state[S0 + (x >>> 24)] + state[S1 + ((x >>> 16) & 0xff)]) ^ state[S2 + ((x >>> 8) & 0xff)])
                + state[S3 + (x & 0xff)];
    }

    // ------------------------------------------------------------------ data

    /**
     * Blowfish's P-array and S-boxes as they start, in Blowfish's order (P, then the S-boxes): the
     * hexadecimal digits of pi after the point, read from a resource.
     */
    static int[] initialPiWords() {
        int[] words = new int[STATE_WORDS];
        for (int i = 0; i < STATE_WORDS; i++) {
            words[i] = INITIAL_STATE[(P + i) % STATE_WORDS];
        }
        return words;
    }

    private static int[] readPiWords() {
        String resource = "blowfish-pi-digits.txt";
        try (InputStream in = Bcrypt.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the resource " + resource + " is missing from the classpath beside " + Bcrypt.class.getName());
            }
            StringBuilder hex = new StringBuilder(STATE_WORDS * 8);
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (!line.startsWith("#")) {
                    hex.append(line.strip());
                }
            }
            if (hex.length() != STATE_WORDS * 8) {
                throw new IllegalStateException(resource + " has " + hex.length() + " hexadecimal digits, not " + STATE_WORDS * 8);
            }
            // pi gives P first, then the S-boxes; the state keeps the S-boxes first.
            int[] state = new int[STATE_WORDS];
            for (int i = 0; i < STATE_WORDS; i++) {
                state[(P + i) % STATE_WORDS] = Integer.parseUnsignedInt(hex, i * 8, i * 8 + 8, 16);
            }
            return state;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + resource, e);
        }
    }

    private static int[] bigEndianWords(byte[] bytes, int count) {
        int[] words = new int[count];
        for (int i = 0; i < count; i++) {
            words[i] = (bytes[4 * i] & 0xff) << 24 | (bytes[4 * i + 1] & 0xff) << 16 | (bytes[4 * i + 2] & 0xff) << 8 | (bytes[4 * i + 3] & 0xff);
        }
        return words;
    }

    private static void putBigEndian(byte[] out, int at, int word) {
        out[at] = (byte) (word >>> 24);
        out[at + 1] = (byte) (word >>> 16);
        out[at + 2] = (byte) (word >>> 8);
        out[at + 3] = (byte) word;
    }

    // ------------------------------------------------------------------ bcrypt's base64

    private static StringBuilder appendCost(StringBuilder out, int cost) {
        return out.append((char) ('0' + cost / 10)).append((char) ('0' + cost % 10));
    }

    /**
     * Base64 in bcrypt's own alphabet, without padding: each 3 bytes become 4 characters, big-endian,
     * and a last 1 or 2 bytes become 2 or 3.
     */
    private static StringBuilder encode(StringBuilder out, byte[] bytes, int length) {
        for (int i = 0; i < length; i += 3) {
            int remaining = Math.min(3, length - i);
            int group = (bytes[i] & 0xff) << 16;
            if (remaining > 1) group |= (bytes[i + 1] & 0xff) << 8;
            if (remaining > 2) group |= bytes[i + 2] & 0xff;
            for (int c = 0; c <= remaining; c++) {
                out.append(ALPHABET.charAt((group >>> (18 - 6 * c)) & 0x3f));
            }
        }
        return out;
    }

    /**
     * The 16 salt bytes of a setting's 22 characters. The last character carries only 2 bits of the salt;
     * its other 4 are ignored, as in every implementation, so the hash may show it differently.
     */
    private static byte[] decodeSalt(String setting) {
        byte[] salt = new byte[SALT_BYTES];
        int bits = 0;
        int pending = 0;
        int filled = 0;
        for (int i = PREFIX_CHARS; i < SETTING_CHARS; i++) {
            char c = setting.charAt(i);
            int value = c < ALPHABET_INDEX.length ? ALPHABET_INDEX[c] : -1;
            if (value < 0) {
                throw new IllegalArgumentException("a bcrypt salt is 22 characters of ./A-Za-z0-9 after \"$2a$NN$\"; character "
                        + (i + 1) + " is " + (Character.isISOControl(c) ? String.format("U+%04X", (int) c) : quote(String.valueOf(c))));
            }
            bits = bits << 6 | value;
            pending += 6;
            if (pending >= 8 && filled < SALT_BYTES) {
                pending -= 8;
                salt[filled++] = (byte) (bits >>> pending);
            }
        }
        return salt;
    }

    private static byte[] alphabetIndex() {
        byte[] index = new byte[128];
        Arrays.fill(index, (byte) -1);
        for (int i = 0; i < ALPHABET.length(); i++) {
            index[ALPHABET.charAt(i)] = (byte) i;
        }
        return index;
    }
}
