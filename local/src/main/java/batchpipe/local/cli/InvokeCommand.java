package batchpipe.local.cli;

import batchpipe.common.text.ControlCharacters;
import batchpipe.local.runtime.InvocationResult;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.sample.SampleRun;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.template.StackTemplate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "invoke", mixinStandardHelpOptions = true,
        description = {"Invokes one function of template.yaml in-process (sam local invoke without Docker).",
                "Prints the response JSON on stdout and Lambda's REPORT line on stderr. Uses the stack that `batchpipe "
                    + "local up` runs when the AWS_ENDPOINT_URL_* variables point at it; otherwise starts one, loads the sample "
                    + "objects the events/ files refer to, and stops it afterwards."})
final class InvokeCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "LOGICAL_ID", description = "The function's logical id, e.g. WorkerFunction.")
    String logicalId;

    @Option(names = {"-e", "--event"}, paramLabel = "FILE", description = "The event JSON; - reads it from standard input (default: {}).")
    Path event;

    @Mixin
    StackOptions stackOptions;

    @Mixin
    StackNames.LocalOnly localOnly;

    @Override
    public Integer call() throws Exception {
        localOnly.check(spec);
        byte[] payload = "{}".getBytes(StandardCharsets.UTF_8);
        if (event != null && event.toString().equals("-")) { // as sam local invoke -e -
            payload = System.in.readAllBytes();
            if (payload.length == 0) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--event -: standard input was empty; pipe the event in"
                        + " (e.g. < events/worker-scan.json)");
            }
        } else if (event != null) {
            if (!Files.isRegularFile(event)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "event file not found: " + event);
            }
            payload = Files.readAllBytes(event);
        }
        StackTemplate template = stackOptions.loadTemplate();
        if (!template.functionIds().contains(logicalId)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "unknown function '" + logicalId
                    + "'; template.yaml declares " + String.join(", ", template.functionIds()));
        }
        if (!template.isCreated(logicalId)) {
            throw new CommandLine.ParameterException(spec.commandLine(), logicalId + " is not created with these parameters: its"
                    + " Condition " + template.conditionOf(logicalId) + " is false (see template.yaml; e.g. --parameter-overrides"
                    + " CompareArchitectures=true for the worker's twin)");
        }
        boolean attach = LocalStack.endpointsConfigured(System.getenv());
        // As with sam local invoke, the function's own output (its logs) goes to stderr and stdout
        // carries only the response.
        java.io.PrintStream stdout = System.out;
        try (StdoutRedirect toStderr = StdoutRedirect.to(System.err);
             LocalStack stack = attach ? LocalStack.attach(template, stackOptions.stackName, System.getenv())
                : stackOptions.start(LocalStack.Ports.free())) {
            stack.useForThisProcess();
            if (!attach) {
                try (StdoutRedirect quiet = StdoutRedirect.discarded()) {
                    SampleRun.load(stack, QuietStreams.discard());
                }
            }
            // Function logs go to stderr so stdout is only the response, ready for a pipe.
            try (LocalPipeline pipeline = LocalPipeline.start(stack, System.err, false)) {
                InvocationResult result = pipeline.runtime().invoke(logicalId, payload);
                // A response quotes log values; JSON escapes C0 but passes DEL and C1, which some terminals act on.
                stdout.println(ControlCharacters.escapeKeepingLines(result.response()));
                stdout.flush();
                System.err.println(result.reportLine());
                return result.failed() ? 1 : 0;
            }
        }
    }
}
