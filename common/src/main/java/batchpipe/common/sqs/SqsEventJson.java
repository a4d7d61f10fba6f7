package batchpipe.common.sqs;

import batchpipe.common.json.Json;
import batchpipe.common.json.JsonException;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.MessageAttribute;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the SQS event Lambda hands the worker and writes its partial batch response, with the
 * project's own JSON reader instead of the runtime's serializer. Why: for a
 * {@code RequestHandler<SQSEvent, ...>} the runtime interface client builds its shaded Jackson with the
 * event mix-ins before the first event (about 800 classes, a fifth of an on-demand cold start here;
 * docs/DEPLOY.md, "What a cold start builds"), while the event itself is a few flat objects.
 *
 * <p>Every field of the documented record shape is read onto the events library's {@link SQSMessage},
 * so the rest of the worker is unchanged. Unknown fields are ignored, as the runtime's serializer ignores
 * them (AWS adds attributes over time). A document that is not an SQS event is an error naming the field,
 * which fails the invocation: Lambda then delivers the whole batch again and, after the queue's receive
 * limit, moves it to the dead-letter queue; nothing is acknowledged that was not processed.
 */
public final class SqsEventJson {
    private SqsEventJson() {
    }

    /** The records of an SQS event ({@code {"Records":[...]}}); an empty list for an empty batch. */
    public static List<SQSMessage> records(byte[] event) {
        Map<String, Object> root;
        try {
            root = Json.parseObject(new String(event, StandardCharsets.UTF_8));
        } catch (JsonException e) {
            throw new InvalidSqsEventException("the event is not an SQS event: " + e.getMessage());
        }
        Object records = root.get("Records");
        if (!(records instanceof List<?> list)) {
            throw new InvalidSqsEventException("the event is not an SQS event: 'Records' must be an array, got "
                    + Json.typeName(records) + (root.containsKey("Records") ? "" : " (no such field)"));
        }
        List<SQSMessage> messages = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            messages.add(message(list.get(i), "Records[" + i + "]"));
        }
        return messages;
    }

    /** {@code {"batchItemFailures":[{"itemIdentifier":"..."}]}}, the shape ReportBatchItemFailures reads. */
    public static byte[] write(SQSBatchResponse response) {
        StringBuilder out = new StringBuilder(64);
        out.append("{\"batchItemFailures\":[");
        List<SQSBatchResponse.BatchItemFailure> failures = response.getBatchItemFailures();
        for (int i = 0; failures != null && i < failures.size(); i++) {
            if (i > 0) out.append(',');
            out.append("{\"itemIdentifier\":");
            String id = failures.get(i).getItemIdentifier();
            if (id == null) out.append("null"); else Json.quote(out, id);
            out.append('}');
        }
        return out.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static SQSMessage message(Object value, String path) {
        Map<String, Object> record = object(value, path);
        SQSMessage message = new SQSMessage();
        String messageId = string(record, "messageId", path);
        if (messageId == null || messageId.isEmpty()) {
            // Without it the message can be neither reported nor acknowledged on its own.
            throw new InvalidSqsEventException("the event is not an SQS event: '" + path + ".messageId' is required");
        }
        message.setMessageId(messageId);
        message.setReceiptHandle(string(record, "receiptHandle", path));
        message.setBody(string(record, "body", path));
        message.setMd5OfBody(string(record, "md5OfBody", path));
        message.setMd5OfMessageAttributes(string(record, "md5OfMessageAttributes", path));
        message.setEventSource(string(record, "eventSource", path));
        message.setEventSourceArn(string(record, "eventSourceARN", path));
        message.setAwsRegion(string(record, "awsRegion", path));
        message.setAttributes(stringMap(record.get("attributes"), path + ".attributes"));
        message.setMessageAttributes(messageAttributes(record.get("messageAttributes"), path + ".messageAttributes"));
        return message;
    }

    private static Map<String, String> stringMap(Object value, String path) {
        if (value == null) return null;
        Map<String, Object> object = object(value, path);
        Map<String, String> strings = new LinkedHashMap<>(object.size() * 2);
        for (String key : object.keySet()) {
            strings.put(key, string(object, key, path));
        }
        return strings;
    }

    private static Map<String, MessageAttribute> messageAttributes(Object value, String path) {
        if (value == null) return null;
        Map<String, Object> object = object(value, path);
        Map<String, MessageAttribute> attributes = new LinkedHashMap<>(object.size() * 2);
        for (Map.Entry<String, Object> entry : object.entrySet()) {
            String attributePath = path + "." + entry.getKey();
            Map<String, Object> fields = object(entry.getValue(), attributePath);
            MessageAttribute attribute = new MessageAttribute();
            attribute.setDataType(string(fields, "dataType", attributePath));
            attribute.setStringValue(string(fields, "stringValue", attributePath));
            String binary = string(fields, "binaryValue", attributePath);
            attribute.setBinaryValue(binary == null ? null : base64(binary, attributePath + ".binaryValue"));
            attribute.setStringListValues(stringList(fields.get("stringListValues"), attributePath + ".stringListValues"));
            List<String> binaries = stringList(fields.get("binaryListValues"), attributePath + ".binaryListValues");
            if (binaries != null) {
                List<ByteBuffer> buffers = new ArrayList<>(binaries.size());
                for (int i = 0; i < binaries.size(); i++) {
                    buffers.add(base64(binaries.get(i), attributePath + ".binaryListValues[" + i + "]"));
                }
                attribute.setBinaryListValues(buffers);
            }
            attributes.put(entry.getKey(), attribute);
        }
        return attributes;
    }

    private static List<String> stringList(Object value, String path) {
        if (value == null) return null;
        if (!(value instanceof List<?> list)) {
            throw new InvalidSqsEventException("the event is not an SQS event: '" + path + "' must be an array, got " + Json.typeName(value));
        }
        List<String> strings = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            Object item = list.get(i);
            if (!(item instanceof String s)) {
                throw new InvalidSqsEventException("the event is not an SQS event: '" + path + "[" + i + "]' must be a string, got "
                        + Json.typeName(item));
            }
            strings.add(s);
        }
        return strings;
    }

    private static ByteBuffer base64(String value, String path) {
        try {
            return ByteBuffer.wrap(Base64.getDecoder().decode(value));
        } catch (IllegalArgumentException e) {
            throw new InvalidSqsEventException("the event is not an SQS event: '" + path + "' is not base64: " + e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value, String path) {
        if (!(value instanceof Map<?, ?>)) {
            throw new InvalidSqsEventException("the event is not an SQS event: '" + path + "' must be an object, got " + Json.typeName(value));
        }
        return (Map<String, Object>) value;
    }

    /** A string field, or null when absent or null; any other type is an error naming the field. */
    private static String string(Map<String, Object> object, String field, String path) {
        Object value = object.get(field);
        if (value == null || value instanceof String) return (String) value;
        throw new InvalidSqsEventException("the event is not an SQS event: '" + path + "." + field + "' must be a string, got "
                + Json.typeName(value));
    }

    /** The event handed to the worker is not an SQS event; the invocation fails and the batch comes back. */
    public static final class InvalidSqsEventException extends IllegalArgumentException {
        public InvalidSqsEventException(String message) {
            super(message);
        }
    }
}
