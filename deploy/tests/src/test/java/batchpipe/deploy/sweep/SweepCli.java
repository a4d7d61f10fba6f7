package batchpipe.deploy.sweep;

import batchpipe.local.cli.BatchpipeCli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the sweep ITs share: a machine without a cpu controller, and `./batchpipe sweep` run in this JVM with its output kept. */
final class SweepCli {
    private SweepCli() {
    }

    /** What one run of the command printed, and its exit code. */
    record Result(int code, String stdout, String stderr) {
    }

    /**
     * A mount table, under {@code dir}, whose only cgroup hierarchy (v2) offers no cpu controller: the
     * sweep's detection then finds no way to cap CPU, whatever this machine has.
     */
    static Path mountsWithoutCpuController(Path dir) throws IOException {
        Path mounts = Files.writeString(dir.resolve("mounts"), "proc /proc proc rw 0 0\ncgroup2 " + dir.resolve("unified") + " cgroup2 rw 0 0\n");
        Files.createDirectories(dir.resolve("unified"));
        Files.writeString(dir.resolve("unified/cgroup.controllers"), "pids\n");
        return mounts;
    }

    /** {@code ./batchpipe sweep ARGS}, standard output and error captured. */
    static Result run(String... args) {
        PrintStream out = System.out, err = System.err;
        ByteArrayOutputStream stdout = new ByteArrayOutputStream(), stderr = new ByteArrayOutputStream();
        String[] command = new String[args.length + 1];
        command[0] = "sweep";
        System.arraycopy(args, 0, command, 1, args.length);
        int code;
        try {
            System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
            code = BatchpipeCli.commandLine().execute(command);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        return new Result(code, stdout.toString(StandardCharsets.UTF_8), stderr.toString(StandardCharsets.UTF_8));
    }
}
