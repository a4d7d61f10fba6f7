package batchpipe.worker.scan;

import java.io.IOException;

/**
 * The object's bytes are not a valid zstd or gzip stream, or the stream ends mid-frame: retrying the
 * same object cannot help. IOExceptions thrown by the source itself are never wrapped in this type.
 */
public class CorruptDataException extends IOException {

    private static final long serialVersionUID = 1L;

    public CorruptDataException(String message, Throwable cause) {
        super(message, cause);
    }

    public CorruptDataException(String message) {
        super(message);
    }
}
