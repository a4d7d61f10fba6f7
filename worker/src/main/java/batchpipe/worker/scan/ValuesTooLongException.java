package batchpipe.worker.scan;

/**
 * A countBy path's values are so long that the bytes a path may hold cannot keep enough of them for the
 * approximate counts to mean anything: retrying the same object cannot help, counting a shorter field can.
 * Unchecked, as it is raised inside a chunk's parse on a pool thread and reaches the caller unchanged.
 */
public class ValuesTooLongException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ValuesTooLongException(String path, int valueBytes, int valuesHeld, int maxValueBytes) {
        super("countBy path '" + path + "' has values too long to count in bounded memory: a value of "
                + valueBytes + " bytes and the " + valuesHeld + " most frequent values kept so far do not fit in the "
                + (maxValueBytes >> 20) + " MiB of values a path may hold; count a shorter field");
    }
}
