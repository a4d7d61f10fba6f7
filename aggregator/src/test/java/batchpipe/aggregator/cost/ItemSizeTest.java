package batchpipe.aggregator.cost;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ItemSizeTest {

    @Test
    void numberSize_isOneBytePerTwoSignificantDigitsPlusOne() {
        assertThat(ItemSize.numberSize(new BigDecimal("0"))).isEqualTo(2);           // 1 digit
        assertThat(ItemSize.numberSize(new BigDecimal("7"))).isEqualTo(2);           // 1 digit
        assertThat(ItemSize.numberSize(new BigDecimal("100"))).isEqualTo(2);         // trailing zeros trimmed: 1 digit
        assertThat(ItemSize.numberSize(new BigDecimal("12345"))).isEqualTo(4);       // 5 digits: ceil(5/2) + 1
        assertThat(ItemSize.numberSize(new BigDecimal("1.5"))).isEqualTo(2);
        assertThat(ItemSize.numberSize(new BigDecimal("1.0"))).isEqualTo(2);         // a double stored as 1.0 is 1 digit, as 1 is
        assertThat(ItemSize.numberSize(new BigDecimal("123456789"))).isEqualTo(6);   // 9 digits: 5 + 1
    }

    @Test
    void of_addsNamesAndValuesByDynamoDbsRules() {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("pk", AttributeValue.fromS("run#r1"));                                          // 2 + 6
        item.put("n", AttributeValue.fromN("12345"));                                            // 1 + 4
        item.put("ok", AttributeValue.fromBool(true));                                           // 2 + 1
        item.put("m", AttributeValue.fromM(Map.of("a", AttributeValue.fromS("xy"))));            // 1 + 3 + (1 + 2 + 1)
        item.put("l", AttributeValue.fromL(List.of(AttributeValue.fromS("ab"), AttributeValue.fromN("7"))));  // 1 + 3 + (2 + 1) + (2 + 1)
        item.put("nothing", AttributeValue.fromNul(true));                                       // 7 + 1

        assertThat(ItemSize.of(item)).isEqualTo(8 + 5 + 3 + 8 + 10 + 8);
    }

    @Test
    void of_countsAStringSetAsAList() {
        // 2 + 3 + (1 + 1) + (2 + 1)
        assertThat(ItemSize.of(Map.of("ss", AttributeValue.fromSs(List.of("a", "bc"))))).isEqualTo(2 + 3 + 2 + 3);
    }

    @Test
    void of_countsMultiByteCharactersInBytes() {
        assertThat(ItemSize.of(Map.of("é", AttributeValue.fromS("€")))).isEqualTo(2 + 3);
    }
}
