package batchpipe.common.json;

/** A document that is not the strict JSON this project accepts; the message names the offset. */
public final class JsonException extends IllegalArgumentException {
    public JsonException(String message) {
        super(message);
    }
}
