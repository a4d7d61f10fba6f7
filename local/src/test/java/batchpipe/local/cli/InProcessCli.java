package batchpipe.local.cli;

import batchpipe.local.run.StackClients;
import picocli.CommandLine;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/** Runs the batchpipe command line in the test's JVM and captures what it prints, as a user's shell would see it. */
public final class InProcessCli {
    /** The exit code, stdout and stderr of one command. */
    public record Result(int exitCode, String out, String err) {
    }

    private InProcessCli() {
    }

    public static Result run(String... args) {
        return run(CommandLine.defaultFactory(), args);
    }

    /** {@link #run(String...)} with the commands {@code factory} makes: a test's, given its own clients. */
    public static Result run(CommandLine.IFactory factory, String... args) {
        PrintStream original = System.out;
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        try {
            System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
            CommandLine cli = BatchpipeCli.commandLine(factory);
            cli.setErr(new PrintWriter(err, true));
            int code = cli.execute(args);
            return new Result(code, stdout.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(original);
        }
    }

    /** Commands as usual, except that {@code report} makes its DynamoDB and S3 clients only through these. */
    public static CommandLine.IFactory reportClients(Supplier<DynamoDbClient> dynamoDb, Supplier<S3Client> s3) {
        return new CommandLine.IFactory() {
            @Override
            @SuppressWarnings("unchecked")
            public <K> K create(Class<K> type) throws Exception {
                return type == ReportCommand.class ? (K) new ReportCommand(dynamoDb, s3) : CommandLine.defaultFactory().create(type);
            }
        };
    }

    /** Commands as usual, except that run and sweep make their clients for --stack only through {@code clients}. */
    public static CommandLine.IFactory stackClients(StackClients.Factory clients) {
        return new CommandLine.IFactory() {
            @Override
            @SuppressWarnings("unchecked")
            public <K> K create(Class<K> type) throws Exception {
                if (type == RunCommand.class) return (K) new RunCommand(clients);
                if (type == SweepCommand.class) return (K) new SweepCommand(clients);
                return CommandLine.defaultFactory().create(type);
            }
        };
    }
}
