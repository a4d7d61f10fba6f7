package batchpipe.common.table;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ItemCodecTest {

    @Test
    void roundTrip_keepsNestedMapsListsNumbersBooleansAndNulls() {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("k", false);
        inner.put("gone", null);
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("s", "text");
        values.put("i", 42);
        values.put("l", 7_000_000_000L);
        values.put("d", new BigDecimal("2.50"));
        values.put("dbl", 1.5);
        values.put("t", true);
        values.put("nested", Map.of("inner", Arrays.asList(1, "two", null, inner)));
        values.put("top", null);

        Map<String, Object> back = ItemCodec.fromItem(ItemCodec.toItem(values));

        Map<String, Object> expectedInner = new LinkedHashMap<>();
        expectedInner.put("k", false);
        expectedInner.put("gone", null);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("s", "text");
        expected.put("i", 42L);
        expected.put("l", 7_000_000_000L);
        expected.put("d", new BigDecimal("2.50"));
        expected.put("dbl", new BigDecimal("1.5"));
        expected.put("t", true);
        expected.put("nested", Map.of("inner", Arrays.asList(1L, "two", null, expectedInner)));
        assertThat(back).isEqualTo(expected);
        assertThat(back).doesNotContainKey("top");
        assertThat(back.keySet()).containsExactly("d", "dbl", "i", "l", "nested", "s", "t");
    }

    @Test
    void toAttribute_mapsEachJavaTypeToItsDynamoDbType() {
        assertThat(ItemCodec.toAttribute("x")).isEqualTo(AttributeValue.fromS("x"));
        assertThat(ItemCodec.toAttribute(42)).isEqualTo(AttributeValue.fromN("42"));
        assertThat(ItemCodec.toAttribute(-5L)).isEqualTo(AttributeValue.fromN("-5"));
        assertThat(ItemCodec.toAttribute(0.1)).isEqualTo(AttributeValue.fromN("0.1"));
        assertThat(ItemCodec.toAttribute(new BigDecimal("1E+3"))).isEqualTo(AttributeValue.fromN("1000"));
        assertThat(ItemCodec.toAttribute(true)).isEqualTo(AttributeValue.fromBool(true));
        assertThat(ItemCodec.toAttribute(null)).isEqualTo(AttributeValue.fromNul(true));
        assertThat(ItemCodec.toAttribute(new byte[]{1, 2})).isEqualTo(AttributeValue.fromB(SdkBytes.fromByteArray(new byte[]{1, 2})));
        assertThat(ItemCodec.toAttribute(List.of("a", 1))).isEqualTo(
                AttributeValue.fromL(List.of(AttributeValue.fromS("a"), AttributeValue.fromN("1"))));
        assertThat(ItemCodec.toAttribute(Map.of(5, "v"))).isEqualTo(AttributeValue.fromM(Map.of("5", AttributeValue.fromS("v"))));
        AttributeValue given = AttributeValue.fromSs(List.of("a"));
        assertThat(ItemCodec.toAttribute(given)).isSameAs(given);
    }

    @Test
    void toAttribute_rejectsTypesDynamoDbCannotHold() {
        assertThatThrownBy(() -> ItemCodec.toAttribute(new Object()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot store a java.lang.Object in DynamoDB");
    }

    @Test
    void fromAttribute_readsIntegralNumbersAsLongAndOthersAsBigDecimal() {
        assertThat(ItemCodec.fromAttribute(AttributeValue.fromN("12"))).isEqualTo(12L);
        assertThat(ItemCodec.fromAttribute(AttributeValue.fromN("2.0"))).isEqualTo(2L);
        assertThat(ItemCodec.fromAttribute(AttributeValue.fromN("2.25"))).isEqualTo(new BigDecimal("2.25"));
        assertThat(ItemCodec.fromAttribute(AttributeValue.fromN("12345678901234567890")))
                .isEqualTo(new BigDecimal("12345678901234567890"));
    }

    @Test
    void fromAttribute_readsSetsAndBinary() {
        assertThat(ItemCodec.fromAttribute(AttributeValue.fromSs(List.of("b", "a")))).isEqualTo(List.of("b", "a"));
        assertThat(ItemCodec.fromAttribute(AttributeValue.fromNs(List.of("1", "2.5"))))
                .isEqualTo(List.of(new BigDecimal("1"), new BigDecimal("2.5")));
        assertThat((byte[]) ItemCodec.fromAttribute(AttributeValue.fromB(SdkBytes.fromByteArray(new byte[]{9}))))
                .containsExactly(9);
        assertThat(ItemCodec.fromAttribute(AttributeValue.fromL(List.of()))).isEqualTo(List.of());
        assertThat(ItemCodec.fromAttribute(AttributeValue.fromM(Map.of()))).isEqualTo(Map.of());
    }
}
