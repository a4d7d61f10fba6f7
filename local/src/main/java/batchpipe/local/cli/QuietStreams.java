package batchpipe.local.cli;

import java.io.OutputStream;
import java.io.PrintStream;

/** A stream that drops what is written to it: where function logs are not wanted. */
final class QuietStreams {
    private QuietStreams() {
    }

    static PrintStream discard() {
        return new PrintStream(OutputStream.nullOutputStream(), true);
    }
}
