package batchpipe.local.cli;

import batchpipe.aggregator.AggregatorConfig;
import batchpipe.aggregator.ReportLineSource;
import batchpipe.aggregator.ReportService;
import batchpipe.aggregator.RunReader;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.delivery.EventBridgeRunEvents;
import batchpipe.aggregator.delivery.JsonLinesRunEvents;
import batchpipe.aggregator.delivery.ReportStore;
import batchpipe.aggregator.delivery.RunEvents;
import batchpipe.aggregator.logs.LogsInsightsReportLines;
import batchpipe.aggregator.report.ComparisonReport;
import batchpipe.common.aws.AwsClients;
import batchpipe.common.task.TaskIds;
import batchpipe.common.text.ControlCharacters;
import batchpipe.local.report.ReportFiles;
import batchpipe.local.report.ReportSources;
import batchpipe.local.run.DeployedStack;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.template.StackTemplate;
import picocli.CommandLine;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Reports a run, or compares two.",
                "`report RUN_ID` runs the aggregator on demand against the table of the local stack that the",
                "AWS_ENDPOINT_URL_* variables point at (`batchpipe local up` prints them), or of a deployed stack",
                "(--stack NAME, or --table, with your AWS credentials and region), rewrites the run's summary item and",
                "writes report.json, report.md, tasks.csv and report.html into --out. On AWS, --report-lines logs-insights",
                "(the default with --stack) looks up the workers' REPORT lines in their log groups for exact billed and init",
                "durations and Max Memory Used ($0.005 per GB scanned); without REPORT lines Lambda durations are measured",
                "from the task records. The report says which.",
                "`report --compare A B` compares two runs, each given as a run id (out/<id>/report.json, else the",
                "table's summary), a folder or a report.json, and writes compare.md and compare.html."},
        footer = {"", "Formulas: docs/COST.md."})
final class ReportCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "RUN_ID", description = "The run to report.")
    String runId;

    @Option(names = "--compare", arity = "2", paramLabel = "RUN", description = "Two runs to compare: run ids, folders or report.json files.")
    List<String> compare;

    @Option(names = "--out", description = "Folder for the files (default: out/<runId>, or out/compare-<A>-vs-<B>).")
    Path out;

    @Option(names = "--table", description = "The runs table (default: <stack-name>-RunsTable of the local stack in AWS_ENDPOINT_URL_DYNAMODB).")
    String table;

    @Option(names = "--reports", paramLabel = "S3_URI",
            description = "Where the report files go in S3, as the stack's ReportsLocation output says (s3://bucket/prefix/);"
                    + " needed with --table on AWS (default: the --stack's output, or reports/ in the local stack's bucket).")
    String reports;

    @Option(names = "--stack-name", defaultValue = "batchpipe", description = "Local stack name (default: ${DEFAULT-VALUE}).")
    String stackName;

    @Option(names = "--stack", paramLabel = "NAME",
            description = "A deployed stack (sam deploy): its runs table and worker log groups come from its outputs.")
    String deployedStack;

    @Option(names = "--report-lines", paramLabel = "SOURCE",
            description = "Where the workers' REPORT lines come from: logs-insights (their CloudWatch log groups; the default with"
                    + " --stack or --log-group) or none (durations measured from the task records; the default otherwise).")
    String reportLines;

    @Option(names = "--log-group", split = ",", paramLabel = "NAME",
            description = "The worker's log group (and its twin's), for --report-lines logs-insights without --stack:"
                    + " the WorkerLogGroupName and WorkerTwinLogGroupName outputs of the stack.")
    List<String> logGroups;

    @Option(names = "--price-table", paramLabel = "FILE", description = "A price table whose fields replace those of the bundled one.")
    Path priceTable;

    @Option(names = "--runs-per-month", defaultValue = "30", description = "Runs a month for the monthly projection (default: ${DEFAULT-VALUE}).")
    int runsPerMonth;

    @Option(names = "--arm64-speed-ratio", paramLabel = "RATIO",
            description = "Task duration on arm64 / on x86_64 for projecting one architecture from the other (e.g. B/A of the mean"
                    + " task duration in `report --compare <x86 run> <arm64 run>`). Default: measured in the run if it ran on both, else 1.")
    BigDecimal arm64SpeedRatio;

    @Override
    public Integer call() throws Exception {
        if ((compare == null) == (runId == null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give either a RUN_ID or --compare <runA> <runB>");
        }
        if (runId != null && !TaskIds.isValidRunId(runId)) {
            // The id names the folder out/<RUN_ID>: '..' or 'a/b' would put the files elsewhere.
            throw new CommandLine.ParameterException(spec.commandLine(), "RUN_ID '" + ControlCharacters.escape(runId)
                    + "' is not a run id: a run id is " + TaskIds.RUN_ID_RULE);
        }
        if (out != null && ReportFiles.whyNotAFolder(out) != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out " + out + " " + ReportFiles.whyNotAFolder(out));
        }
        if (runsPerMonth < 1) throw new CommandLine.ParameterException(spec.commandLine(), "--runs-per-month must be >= 1");
        if (arm64SpeedRatio != null && arm64SpeedRatio.signum() <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--arm64-speed-ratio must be a number > 0");
        }
        if (reports != null) {
            try {
                ReportsAt.parse(reports);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--reports " + e.getMessage());
            }
        }
        if (priceTable != null && !Files.isRegularFile(priceTable)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "price table file not found: " + priceTable);
        }
        if (reportLines != null) {
            // A bad value is named before anything reaches AWS or a local stack.
            try {
                AggregatorConfig.ReportLines.parse("--report-lines", reportLines);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        PrintStream stdout = System.out;
        return compare != null ? compare(stdout) : report(stdout);
    }

    /** The longest `report` waits for Logs Insights before it reports with what it has. */
    static final Duration REPORT_LINES_TIMEOUT = Duration.ofMinutes(2);

    private int report(PrintStream stdout) throws Exception {
        DeployedStack stack = null;
        if (deployedStack != null) {
            if (table != null) throw new CommandLine.ParameterException(spec.commandLine(), "give --stack or --table, not both");
            try (CloudFormationClient cloudFormation = CloudFormationClient.builder().httpClient(UrlConnectionHttpClient.create()).build()) {
                stack = DeployedStack.describe(cloudFormation, deployedStack);
            }
        }
        String runsTable = stack != null ? stack.tableName() : tableName();
        if (runsTable == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "no runs table: pass --stack <your deployed stack> or --table"
                    + " <its RunsTableName output>, or point AWS_ENDPOINT_URL_DYNAMODB (and _SQS, _S3) at a `batchpipe local up` stack");
        }
        List<String> workerLogGroups = reportLineLogGroups(stack);
        PriceTable prices = priceTable == null ? PriceTable.defaults() : PriceTable.withOverride(priceTable);
        CostAssumptions assumptions = CostAssumptions.defaults().withRunsPerMonth(runsPerMonth);
        if (arm64SpeedRatio != null) {
            assumptions = assumptions.withArm64SpeedRatio(new CostAssumptions.SpeedRatio(arm64SpeedRatio, "given with --arm64-speed-ratio"));
        }
        ReportsAt reportsAt = reportsLocation(stack);
        RunReport report;
        // The service's own log lines would mix with ours; only the files and the paths matter here.
        try (StdoutRedirect quiet = StdoutRedirect.discarded();
             var dynamoDb = AwsClients.dynamoDb();
             var s3 = AwsClients.s3();
             var eventBridge = stack == null ? null : AwsClients.configure(EventBridgeClient.builder()).build();
             var logs = workerLogGroups.isEmpty() ? null : AwsClients.configure(CloudWatchLogsClient.builder()).build()) {
            ReportLineSource source = logs == null ? ReportLineSource.NONE : new LogsInsightsReportLines(logs, workerLogGroups);
            // Where the stack's aggregator announces runs, for the summary item; this report announces nothing.
            RunEvents events = eventBridge != null ? new EventBridgeRunEvents(eventBridge)
                    : new JsonLinesRunEvents(LocalStack.runEventsFile(stackName).toAbsolutePath(), Clock.systemUTC());
            ReportService service = new ReportService(new RunReader(dynamoDb, runsTable), dynamoDb, runsTable, prices, assumptions,
                    metrics -> { }, Clock.systemUTC(), source, new ReportStore(s3, reportsAt.bucket(), reportsAt.prefix()), events);
            report = service.reportAgain(runId, Instant.now().plus(REPORT_LINES_TIMEOUT));
        }
        Path dir = out != null ? out : Path.of("out", runId);
        List<Path> files = ReportFiles.write(dir, report);
        summary(runId, report).forEach(stdout::println);
        files.forEach(f -> stdout.println("  " + f));
        return 0;
    }

    /**
     * The bucket and prefix the report files go to, as the stack's aggregator writes them: the deployed
     * stack's ReportsLocation output, or the local stack's DataBucket under reports/.
     */
    private ReportsAt reportsLocation(DeployedStack stack) {
        if (reports != null) return ReportsAt.parse(reports);
        if (stack != null) {
            if (stack.reportsLocation() == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "stack '" + stack.name() + "' has no ReportsLocation output;"
                        + " deploy the current template.yaml (sam deploy) so that reports have a place in S3, or pass --reports s3://bucket/prefix/");
            }
            return ReportsAt.parse(stack.reportsLocation());
        }
        if (table != null && !AwsClients.hasEndpointOverride("AWS_ENDPOINT_URL_S3", "aws.endpointUrlS3")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--table names no bucket for the report files: add --reports"
                    + " <its stack's ReportsLocation output>, pass --stack <your deployed stack> instead, or point AWS_ENDPOINT_URL_S3"
                    + " (and _DYNAMODB, _SQS) at a `batchpipe local up` stack");
        }
        return new ReportsAt(StackTemplate.physicalName(stackName, "DataBucket", "AWS::S3::Bucket"), AggregatorConfig.DEFAULT_REPORT_PREFIX);
    }

    /** A bucket and a key prefix, from {@code s3://bucket/prefix/} as the ReportsLocation output writes it. */
    record ReportsAt(String bucket, String prefix) {
        private static final java.util.regex.Pattern S3_URI = java.util.regex.Pattern.compile("s3://([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:/(.*))?");

        static ReportsAt parse(String uri) {
            java.util.regex.Matcher m = S3_URI.matcher(uri.strip());
            if (!m.matches()) {
                throw new IllegalArgumentException("'" + ControlCharacters.escape(uri) + "' is not s3://bucket/prefix/ (the stack's ReportsLocation output)");
            }
            return new ReportsAt(m.group(1), m.group(2) == null ? "" : m.group(2));
        }
    }

    /** The run's status and cost, and where its REPORT lines came from; no control character of theirs reaches the terminal. */
    @SuppressWarnings("unchecked")
    static List<String> summary(String runId, RunReport report) {
        Map<String, Object> summary = report.summary();
        Map<String, Object> cost = (Map<String, Object>) summary.get("cost");
        return List.of(ControlCharacters.escape("Run " + runId + ": " + summary.get("status") + ", cost per run " + cost.get("currency") + " "
                        + plain(cost.get("total")) + " (per million tasks " + plain(cost.get("perMillionTasks")) + ")"),
                ControlCharacters.escape("  REPORT lines: " + ((Map<?, ?>) report.report().get("inputs")).get("reportLines")));
    }

    private int compare(PrintStream stdout) throws Exception {
        Path outRoot = Path.of("out");
        String runsTable = tableName();
        var dynamoDb = runsTable == null ? null : AwsClients.dynamoDb();
        var s3 = runsTable == null ? null : AwsClients.s3();
        try {
            ReportSources.TableRef ref = runsTable == null ? null : new ReportSources.TableRef(dynamoDb, s3, runsTable);
            Map<String, Object> a = ReportSources.load(compare.get(0), outRoot, () -> ref);
            Map<String, Object> b = ReportSources.load(compare.get(1), outRoot, () -> ref);
            Path dir = out != null ? out : outRoot.resolve("compare-" + fileName(a.get("runId")) + "-vs-" + fileName(b.get("runId")));
            List<Path> files = ReportFiles.writeComparison(dir, a, b);
            stdout.print(ControlCharacters.escapeKeepingLines(ComparisonReport.markdown(a, b)));
            files.forEach(f -> stdout.println("  " + f));
            return 0;
        } finally {
            if (dynamoDb != null) dynamoDb.close();
            if (s3 != null) s3.close();
        }
    }

    /**
     * The log groups to look REPORT lines up in, or none. Logs Insights by default where the log groups are
     * known (--stack, --log-group); refused where they cannot be: a local stack keeps no logs.
     */
    private List<String> reportLineLogGroups(DeployedStack stack) {
        List<String> given = logGroups == null ? List.of() : logGroups;
        String mode = reportLines != null ? reportLines : stack != null || !given.isEmpty() ? "logs-insights" : "none";
        AggregatorConfig.ReportLines parsed;
        try {
            parsed = AggregatorConfig.ReportLines.parse("--report-lines", mode);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (parsed == AggregatorConfig.ReportLines.NONE) {
            if (!given.isEmpty()) throw new CommandLine.ParameterException(spec.commandLine(), "--log-group is only used with --report-lines logs-insights");
            return List.of();
        }
        if (stack == null && table == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--report-lines logs-insights needs a deployed stack (--stack NAME,"
                    + " or --table with --log-group): a local stack keeps no CloudWatch logs, and `./batchpipe demo` reports its"
                    + " in-process runtime's REPORT lines itself");
        }
        List<String> groups = !given.isEmpty() ? given : stack != null ? stack.workerLogGroups() : List.of();
        if (groups.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--report-lines logs-insights needs the worker's log group: --log-group"
                    + " NAME (the WorkerLogGroupName output of your stack" + (stack != null ? "; stack " + stack.name()
                    + " has no such output, redeploy it to add one" : "") + "), or --report-lines none");
        }
        try {
            return AggregatorConfig.logGroups(String.join(",", groups));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--log-group: " + e.getMessage());
        }
    }

    /** --table, else the local stack's table when the DynamoDB endpoint points at one, else none. */
    private String tableName() {
        if (table != null && !table.isBlank()) return table;
        String endpoint = System.getenv("AWS_ENDPOINT_URL_DYNAMODB");
        if (endpoint == null || endpoint.isBlank()) endpoint = System.getProperty("aws.endpointUrlDynamoDb");
        if (endpoint == null || endpoint.isBlank()) return null;
        return StackTemplate.physicalName(stackName, "RunsTable", "AWS::DynamoDB::Table");
    }

    private static String fileName(Object runId) {
        return String.valueOf(runId).replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private static String plain(Object value) {
        return value instanceof BigDecimal d ? d.toPlainString() : String.valueOf(value);
    }
}
