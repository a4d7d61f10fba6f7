package batchpipe.aggregator.cost;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ItemSizeTest {

    @Test
    void numberSize_isOneBytePerTwoSignificantDigitsPlusOne() {
        assertThat(ItemSize.numberSize(0L)).isEqualTo(2);              // 1 digit
        assertThat(ItemSize.numberSize(7L)).isEqualTo(2);              // 1 digit
        assertThat(ItemSize.numberSize(100L)).isEqualTo(2);            // trailing zeros trimmed: 1 digit
        assertThat(ItemSize.numberSize(12_345L)).isEqualTo(4);         // 5 digits: ceil(5/2) + 1
        assertThat(ItemSize.numberSize(new BigDecimal("1.5"))).isEqualTo(2);
        assertThat(ItemSize.numberSize(123_456_789L)).isEqualTo(6);    // 9 digits: 5 + 1
    }

    @Test
    void of_addsNamesAndValuesByDynamoDbsRules() {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("pk", "run#r1");                          // 2 + 6
        item.put("n", 12_345L);                            // 1 + 4
        item.put("ok", true);                              // 2 + 1
        item.put("m", Map.of("a", "xy"));                  // 1 + 3 + (1 + 2 + 1)
        item.put("l", List.of("ab", 7L));                  // 1 + 3 + (2 + 1) + (2 + 1)
        item.put("nothing", null);                         // 7 + 1

        assertThat(ItemSize.of(item)).isEqualTo(8 + 5 + 3 + 8 + 10 + 8);
    }

    @Test
    void of_countsMultiByteCharactersInBytes() {
        assertThat(ItemSize.of(Map.of("é", "€"))).isEqualTo(2 + 3);
    }
}
