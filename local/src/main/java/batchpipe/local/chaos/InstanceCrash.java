package batchpipe.local.chaos;

/**
 * The injected death of a function instance. An Error, so that the handler's own catch blocks (which
 * rightly catch Exception) cannot swallow it: a real crash does not ask for permission either.
 */
public final class InstanceCrash extends Error {
    public InstanceCrash(String message) {
        super(message);
    }
}
