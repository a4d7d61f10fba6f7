package batchpipe.common.table;

import batchpipe.common.json.Json;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads items in DynamoDB JSON, the form {@code aws dynamodb query --output json} and the DynamoDB
 * console's export print ({@code {"Items":[{"pk":{"S":"run#r1"},"n":{"N":"1"}}]}}), so that runs
 * exported from a table can be read back as the SDK would have returned them.
 */
public final class DynamoDbJson {
    private DynamoDbJson() {
    }

    /** The {@code Items} of a query's output, in the order given. */
    @SuppressWarnings("unchecked") // DynamoDB JSON: only its type tags say what each value holds
    public static List<Map<String, AttributeValue>> items(String json) {
        Object items = Json.parseObject(json).get("Items");
        if (!(items instanceof List<?> list)) throw new IllegalArgumentException("DynamoDB JSON without an \"Items\" array");
        List<Map<String, AttributeValue>> result = new ArrayList<>();
        for (Object item : list) {
            if (!(item instanceof Map<?, ?> attributes)) throw new IllegalArgumentException("an item of \"Items\" is not an object");
            Map<String, AttributeValue> values = new LinkedHashMap<>();
            ((Map<String, Object>) attributes).forEach((name, value) -> values.put(name, attribute(name, value)));
            result.add(values);
        }
        return result;
    }

    @SuppressWarnings("unchecked") // see items
    private static AttributeValue attribute(String name, Object tagged) {
        if (!(tagged instanceof Map<?, ?> map) || map.size() != 1) {
            throw new IllegalArgumentException("attribute '" + name + "' is not one {\"TYPE\": value} pair: " + Json.write(tagged));
        }
        Map.Entry<String, Object> only = ((Map<String, Object>) map).entrySet().iterator().next();
        Object v = only.getValue();
        return switch (only.getKey()) {
            case "S" -> AttributeValue.fromS((String) v);
            case "N" -> AttributeValue.fromN((String) v);
            case "BOOL" -> AttributeValue.fromBool((Boolean) v);
            case "NULL" -> AttributeValue.fromNul(true);
            case "B" -> AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode((String) v)));
            case "SS" -> AttributeValue.fromSs((List<String>) v);
            case "NS" -> AttributeValue.fromNs((List<String>) v);
            case "BS" -> AttributeValue.fromBs(((List<String>) v).stream()
                    .map(b -> SdkBytes.fromByteArray(Base64.getDecoder().decode(b))).toList());
            case "L" -> AttributeValue.fromL(((List<Object>) v).stream().map(e -> attribute(name + "[]", e)).toList());
            case "M" -> {
                Map<String, AttributeValue> m = new LinkedHashMap<>();
                ((Map<String, Object>) v).forEach((k, e) -> m.put(k, attribute(name + "." + k, e)));
                yield AttributeValue.fromM(m);
            }
            default -> throw new IllegalArgumentException("attribute '" + name + "' has an unknown DynamoDB JSON type " + only.getKey());
        };
    }
}
