package batchpipe.local.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code scan} as picocli reads it: its help and usage errors; the checks and the scan are {@link ScanArguments}. */
@Command(name = "scan", mixinStandardHelpOptions = true,
        description = {"Scans JSON-lines logs (zstd, gzip or plain, told apart by their first bytes) with the worker's scanner.",
                "Prints the stats JSON: one object for one input, an array for several (in input order). s3://bucket/key "
                    + "inputs are read through the standard SDK settings (AWS_ENDPOINT_URL_S3, a profile, ...)."})
final class ScanCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "INPUT", description = "A file, or s3://bucket/key.")
    List<String> inputs;

    @Option(names = "--count-by", split = ",", paramLabel = "PATH", description = "Field paths to count values of, dotted for nesting (default: level,status).")
    List<String> countBy = List.of("level", "status");

    @Option(names = "--contains", paramLabel = "TEXT", description = "Count the events whose raw line contains TEXT.")
    String contains;

    @Option(names = "--field", paramLabel = "PATH", description = "With --equals: count the events whose field PATH equals VALUE.")
    String field;

    @Option(names = "--equals", paramLabel = "VALUE", description = "The value for --field (numbers and booleans as written: 200, true).")
    String equals;

    @Option(names = "--workers", paramLabel = "N", description = "Parser threads (default: the available processors).")
    Integer workers;

    @Override
    public Integer call() throws Exception {
        ScanArguments arguments = arguments();
        ScanArguments.Plan plan;
        try {
            plan = arguments.plan();
        } catch (ScanArguments.UsageError e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        return ScanArguments.execute(plan);
    }

    /** The options as read. */
    ScanArguments arguments() {
        ScanArguments arguments = new ScanArguments();
        arguments.inputs = inputs;
        arguments.countBy = countBy;
        arguments.contains = contains;
        arguments.field = field;
        arguments.equals = equals;
        arguments.workers = workers;
        return arguments;
    }
}
