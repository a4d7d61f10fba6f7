package batchpipe.local.cli;

import batchpipe.local.sample.SampleLogs;
import com.github.luben.zstd.ZstdOutputStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "sample", mixinStandardHelpOptions = true,
        description = {"Writes seeded, realistic JSON-lines application logs to a file (zstd-compressed by default).",
                "It is the same generator the demo and the benchmarks use: the same seed gives the same bytes."})
final class SampleCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The file to write.")
    Path out;

    @Option(names = "--lines", defaultValue = "100000", description = "Lines to write (default: ${DEFAULT-VALUE}).")
    long lines;

    @Option(names = "--seed", defaultValue = "42", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--malformed-every", defaultValue = "2000", description = "About one malformed line in N; 0 for none (default: ${DEFAULT-VALUE}).")
    int malformedEvery;

    @Option(names = "--level", defaultValue = "3", description = "zstd level (default: ${DEFAULT-VALUE}); 0 writes plain text.")
    int level;

    @Override
    public Integer call() throws Exception {
        if (lines < 1 || malformedEvery < 0 || level < 0 || level > 19) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--lines must be >= 1, --malformed-every >= 0, --level 0 to 19");
        }
        SampleLogs logs = new SampleLogs(seed, malformedEvery);
        try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20);
             OutputStream sink = level == 0 ? file : new ZstdOutputStream(file, level)) {
            // In parts of one million lines, each from its own seeded stream, so any size stays reproducible.
            int part = 0;
            for (long written = 0; written < lines; written += 1_000_000, part++) {
                logs.write(part, (int) Math.min(1_000_000, lines - written), sink);
            }
        }
        System.err.printf("batchpipe sample: %,d lines, %,d bytes in %s%n", lines, Files.size(out), out);
        return 0;
    }
}
