package batchpipe.common.run;

import batchpipe.common.table.ItemCodec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.Map;

/** Builds one item: attributes whose value is null are left out, as records have always been stored. */
final class ItemWriter {
    private final Map<String, AttributeValue> item = new LinkedHashMap<>();

    ItemWriter put(String name, Object value) {
        // ItemCodec keeps the number forms records have always had (a double as its shortest decimal)
        if (value != null) item.put(name, ItemCodec.toAttribute(value));
        return this;
    }

    ItemWriter putAll(Map<String, AttributeValue> attributes) {
        item.putAll(attributes);
        return this;
    }

    Map<String, AttributeValue> item() {
        return item;
    }
}
