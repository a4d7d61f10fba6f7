package batchpipe.common.json;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonTest {

    @Nested
    class Parsing {
        @Test
        void parse_readsObjectsInFieldOrder() {
            Object value = Json.parse("{\"b\":1,\"a\":2,\"c\":3}");

            assertThat(value).isInstanceOf(LinkedHashMap.class);
            assertThat(List.copyOf(((Map<?, ?>) value).keySet())).isEqualTo(List.of("b", "a", "c"));
        }

        @Test
        void parse_readsEveryValueType() {
            Object value = Json.parse(" {\"s\":\"x\",\"n\":7,\"d\":1.5,\"t\":true,\"f\":false,\"z\":null,\"l\":[1,\"two\",[]],\"o\":{}} ");

            Map<String, Object> expected = new LinkedHashMap<>();
            expected.put("s", "x");
            expected.put("n", 7L);
            expected.put("d", new BigDecimal("1.5"));
            expected.put("t", true);
            expected.put("f", false);
            expected.put("z", null);
            expected.put("l", List.of(1L, "two", List.of()));
            expected.put("o", Map.of());
            assertThat(value).isEqualTo(expected);
        }

        @Test
        void parse_rejectsTrailingContentAndNamesTheOffset() {
            assertThatThrownBy(() -> Json.parse("{\"a\":1} x"))
                    .isInstanceOf(JsonException.class)
                    .hasMessage("invalid JSON at offset 8: unexpected content after the JSON value");
        }

        @Test
        void parse_rejectsASecondDocument() {
            assertThatThrownBy(() -> Json.parse("{}{}"))
                    .isInstanceOf(JsonException.class)
                    .hasMessage("invalid JSON at offset 2: unexpected content after the JSON value");
        }

        @Test
        void parse_rejectsDuplicateKeysAtTheSecondKey() {
            assertThatThrownBy(() -> Json.parse("{\"a\":1,\"a\":2}"))
                    .isInstanceOf(JsonException.class)
                    .hasMessage("invalid JSON at offset 7: duplicate field \"a\"");
        }

        @Test
        void parse_rejectsDuplicateKeysInNestedObjects() {
            assertThatThrownBy(() -> Json.parse("[{\"k\":{},\"k\":{}}]"))
                    .isInstanceOf(JsonException.class)
                    .hasMessageContaining("duplicate field \"k\"");
        }

        @Test
        void parse_acceptsNestingUpToMaxDepth() {
            // 64 arrays around a number: the number is the 65th value level, depth 64 counted from 0.
            String text = "[".repeat(Json.MAX_DEPTH) + "1" + "]".repeat(Json.MAX_DEPTH);

            Object value = Json.parse(text);

            for (int i = 0; i < Json.MAX_DEPTH; i++) {
                assertThat(value).isInstanceOf(List.class);
                value = ((List<?>) value).get(0);
            }
            assertThat(value).isEqualTo(1L);
        }

        @Test
        void parse_rejectsNestingOverMaxDepth() {
            String text = "[".repeat(Json.MAX_DEPTH + 1) + "1" + "]".repeat(Json.MAX_DEPTH + 1);

            assertThatThrownBy(() -> Json.parse(text))
                    .isInstanceOf(JsonException.class)
                    .hasMessage("invalid JSON at offset 64: nesting deeper than 64 levels");
        }

        @Test
        void parse_rejectsDeeplyNestedObjectsWithoutStackOverflow() {
            String text = "{\"a\":".repeat(100_000) + "1" + "}".repeat(100_000);

            assertThatThrownBy(() -> Json.parse(text))
                    .isInstanceOf(JsonException.class)
                    .hasMessageContaining("nesting deeper than 64 levels");
        }

        @Test
        void parse_rejectsSixtyFiveNestedEmptyArrays() {
            String text = "[".repeat(Json.MAX_DEPTH + 1) + "]".repeat(Json.MAX_DEPTH + 1);

            assertThatThrownBy(() -> Json.parse(text))
                    .isInstanceOf(JsonException.class)
                    .hasMessageContaining("nesting deeper than 64 levels");
        }

        @Test
        void parse_rejectsUnescapedControlCharacters() {
            assertThatThrownBy(() -> Json.parse("\"a\u0001b\""))
                    .isInstanceOf(JsonException.class)
                    .hasMessage("invalid JSON at offset 2: unescaped control character in string");
            assertThatThrownBy(() -> Json.parse("\"line\nbreak\""))
                    .isInstanceOf(JsonException.class)
                    .hasMessage("invalid JSON at offset 5: unescaped control character in string");
            assertThatThrownBy(() -> Json.parse("\"tab\there\""))
                    .isInstanceOf(JsonException.class)
                    .hasMessageContaining("unescaped control character");
        }

        @Test
        void parse_decodesEveryEscape() {
            Object value = Json.parse("\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t \\u00e9\\u20AC \\ud83d\\ude00\"");

            assertThat(value).isEqualTo("q\" b\\ s/ \b\f\n\r\t é€ \uD83D\uDE00");
        }

        @Test
        void parse_keepsTextAroundEscapes() {
            assertThat(Json.parse("\"ab\\ncd\\tef\"")).isEqualTo("ab\ncd\tef");
        }

        @Test
        void parse_rejectsInvalidEscapes() {
            assertThatThrownBy(() -> Json.parse("\"a\\x\""))
                    .isInstanceOf(JsonException.class)
                    .hasMessage("invalid JSON at offset 3: invalid escape '\\x'");
            assertThatThrownBy(() -> Json.parse("\"\\u12xy\""))
                    .isInstanceOf(JsonException.class)
                    .hasMessageContaining("invalid \\u escape");
            assertThatThrownBy(() -> Json.parse("\"\\u12"))
                    .isInstanceOf(JsonException.class)
                    .hasMessageContaining("truncated \\u escape");
            assertThatThrownBy(() -> Json.parse("\"\\u00g1\""))
                    .isInstanceOf(JsonException.class)
                    .hasMessageContaining("invalid \\u escape");
            assertThatThrownBy(() -> Json.parse("\"abc\\"))
                    .isInstanceOf(JsonException.class)
                    .hasMessageContaining("unterminated escape");
        }

        @Test
        void parse_rejectsNonAsciiDigitsInUnicodeEscape() {
            // U+0664 ARABIC-INDIC DIGIT FOUR
            assertThatThrownBy(() -> Json.parse("\"\\u00\u06641\""))
                    .isInstanceOf(JsonException.class)
                    .hasMessageContaining("invalid \\u escape");
        }

        @Test
        void parse_rejectsUnterminatedString() {
            assertThatThrownBy(() -> Json.parse("\"abc"))
                    .isInstanceOf(JsonException.class)
                    .hasMessage("invalid JSON at offset 4: unterminated string");
        }

        @Test
        void parse_readsIntegersThatFitAsLong() {
            assertThat(Json.parse("42")).isEqualTo(42L);
            assertThat(Json.parse("-7")).isEqualTo(-7L);
            assertThat(Json.parse("0")).isEqualTo(0L);
            assertThat(Json.parse("-0")).isEqualTo(0L);
            assertThat(Json.parse("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
            assertThat(Json.parse("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
        }

        @Test
        void parse_readsOtherNumbersAsBigDecimal() {
            assertThat(Json.parse("9223372036854775808")).isEqualTo(new BigDecimal("9223372036854775808"));
            assertThat(Json.parse("-9223372036854775809")).isEqualTo(new BigDecimal("-9223372036854775809"));
            assertThat(Json.parse("1.50")).isEqualTo(new BigDecimal("1.50"));
            assertThat(Json.parse("1e3")).isEqualTo(new BigDecimal("1E+3"));
            assertThat(Json.parse("-2.5E-3")).isEqualTo(new BigDecimal("-0.0025"));
            assertThat(Json.parse("1.0")).isInstanceOf(BigDecimal.class);
        }

        @ParameterizedTest
        @ValueSource(strings = {"01", "-01", "00", "[007]", "{\"a\":012}", "1.", ".5", "+1", "-", "1e", "1e+", "-a", "0x10"})
        void parse_rejectsMalformedNumbersAndLeadingZeros(String text) {
            assertThatThrownBy(() -> Json.parse(text)).isInstanceOf(JsonException.class);
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "   ", "tru", "nul", "falsey", "[1,]", "{\"a\":1,}", "[1 2]", "{\"a\" 1}", "{a:1}",
                "{'a':1}", "[", "{", "{\"a\":}", "NaN", "Infinity"})
        void parse_rejectsMalformedDocuments(String text) {
            assertThatThrownBy(() -> Json.parse(text)).isInstanceOf(JsonException.class);
        }

        @Test
        void parse_reportsTheEndOfInput() {
            assertThatThrownBy(() -> Json.parse(" "))
                    .isInstanceOf(JsonException.class)
                    .hasMessage("invalid JSON at offset 1: unexpected end of input");
        }

        @Test
        void parseObject_rejectsOtherTopLevelValues() {
            assertThatThrownBy(() -> Json.parseObject("[1]"))
                    .isInstanceOf(JsonException.class)
                    .hasMessage("expected a JSON object, got an array");
            assertThatThrownBy(() -> Json.parseObject("null"))
                    .isInstanceOf(JsonException.class)
                    .hasMessage("expected a JSON object, got null");
            assertThatThrownBy(() -> Json.parseObject("\"x\""))
                    .isInstanceOf(JsonException.class)
                    .hasMessage("expected a JSON object, got a string");
        }

        @Test
        void typeName_namesEachShape() {
            assertThat(Json.typeName(null)).isEqualTo("null");
            assertThat(Json.typeName(Map.of())).isEqualTo("an object");
            assertThat(Json.typeName(List.of())).isEqualTo("an array");
            assertThat(Json.typeName("s")).isEqualTo("a string");
            assertThat(Json.typeName(true)).isEqualTo("a boolean");
            assertThat(Json.typeName(new BigDecimal("1"))).isEqualTo("a number");
        }
    }

    @Nested
    class Writing {
        @Test
        void write_escapesQuotesBackslashesAndControlCharacters() {
            String written = Json.write("a\"b\\c\nd\re\tf\bg\fh\u0001i\u001fj\u2028k\u2029l/é");

            assertThat(written).isEqualTo("\"a\\\"b\\\\c\\nd\\re\\tf\\bg\\fh\\u0001i\\u001fj\\u2028k\\u2029l/é\"");
        }

        @Test
        void write_escapedTextParsesBackToTheSameString() {
            String original = "quote\" slash\\ nl\n cr\r nul\u0000 ls\u2028 emoji\uD83D\uDE00";

            assertThat(Json.parse(Json.write(original))).isEqualTo(original);
        }

        @Test
        void quote_escapesWhatAJsonStringMayNotHoldAndReadsBack() {
            assertThat(Json.quote("a\"b\\c\n\u0001")).isEqualTo("\"a\\\"b\\\\c\\n\\u0001\"");
            assertThat(Json.parse(Json.quote("tab\there \u001f end"))).isEqualTo("tab\there \u001f end");
        }

        @Test
        void quote_escapesAnUnpairedSurrogateSoTheTextStaysEncodableAsUtf8() {
            assertThat(Json.quote("lone \uD800 high, lone \uDC00 low")).isEqualTo("\"lone \\ud800 high, lone \\udc00 low\"");
            assertThat(Json.parse(Json.quote("x\uDBFFy"))).isEqualTo("x\uDBFFy");
        }

        @Test
        void write_turnsNaNAndInfinityIntoNull() {
            assertThat(Json.write(Double.NaN)).isEqualTo("null");
            assertThat(Json.write(Double.POSITIVE_INFINITY)).isEqualTo("null");
            assertThat(Json.write(Float.NEGATIVE_INFINITY)).isEqualTo("null");
            assertThat(Json.write(Arrays.asList(1.0, Double.NaN))).isEqualTo("[1,null]");
        }

        @Test
        void write_writesNumbersWithoutNeedlessFractions() {
            assertThat(Json.write(2.0)).isEqualTo("2");
            assertThat(Json.write(-3.0)).isEqualTo("-3");
            assertThat(Json.write(0.25)).isEqualTo("0.25");
            assertThat(Json.write(1.5f)).isEqualTo("1.5");
            assertThat(Json.write(1e20)).isEqualTo("100000000000000000000");
            assertThat(Json.write(1.0e-7)).isEqualTo("0.0000001");
            assertThat(Json.write(new BigDecimal("1.50"))).isEqualTo("1.50");
            assertThat(Json.write(new BigDecimal("1E+3"))).isEqualTo("1000");
            assertThat(Json.write(42)).isEqualTo("42");
            assertThat(Json.write(Long.MIN_VALUE)).isEqualTo("-9223372036854775808");
            assertThat(Json.write(new BigInteger("123456789012345678901234567890"))).isEqualTo("123456789012345678901234567890");
        }

        @Test
        void write_writesCompactMapsListsAndScalars() {
            Map<String, Object> value = new LinkedHashMap<>();
            value.put("a", 1L);
            value.put("b", List.of(true, false));
            value.put("c", null);
            value.put("d", Map.of("e", "f"));

            assertThat(Json.write(value)).isEqualTo("{\"a\":1,\"b\":[true,false],\"c\":null,\"d\":{\"e\":\"f\"}}");
        }

        @Test
        void write_usesJsonValueOfJsonWritableAndTheTextOfACharSequence() {
            JsonWritable writable = () -> Map.of("k", 1);

            assertThat(Json.write(List.of(writable, new StringBuilder("2026-11-30T01:02:03Z"))))
                    .isEqualTo("[{\"k\":1},\"2026-11-30T01:02:03Z\"]");
        }

        @Test
        void writePretty_indentsNestedContainersAndKeepsScalarListsOnOneLine() {
            Map<String, Object> value = new LinkedHashMap<>();
            value.put("a", 1L);
            value.put("b", List.of(1L, 2L));
            value.put("c", Map.of("d", List.of(Map.of("e", true))));
            value.put("f", Map.of());
            value.put("g", List.of());

            assertThat(Json.writePretty(value)).isEqualTo("""
                    {
                      "a": 1,
                      "b": [1,2],
                      "c": {
                        "d": [
                          {
                            "e": true
                          }
                        ]
                      },
                      "f": {},
                      "g": []
                    }
                    """);
        }

        @Test
        void writePretty_parsesBackEqual() {
            Map<String, Object> inner = new LinkedHashMap<>();
            inner.put("text", "multi\nline \"quoted\"");
            inner.put("list", new ArrayList<>(Arrays.asList(1L, null, "x", new BigDecimal("2.5"))));
            Map<String, Object> value = new LinkedHashMap<>();
            value.put("runId", "r1");
            value.put("n", Long.MAX_VALUE);
            value.put("ok", false);
            value.put("nested", inner);
            value.put("rows", List.of(Map.of("a", 1L), Map.of("a", 2L)));
            value.put("empty", Map.of());

            assertThat(Json.parse(Json.writePretty(value))).isEqualTo(value);
            assertThat(Json.parse(Json.write(value))).isEqualTo(value);
        }
    }

    @Test
    void write_refusesATypeItDoesNotKnowInsteadOfWritingItsToString() {
        assertThatThrownBy(() -> Json.write(java.util.Map.of("at", java.time.Instant.EPOCH)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("java.time.Instant");
        assertThatThrownBy(() -> Json.writePretty(java.util.Map.of("at", java.util.List.of(new Object()))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("java.lang.Object");
    }
}
