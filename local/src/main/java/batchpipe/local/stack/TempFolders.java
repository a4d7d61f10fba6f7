package batchpipe.local.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Temporary folders the local tools make for others (S3Proxy's blob store, a headless browser's TMPDIR). */
public final class TempFolders {
    private TempFolders() {
    }

    /** Deletes {@code root} and everything under it, as far as it can: a temporary folder left behind is harmless. */
    public static void deleteQuietly(Path root) {
        if (!Files.exists(root)) return;
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // what is left stays in the system's temporary folder
        }
    }
}
