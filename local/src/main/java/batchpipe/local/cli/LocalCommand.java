package batchpipe.local.cli;

import batchpipe.common.json.Json;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.sample.SampleRun;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.template.FunctionDefinition;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

@Command(name = "local", mixinStandardHelpOptions = true, description = "The local AWS stack (ElasticMQ, S3Proxy, dynalite).",
        subcommands = {LocalCommand.Up.class})
final class LocalCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required: up");
    }

    @Command(name = "up", mixinStandardHelpOptions = true,
            description = {"Runs the local stack in the foreground until Ctrl-C.",
                "Creates the queues, table and bucket template.yaml declares, loads the sample objects, runs the "
                    + "functions' SQS event source mappings in-process, and prints the AWS_ENDPOINT_URL_* lines to export. "
                    + "Ctrl-C stops all of it."})
    static final class Up implements java.util.concurrent.Callable<Integer> {
        @Mixin
        StackOptions stackOptions;

        @Mixin
        StackNames.LocalOnly localOnly;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--sqs-port", defaultValue = "0", description = "SQS port (default: a free one).")
        int sqsPort;

        @Option(names = "--s3-port", defaultValue = "0", description = "S3 port (default: a free one).")
        int s3Port;

        @Option(names = "--dynamodb-port", defaultValue = "0", description = "DynamoDB port (default: a free one).")
        int dynamoDbPort;

        @Option(names = "--no-mappings", description = "Do not run the event source mappings (queues fill up, nothing consumes them).")
        boolean noMappings;

        @Option(names = "--env-file", defaultValue = "out/local/sam-env.json",
                description = "Where to write the --env-vars file for sam local invoke (default: ${DEFAULT-VALUE}).")
        Path envFile;

        @Override
        public Integer call() throws Exception {
            localOnly.check(spec);
            PrintStream err = System.err;
            LocalStack stack = stackOptions.start(new LocalStack.Ports(sqsPort, s3Port, dynamoDbPort));
            stack.useForThisProcess();
            LocalPipeline pipeline = LocalPipeline.start(stack, err, !noMappings);
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                pipeline.close();
                stack.close();
                stopped.countDown();
            }, "local-stack-stop"));
            try (StdoutRedirect quiet = StdoutRedirect.discarded()) { // the sample run's function logs are not news
                SampleRun.load(stack, QuietStreams.discard());
            }
            writeSamEnvFile(pipeline);

            System.out.println("# Batchpipe local stack '" + stack.stackName() + "' is up. In another shell:");
            exports(stack).forEach((k, v) -> System.out.println("export " + k + "=" + v));
            System.out.println("# Resources: " + describe(stack));
            System.out.println("# sam local invoke: --env-vars " + envFile + " (see README, 'sam local invoke')");
            System.out.println("# Ctrl-C stops the stack. Function logs follow on stderr.");
            System.out.flush();
            System.setOut(err); // from now on the functions' stdout (their logs) goes to stderr
            stopped.await();
            return 0;
        }

        /**
         * What a shell needs to reach the stack with the AWS CLI or any SDK: the endpoints, region and keys,
         * and the checksum settings: S3Proxy rejects the newer default checksum headers (x-amz-checksum-mode
         * and friends), so clients must send them only when required, as our own clients do.
         */
        static Map<String, String> exports(LocalStack stack) {
            Map<String, String> exports = new LinkedHashMap<>(stack.endpointSettings());
            exports.put("AWS_REQUEST_CHECKSUM_CALCULATION", "when_required");
            exports.put("AWS_RESPONSE_CHECKSUM_VALIDATION", "when_required");
            return exports;
        }

        private static String describe(LocalStack stack) {
            StringBuilder text = new StringBuilder();
            stack.physicalResources().forEach((id, p) -> {
                if (text.length() > 0) text.append(", ");
                text.append(id).append('=').append(p.ref());
            });
            return text.toString();
        }

        /**
         * sam local invoke only overrides variables the template declares: the resource names and
         * the LocalEndpoint* parameters' variables, with host.docker.internal standing for this host.
         */
        private void writeSamEnvFile(LocalPipeline pipeline) throws Exception {
            Map<String, Object> env = new LinkedHashMap<>();
            for (String id : pipeline.stack().template().createdFunctionIds()) {
                FunctionDefinition function = pipeline.runtime().definition(id);
                Map<String, String> variables = new LinkedHashMap<>(function.environment());
                variables.remove("JAVA_TOOL_OPTIONS");
                // A path on this host, meaningless in sam's container (and not a variable the template declares).
                variables.remove("RUN_EVENTS_FILE");
                variables.replaceAll((k, v) -> v.replace("127.0.0.1", "host.docker.internal"));
                env.put(id, variables);
            }
            Files.createDirectories(envFile.toAbsolutePath().getParent());
            Files.writeString(envFile, Json.writePretty(env));
        }
    }
}
