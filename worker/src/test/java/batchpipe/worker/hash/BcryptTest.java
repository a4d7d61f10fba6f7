package batchpipe.worker.hash;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mindrot.jbcrypt.BCrypt;

import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BcryptTest {
    /** The test vectors published with OpenBSD's bcrypt and jBCrypt: password, salt, hash. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
            "''|$2a$06$DCq7YPn5Rq63x1Lad4cll.|$2a$06$DCq7YPn5Rq63x1Lad4cll.TV4S6ytwfsfvkgY8jIucDrjc8deX1s.",
            "''|$2a$08$HqWuK6/Ng6sg9gQzbLrgb.|$2a$08$HqWuK6/Ng6sg9gQzbLrgb.Tl.ZHfXLhvt/SgVyWhQqgqcZ7ZuUtye",
            "''|$2a$10$k1wbIrmNyFAPwPVPSVa/ze|$2a$10$k1wbIrmNyFAPwPVPSVa/zecw2BCEnBwVS2GbrmgzxFUOqW9dk4TCW",
            "''|$2a$12$k42ZFHFWqBp3vWli.nIn8u|$2a$12$k42ZFHFWqBp3vWli.nIn8uYyIkbvYRvodzbfbK18SSsY.CsIQPlxO",
            "a|$2a$06$m0CrhHm10qJ3lXRY.5zDGO|$2a$06$m0CrhHm10qJ3lXRY.5zDGO3rS2KdeeWLuGmsfGlMfOxih58VYVfxe",
            "a|$2a$08$cfcvVd2aQ8CMvoMpP2EBfe|$2a$08$cfcvVd2aQ8CMvoMpP2EBfeodLEkkFJ9umNEfPD18.hUF62qqlC/V.",
            "a|$2a$10$k87L/MF28Q673VKh8/cPi.|$2a$10$k87L/MF28Q673VKh8/cPi.SUl7MU/rWuSiIDDFayrKk/1tBsSQu4u",
            "a|$2a$12$8NJH3LsPrANStV6XtBakCe|$2a$12$8NJH3LsPrANStV6XtBakCez0cKHXVxmvxIlcz785vxAIZrihHZpeS",
            "abc|$2a$06$If6bvum7DFjUnE9p2uDeDu|$2a$06$If6bvum7DFjUnE9p2uDeDu0YHzrHM6tf.iqN8.yx.jNN1ILEf7h0i",
            "abc|$2a$08$Ro0CUfOqk6cXEKf3dyaM7O|$2a$08$Ro0CUfOqk6cXEKf3dyaM7OhSCvnwM9s4wIX9JeLapehKK5YdLxKcm",
            "abc|$2a$10$WvvTPHKwdBJ3uk0Z37EMR.|$2a$10$WvvTPHKwdBJ3uk0Z37EMR.hLA2W6N9AEBhEgrAOljy2Ae5MtaSIUi",
            "abc|$2a$12$EXRkfkdmXn2gzds2SSitu.|$2a$12$EXRkfkdmXn2gzds2SSitu.MW9.gAVqa9eLS1//RYtYCmB1eLHg.9q",
            "abcdefghijklmnopqrstuvwxyz|$2a$06$.rCVZVOThsIa97pEDOxvGu|$2a$06$.rCVZVOThsIa97pEDOxvGuRRgzG64bvtJ0938xuqzv18d3ZpQhstC",
            "abcdefghijklmnopqrstuvwxyz|$2a$08$aTsUwsyowQuzRrDqFflhge|$2a$08$aTsUwsyowQuzRrDqFflhgekJ8d9/7Z3GV3UcgvzQW3J5zMyrTvlz.",
            "abcdefghijklmnopqrstuvwxyz|$2a$10$fVH8e28OQRj9tqiDXs1e1u|$2a$10$fVH8e28OQRj9tqiDXs1e1uxpsjN0c7II7YPKXua2NAKYvM6iQk7dq",
            "abcdefghijklmnopqrstuvwxyz|$2a$12$D4G5f18o7aMMfwasBL7Gpu|$2a$12$D4G5f18o7aMMfwasBL7GpuQWuP3pkrZrOAnqP.bmezbMng.QwJ/pG",
            "~!@#$%^&*()      ~!@#$%^&*()PNBFRD|$2a$06$fPIsBO8qRqkjj273rfaOI.|$2a$06$fPIsBO8qRqkjj273rfaOI.HtSV9jLDpTbZn782DC6/t7qT67P6FfO",
            "~!@#$%^&*()      ~!@#$%^&*()PNBFRD|$2a$08$Eq2r4G/76Wv39MzSX262hu|$2a$08$Eq2r4G/76Wv39MzSX262huzPz612MZiYHVUJe/OcOql2jo4.9UxTW",
            "~!@#$%^&*()      ~!@#$%^&*()PNBFRD|$2a$10$LgfYWkbzEvQ4JakH7rOvHe|$2a$10$LgfYWkbzEvQ4JakH7rOvHe0y8pHKF9OaFgwUZ2q7W2FFZmZzJYlfS",
            "~!@#$%^&*()      ~!@#$%^&*()PNBFRD|$2a$12$WApznUOJfkEGSmYRfnkrPO|$2a$12$WApznUOJfkEGSmYRfnkrPOr466oFDCaj4b6HY3EXGvfxm43seyhgC",
    })
    void hashpw_matchesPublishedOpenBsdVectors(String password, String salt, String hash) {
        assertThat(Bcrypt.hashpw(password, salt)).isEqualTo(hash);
        assertThat(Bcrypt.checkpw(password, hash)).isTrue();
    }

    /**
     * Hashes made by C bcrypt (Debian's python3-bcrypt 3.2.2, OpenBSD's code): $2b$ and $2y$, UTF-8,
     * the 72-byte edge, and a 300-byte password, where C's $2b$ and our rule agree.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
            "''|$2b$04$abcdefghijklmnopqrstuubyCG3zY1GIXMyxfivm.ClDiInHzxjiq",
            "password_000001|$2b$10$N9qo8uLOickgx2ZMRZoMyes5vWJpu1D4b3u63y/hBv/xodHBBJ/YK",
            "pässwörd ✓ 密码 🔑|$2b$05$Z17AXnnlpzddNUvnC6cZNO.IT3cK9WRc4CX4tD6GUdkak9pMcFhHi",
            "Vapor3|$2y$05$kHM/VXmCVsGXDGIVu9mD8eOLPGzz5XaQDuTAyFJp2/9J72AqZ19vC",
    })
    void hashpw_matchesCBcrypt(String password, String hash) {
        assertThat(Bcrypt.hashpw(password, hash.substring(0, 29))).isEqualTo(hash);
    }

    @Test
    void hashpw_usesOnlyTheFirst72BytesOfAPassword() {
        String salt = "$2b$04$R1lJ2gkNaoPGdafE.H.16.";
        // From C bcrypt: 71 bytes still hash their ending zero byte; from 72 on, only the first 72 count.
        assertThat(Bcrypt.hashpw("x".repeat(71), salt)).isEqualTo("$2b$04$R1lJ2gkNaoPGdafE.H.16.CNOoZ3l2Ko45m4fHueJuofVhDp3QEge");
        assertThat(Bcrypt.hashpw("x".repeat(72), salt)).isEqualTo("$2b$04$R1lJ2gkNaoPGdafE.H.16.ZNLPuwzUucEIelFg3QDkD6yIb0E/M9a");
        assertThat(Bcrypt.hashpw("x".repeat(73), salt)).isEqualTo("$2b$04$R1lJ2gkNaoPGdafE.H.16.ZNLPuwzUucEIelFg3QDkD6yIb0E/M9a");
        String long300 = "0123456789".repeat(30);
        assertThat(Bcrypt.hashpw(long300, salt)).isEqualTo("$2b$04$R1lJ2gkNaoPGdafE.H.16.1MKHPvmKwryeulRe225LKProWYwt9Oi");
        // $2a$ follows jBCrypt: the same cut, and no wrap-around at 256 bytes as in OpenBSD's old $2a$.
        String setting2a = "$2a$04$R1lJ2gkNaoPGdafE.H.16.";
        assertThat(Bcrypt.hashpw(long300, setting2a)).isEqualTo("$2a$04$R1lJ2gkNaoPGdafE.H.16.1MKHPvmKwryeulRe225LKProWYwt9Oi")
                .isEqualTo(BCrypt.hashpw(long300, setting2a));
    }

    @Test
    void hashpw_cutsAMultiByteCharacterAtThe72ByteEdge() {
        String salt = "$2a$04$abcdefghijklmnopqrstuu";
        String seventyOneAndHalfAnEuro = "a".repeat(71) + "€";
        String seventyOneAndOtherHalf = "a".repeat(71) + "\u20ff";
        // '€' and U+20FF share their first UTF-8 byte (0xE2), the only one within 72 bytes.
        assertThat(Bcrypt.hashpw(seventyOneAndHalfAnEuro, salt)).isEqualTo(Bcrypt.hashpw(seventyOneAndOtherHalf, salt))
                .isEqualTo(BCrypt.hashpw(seventyOneAndHalfAnEuro, salt))
                .isNotEqualTo(Bcrypt.hashpw("a".repeat(71), salt));
    }

    /** Random passwords and salts at cost 4, against jBCrypt, the implementation whose hashes we stored until now. */
    @Test
    void hashpw_matchesJBcryptOnRandomPasswordsAndSalts() throws NoSuchAlgorithmException {
        long seed = 20_261_130L;
        Random random = new Random(seed);
        SecureRandom salts = SecureRandom.getInstance("SHA1PRNG");
        salts.setSeed(seed);
        for (int i = 0; i < 300; i++) {
            String password = randomPassword(random);
            String salt = Bcrypt.gensalt(4, salts);
            String expected = BCrypt.hashpw(password, salt);
            assertThat(Bcrypt.hashpw(password, salt)).as("password #%d (seed %d) of %d UTF-8 bytes, salt %s",
                    i, seed, password.getBytes(StandardCharsets.UTF_8).length, salt).isEqualTo(expected);
        }
    }

    /** Up to 100 characters mixing ASCII, accented, Cyrillic, CJK, emoji, NUL and lone surrogates. */
    private static String randomPassword(Random random) {
        int length = random.nextInt(101);
        StringBuilder password = new StringBuilder();
        for (int i = 0; i < length; i++) {
            switch (random.nextInt(8)) {
                case 0, 1, 2 -> password.append((char) (0x20 + random.nextInt(0x5f)));
                case 3 -> password.append((char) (0xa0 + random.nextInt(0x60)));
                case 4 -> password.append((char) (0x400 + random.nextInt(0x100)));
                case 5 -> password.append((char) (0x4e00 + random.nextInt(0x5000)));
                case 6 -> password.appendCodePoint(0x1f300 + random.nextInt(0x300));
                default -> password.append(random.nextBoolean() ? '\0' : (char) (0xd800 + random.nextInt(0x800)));
            }
        }
        return password.toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {"$2b$", "$2y$"})
    void hashpw_keepsTheSaltsVersionLetter(String version) {
        String salt = version + "05$abcdefghijklmnopqrstuu";
        String hash = Bcrypt.hashpw("secret", salt);
        assertThat(hash).startsWith(version + "05$abcdefghijklmnopqrstuu").hasSize(60);
        assertThat(hash.substring(29)).isEqualTo(Bcrypt.hashpw("secret", "$2a$05$abcdefghijklmnopqrstuu").substring(29));
    }

    @Test
    void hashpw_readsOnlyTwoBitsOfTheLastSaltCharacterAsEveryImplementationDoes() {
        // 'v' and 'u' differ only in the low 4 bits of their 6; the hash shows the salt as decoded.
        String hash = Bcrypt.hashpw("secret", "$2a$04$abcdefghijklmnopqrstuv");
        assertThat(hash).isEqualTo(Bcrypt.hashpw("secret", "$2a$04$abcdefghijklmnopqrstuu"))
                .isEqualTo(BCrypt.hashpw("secret", "$2a$04$abcdefghijklmnopqrstuv"))
                .startsWith("$2a$04$abcdefghijklmnopqrstuu");
    }

    @Test
    void hashpw_acceptsAWholeHashAsTheSalt() {
        String hash = Bcrypt.hashpw("secret", "$2a$04$abcdefghijklmnopqrstuu");
        assertThat(Bcrypt.hashpw("secret", hash)).isEqualTo(hash);
        assertThat(Bcrypt.hashpw("other", hash)).isNotEqualTo(hash).startsWith(hash.substring(0, 29));
    }

    @Test
    void checkpw_acceptsTheRightPasswordOnly() {
        String hash = Bcrypt.hashpw("correct horse", Bcrypt.gensalt(4));
        assertThat(Bcrypt.checkpw("correct horse", hash)).isTrue();
        assertThat(Bcrypt.checkpw("correct horsf", hash)).isFalse();
        assertThat(Bcrypt.checkpw("", hash)).isFalse();
        assertThat(BCrypt.checkpw("correct horse", hash)).as("jBCrypt verifies our hash").isTrue();
    }

    @Test
    void checkpw_verifies2bAnd2yHashesFromC() {
        assertThat(Bcrypt.checkpw("Vapor3", "$2y$05$kHM/VXmCVsGXDGIVu9mD8eOLPGzz5XaQDuTAyFJp2/9J72AqZ19vC")).isTrue();
        assertThat(Bcrypt.checkpw("password_000001", "$2b$10$N9qo8uLOickgx2ZMRZoMyes5vWJpu1D4b3u63y/hBv/xodHBBJ/YK")).isTrue();
        assertThat(Bcrypt.checkpw("password_000002", "$2b$10$N9qo8uLOickgx2ZMRZoMyes5vWJpu1D4b3u63y/hBv/xodHBBJ/YK")).isFalse();
    }

    @Test
    void checkpw_refusesAValueThatIsNotAHash() {
        assertThatThrownBy(() -> Bcrypt.checkpw("secret", "$2a$04$abcdefghijklmnopqrstuu"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a bcrypt hash has 60 characters; this one has 29");
    }

    @Test
    void gensalt_makes2aSaltsOfTheCostThatDifferEachTime() {
        Set<String> salts = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            String salt = Bcrypt.gensalt(7);
            assertThat(salt).matches("\\$2a\\$07\\$[./A-Za-z0-9]{21}[.Oeu]");
            salts.add(salt);
        }
        assertThat(salts).hasSize(50);
        assertThat(Bcrypt.gensalt(31)).startsWith("$2a$31$");
        assertThat(Bcrypt.gensalt(4)).startsWith("$2a$04$");
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 32, -1, 0})
    void gensalt_refusesACostOutsideFourToThirtyOne(int cost) {
        assertThatThrownBy(() -> Bcrypt.gensalt(cost))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bcrypt cost " + cost + " (in gensalt) is out of range: it must be between 4 and 31");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "$2a$03$abcdefghijklmnopqrstuu|bcrypt cost 3 (in salt \"$2a$03$\") is out of range: it must be between 4 and 31",
            "$2a$32$abcdefghijklmnopqrstuu|bcrypt cost 32 (in salt \"$2a$32$\") is out of range: it must be between 4 and 31",
            "$2a$04$abcdefghijklmnopqrstu|a bcrypt salt has 29 characters (or is a whole 60-character hash); this one has 28",
            "$2x$04$abcdefghijklmnopqrstuu|a bcrypt salt starts with $2a$, $2b$ or $2y$; this one starts with \"$2x$\"",
            "$3a$04$abcdefghijklmnopqrstuu|a bcrypt salt starts with $2a$, $2b$ or $2y$; this one starts with \"$3a$\"",
            "$2a$4$$abcdefghijklmnopqrstuu|a bcrypt salt has a two-digit cost and a $ after its version, as in $2a$10$; this one has \"$2a$4$$\"",
            "$2a$04-abcdefghijklmnopqrstuu|a bcrypt salt has a two-digit cost and a $ after its version, as in $2a$10$; this one has \"$2a$04-\"",
            "$2a$04$abcdefghij+lmnopqrstuu|a bcrypt salt is 22 characters of ./A-Za-z0-9 after \"$2a$NN$\"; character 18 is \"+\"",
    })
    void hashpw_refusesABadSaltAndSaysWhatIsWrong(String salt, String message) {
        assertThatThrownBy(() -> Bcrypt.hashpw("secret", salt))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void hashpw_namesAControlCharacterInASaltByItsCode() {
        assertThatThrownBy(() -> Bcrypt.hashpw("secret", "$2a$04$abcdefghij\nlmnopqrstuu"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("character 18 is U+000A");
    }

    @Test
    void hashpw_refusesNullArgumentsByName() {
        assertThatThrownBy(() -> Bcrypt.hashpw(null, "$2a$04$abcdefghijklmnopqrstuu")).hasMessage("password");
        assertThatThrownBy(() -> Bcrypt.hashpw("secret", null)).hasMessage("salt");
    }
}
