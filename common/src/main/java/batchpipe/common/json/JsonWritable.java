package batchpipe.common.json;

/** A value that knows its JSON form as maps, lists and scalars. */
public interface JsonWritable {
    Object toJsonValue();
}
