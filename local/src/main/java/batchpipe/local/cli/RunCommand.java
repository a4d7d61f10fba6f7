package batchpipe.local.cli;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.report.MarkdownReport;
import batchpipe.common.json.Json;
import batchpipe.common.run.PlanResult;
import batchpipe.common.task.TaskLimits;
import batchpipe.common.text.ControlCharacters;
import batchpipe.local.report.ReportFiles;
import batchpipe.local.report.RunSummaryItem;
import batchpipe.local.run.DeployedStack;
import batchpipe.local.run.RunWatcher;
import batchpipe.local.run.StackClients;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.sample.SampleData;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.template.StackTemplate;
import batchpipe.common.run.RunHost;
import batchpipe.common.spec.InvalidRunSpecException;
import batchpipe.common.spec.RunSpec;
import batchpipe.common.spec.RunSpecParser;
import batchpipe.producer.RunPlanner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Plans and enqueues a run from a run spec, with the producer's own code.",
                "Target: the stack `batchpipe local up` runs (when the AWS_ENDPOINT_URL_* variables point at it), a "
                    + "deployed stack (--stack NAME, resources from its CloudFormation outputs), or else a local stack this "
                    + "command starts for the run (then it always waits, since the stack ends with the command). Prints the "
                    + "producer's response; with --wait, a progress bar and then the run's report."})
final class RunCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--spec", required = true, paramLabel = "FILE", description = "The run spec JSON (see README).")
    Path specFile;

    @Option(names = "--wait", description = "Wait for the run's report and print it.")
    boolean wait;

    @Option(names = "--json", description = "With --wait: print the report as JSON instead of Markdown.")
    boolean json;

    @Option(names = {"--stack", "--stack-name"}, paramLabel = "NAME",
            description = "A deployed Batchpipe stack, as sam deploy names it (in the region and with the credentials --region and --profile "
                    + "choose, as the AWS CLI).")
    String deployedStack;

    @Mixin
    AwsOptions awsOptions;

    @Option(names = "--timeout", defaultValue = "1800", description = "Seconds to wait with --wait (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Option(names = "--max-hash-cost", paramLabel = "C",
            description = "The cost limit to validate against (default: the template's MaxHashCost; with --stack, the stack's).")
    Integer maxHashCost;

    @Mixin
    StackOptions stackOptions;

    private final StackClients.Factory stackClients;

    RunCommand() {
        this(StackClients::connect);
    }

    /** With the clients {@code --stack} uses made by {@code stackClients} (a test's). */
    RunCommand(StackClients.Factory stackClients) {
        this.stackClients = stackClients;
    }

    @Override
    public Integer call() throws Exception {
        awsOptions.check(spec, deployedStack);
        if (!Files.isRegularFile(specFile)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "spec file not found: " + specFile);
        }
        String specText = Files.readString(specFile);
        PrintStream err = System.err;
        stdout = System.out;
        // stdout carries only the result; the planner's and functions' JSON logs go to stderr (as with invoke).
        try (StdoutRedirect toStderr = StdoutRedirect.to(err)) {
            return target(specText, err);
        }
    }

    private PrintStream stdout;

    private int target(String specText, PrintStream err) throws Exception {
        if (deployedStack != null) {
            // Everything but the stack's cost limit is checked before AWS is asked anything.
            parse(specText, new TaskLimits(maxHashCost != null ? maxHashCost : TaskLimits.HIGHEST_MAX_HASH_COST), "");
            try (StackClients clients = stackClients.connect(awsOptions.target(spec, deployedStack))) {
                CloudFormationClient cloudFormation = clients.cloudFormation();
                S3Client s3 = clients.s3();
                SqsClient sqs = clients.sqs();
                DynamoDbClient dynamoDb = clients.dynamoDb();
                DeployedStack stack;
                try {
                    stack = DeployedStack.describe(cloudFormation, deployedStack);
                } catch (RuntimeException e) {
                    throw StackNames.deployedStackNotFound(spec, deployedStack, e, clients);
                }
                // Planned as the stack's producer would plan it: its cost limit, and partitions for its worker concurrency.
                TaskLimits limits = new TaskLimits(maxHashCost != null ? maxHashCost : stack.maxHashCost());
                RunSpec runSpec = parse(specText, limits, maxHashCost != null ? "" : " (stack " + stack.name() + ", MaxHashCost "
                        + limits.maxHashCost() + ")");
                err.println("batchpipe run: stack " + stack.name() + " in " + clients.target().describe() + " (queue " + stack.tasksQueueUrl()
                        + ", table " + stack.tableName() + ", MaxHashCost " + limits.maxHashCost() + ", WorkerMaxConcurrency " + stack.workerMaxConcurrency() + ")");
                // as on the local stack: a run whose workers finish before its planning ends is announced by the planner, on the
                // stack's completions queue; the watcher waits while the dead-letter queue still holds a task
                if (stack.completionsQueueUrl() == null) {
                    err.println("batchpipe run: stack " + stack.name() + " has no output CompletionsQueueUrl (deployed before it was one):"
                            + " a run whose workers finish before its planning ends will not be announced; redeploy to fix");
                }
                return plan(runSpec, s3, sqs, dynamoDb, stack.tableName(), stack.tasksQueueUrl(), stack.completionsQueueUrl(),
                        stack.tasksDeadLetterQueueUrl() == null ? List.of() : List.of(stack.tasksDeadLetterQueueUrl()), limits,
                        stack.workerMaxConcurrency(), wait, false);
            }
        }
        StackTemplate template = stackOptions.loadTemplate();
        TaskLimits limits = new TaskLimits(maxHashCost != null ? maxHashCost
                : Integer.parseInt(template.parameters().getOrDefault("MaxHashCost", Integer.toString(TaskLimits.DEFAULT_MAX_HASH_COST))));
        RunSpec runSpec = parse(specText, limits, "");
        if (LocalStack.endpointsConfigured(System.getenv())) {
            try (LocalStack stack = LocalStack.attach(template, stackOptions.stackName, System.getenv())) {
                err.println("batchpipe run: the local stack at " + System.getenv("AWS_ENDPOINT_URL_SQS") + " (from AWS_ENDPOINT_URL_*)");
                return plan(runSpec, stack.s3(), stack.sqs(), stack.dynamoDb(), stack.ref("RunsTable"), stack.ref("TasksQueue"),
                        stack.ref("CompletionsQueue"), List.of(stack.ref("TasksDeadLetterQueue")), limits,
                        RunPlanner.Settings.DEFAULT_WORKER_MAX_CONCURRENCY, wait, true);
            }
        }
        err.println("batchpipe run: no AWS_ENDPOINT_URL_* set and no --stack: starting a local stack for this run (with sample objects under "
                + "s3://" + StackTemplate.physicalName(stackOptions.stackName, "DataBucket", "AWS::S3::Bucket") + "/" + SampleData.PREFIX + ")");
        try (LocalStack stack = stackOptions.start(LocalStack.Ports.free())) {
            stack.useForThisProcess();
            SampleData.seed(stack.s3(), stack.ref("DataBucket"), 4, 20_000, SampleData.DEFAULT_SEED);
            // The in-process functions' logs would drown the progress bar.
            try (StdoutRedirect quiet = StdoutRedirect.discarded();
                 LocalPipeline ignored = LocalPipeline.start(stack, QuietStreams.discard(), true)) {
                return plan(runSpec, stack.s3(), stack.sqs(), stack.dynamoDb(), stack.ref("RunsTable"), stack.ref("TasksQueue"),
                        stack.ref("CompletionsQueue"), List.of(stack.ref("TasksDeadLetterQueue")), limits,
                        RunPlanner.Settings.DEFAULT_WORKER_MAX_CONCURRENCY, true, true);
            }
        }
    }

    /** @param where what to add to the file's name in an error message: the stack whose limit refused it */
    private RunSpec parse(String specText, TaskLimits limits, String where) {
        try {
            return new RunSpecParser(limits).parse(specText);
        } catch (InvalidRunSpecException e) {
            // Several lines on purpose: every problem at once.
            throw new CommandLine.ParameterException(spec.commandLine(), specFile + where + ": " + e.getMessage());
        }
    }

    private int plan(RunSpec runSpec, S3Client s3, SqsClient sqs, DynamoDbClient dynamoDb,
                     String table, String queueUrl, String completionsQueueUrl, List<String> deadLetterQueueUrls, TaskLimits limits,
                     int workerMaxConcurrency, boolean waitForReport, boolean localFunctions)
            throws InterruptedException, IOException {
        PrintStream out = stdout;
        RunPlanner planner = RunPlanner.create(s3, sqs, dynamoDb, new RunPlanner.Settings(table, queueUrl, null, completionsQueueUrl, limits, 8,
                workerMaxConcurrency, RunPlanner.Settings.DEFAULT_PLANNING_MARGIN_MS));
        // On a local stack the run's functions run on this machine: its record says which, so its reports can.
        if (localFunctions) planner = planner.recordingHost(RunHost::capture);
        PlanResult result = planner.plan(runSpec, sent -> { });
        if (!waitForReport) {
            out.println(result.toJson());
            return 0;
        }
        System.err.println("batchpipe run: " + result.toJson());
        if (result.enqueued() == 0) {
            System.err.println("batchpipe run: nothing matched the spec; the run is recorded as empty");
            return 0;
        }
        // A run is stalled only when nothing is left to deliver: neither in the tasks queue nor in the
        // dead-letter queue, whose recorder may still be closing a task's books.
        RunWatcher watcher = new RunWatcher(dynamoDb, s3, table, () -> RunWatcher.queueEmpty(sqs, queueUrl)
                && deadLetterQueueUrls.stream().allMatch(url -> RunWatcher.queueEmpty(sqs, url)));
        ProgressBar bar = new ProgressBar(System.err, "tasks");
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        watcher.awaitCompletion(result.runId(), timeout, bar::update);
        bar.finish();
        RunSummaryItem summary = watcher.awaitSummary(result.runId(), timeout);
        Report report = summary.fullReport(s3);
        // The aggregator's files, as it put them in the bucket, also where the demo leaves its own.
        List<Path> files = ReportFiles.copy(s3, summary.report(), Path.of("out", result.runId()));
        out.print(reportForTerminal(report, json));
        out.flush();
        System.err.println("batchpipe run: report in " + summary.report().uri() + ", copied to " + String.join(", ",
                files.stream().map(Path::toString).toList()));
        System.err.println("batchpipe run: Run Completed event put on " + summary.completionEvent());
        return 0;
    }

    /**
     * The report as --wait prints it. Its values come from logs: report.md's escaping keeps them in their
     * cells, and no control character (ESC starts a terminal escape sequence, CR overwrites the line) may
     * reach the terminal in either format. In JSON the escape is JSON's own, so the document is unchanged.
     */
    static String reportForTerminal(Report report, boolean json) {
        return ControlCharacters.escapeKeepingLines(json ? Json.writePretty(report) : MarkdownReport.render(report));
    }
}
