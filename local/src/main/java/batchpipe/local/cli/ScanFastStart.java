package batchpipe.local.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code ./batchpipe scan} without picocli, for the plain argument shapes scripts and the bench use. Why:
 * picocli builds its model by reflection, from class files too old for the start-up cache (Java 5: "Old
 * class has been linked"), interpreted: ~0.3 s of a scan's ~0.5 s fixed start on this machine
 * (docs/BENCHMARKS.md), paid again by every scan of a small file.
 *
 * <p>It reads only what it reads exactly as picocli does, and declines everything else by returning null,
 * for picocli to run as before: help and version, {@code --}, {@code @file} arguments, an unknown or
 * repeated option, a missing or empty value, a value that starts with {@code -}, a quote in
 * {@code --count-by}. Arguments that are read but out of their limits are declined too, so every usage
 * error's message and exit code stay picocli's. {@code ScanFastStartTest} holds both readings to the
 * same result.
 */
final class ScanFastStart {

    /** The options read here: {@link ScanCommand}'s, less help and version. */
    static final Set<String> OPTIONS = Set.of("--count-by", "--contains", "--field", "--equals", "--workers");

    private static final Pattern WORKERS = Pattern.compile("[0-9]{1,9}");

    private ScanFastStart() {
    }

    /** The command the arguments ({@code scan ...}) describe, or null when they are for picocli to read. */
    static ScanArguments parse(String[] args) {
        if (args.length < 2 || !"scan".equals(args[0])) return null;
        ScanArguments command = new ScanArguments();
        List<String> inputs = new ArrayList<>();
        Set<String> given = new HashSet<>();
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            if (arg.isEmpty() || arg.startsWith("@")) return null; // picocli expands @file arguments first
            if (!arg.startsWith("-")) {
                inputs.add(arg);
                continue;
            }
            int equalsSign = arg.indexOf('=');
            String name = equalsSign > 0 ? arg.substring(0, equalsSign) : arg;
            if (!OPTIONS.contains(name) || !given.add(name)) return null;
            String value;
            if (equalsSign > 0) {
                value = arg.substring(equalsSign + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                return null;
            }
            if (value.isEmpty() || value.startsWith("-") || value.startsWith("@")) return null;
            switch (name) {
                case "--count-by" -> {
                    if (value.indexOf('"') >= 0) return null; // picocli does not split inside quotes
                    List<String> paths = Arrays.asList(value.split(",", -1));
                    if (paths.contains("")) return null;
                    command.countBy = new ArrayList<>(paths);
                }
                case "--contains" -> command.contains = value;
                case "--field" -> command.field = value;
                case "--equals" -> command.equals = value;
                case "--workers" -> {
                    if (!WORKERS.matcher(value).matches()) return null;
                    command.workers = Integer.valueOf(value);
                }
                default -> throw new IllegalStateException("option " + name + " is in OPTIONS but not read");
            }
        }
        if (inputs.isEmpty()) return null;
        command.inputs = inputs;
        return command;
    }

    /**
     * Runs the scan the arguments describe when {@link #parse} reads them and they are within their limits,
     * and returns its exit code; returns null, having done nothing, otherwise. A failure while scanning is
     * reported as picocli's path reports it ({@link BatchpipeCli#reportFailure}).
     */
    static Integer run(String[] args) {
        ScanArguments command = parse(args);
        if (command == null) return null;
        ScanArguments.Plan plan;
        try {
            plan = command.plan();
        } catch (ScanArguments.UsageError e) {
            return null;
        }
        try {
            return ScanArguments.execute(plan);
        } catch (Exception e) {
            return BatchpipeCli.reportFailure(e, new PrintWriter(System.err, true));
        }
    }
}
