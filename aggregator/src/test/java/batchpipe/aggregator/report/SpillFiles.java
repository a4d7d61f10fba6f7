package batchpipe.aggregator.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

/** The spill files of {@link TaskRows} in {@code java.io.tmpdir}: what a test compares before and after the code it watches. */
public final class SpillFiles {
    private SpillFiles() {
    }

    public static Set<Path> present() {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            Set<Path> spills = new HashSet<>();
            files.filter(f -> f.getFileName().toString().startsWith("batchpipe-") && f.getFileName().toString().endsWith(".spill"))
                    .forEach(spills::add);
            return spills;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The spill files present now that were not in {@code before}. */
    public static Set<Path> addedSince(Set<Path> before) {
        Set<Path> added = present();
        added.removeAll(before);
        return added;
    }
}
