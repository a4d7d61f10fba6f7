package batchpipe.bench;

import batchpipe.bench.corpus.Shape;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What {@code ./batchpipe bench} was asked to do.
 *
 * @param only the {@link #SECTIONS} to run; empty runs them all
 * @param shapes the shapes of log the scan and warm parts measure, in order; empty means all
 */
public record BenchSettings(boolean quick, int runs, Path workDir, Path markdown, Path home, Set<String> only, List<Shape> shapes) {
    /** The parts of the bench, by the names {@code --only} takes. */
    public static final List<String> SECTIONS = List.of("scan", "warm", "hash", "memory", "demo", "cold-start", "aggregate");

    public BenchSettings {
        only = Set.copyOf(only);
        shapes = shapes.isEmpty() ? List.of(Shape.values()) : shapes.stream().distinct().toList();
        for (String section : only) {
            if (!SECTIONS.contains(section)) {
                throw new IllegalArgumentException("unknown bench section '" + section + "'; the parts are " + String.join(", ", SECTIONS));
            }
        }
    }

    boolean runs(String section) {
        return only.isEmpty() || only.contains(section);
    }

    /** The command that repeats this run, for the page. */
    String commandLine() {
        return "./batchpipe bench" + (quick ? " --quick" : "") + " --runs " + runs
                + (only.isEmpty() ? "" : " --only " + String.join(",", SECTIONS.stream().filter(only::contains).toList()))
                + (shapes.size() == Shape.values().length ? "" : " --shapes " + String.join(",", shapes.stream().map(s -> s.label).toList()));
    }
}
