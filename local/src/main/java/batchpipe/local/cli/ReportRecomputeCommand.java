package batchpipe.local.cli;

import batchpipe.aggregator.AggregatorConfig;
import batchpipe.aggregator.ReportBuilder;
import batchpipe.aggregator.ReportLineSource;
import batchpipe.aggregator.RunReader;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.logs.LogsInsightsReportLines;
import batchpipe.common.aws.AwsClients;
import batchpipe.common.text.ControlCharacters;
import batchpipe.local.report.ReportFiles;
import batchpipe.local.run.DeployedStack;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "recompute", mixinStandardHelpOptions = true,
        description = {"Rebuilds a run's report from its records in the table and writes only the report files.",
                "It says so on stderr and writes the report files into --out (default out/<RUN_ID>/recomputed), nothing else: not "
                    + "the table, not the stored report. There --report-lines logs-insights (the default with --stack) looks up the "
                    + "workers' REPORT lines in their log groups for exact billed and init durations and Max Memory Used ($0.005 per "
                    + "GB scanned); without REPORT lines Lambda durations are measured from the task records. `report RUN_ID "
                    + "--recompute` is the same command."},
        footer = {"", "Formulas: docs/COST.md."})
final class ReportRecomputeCommand implements Callable<Integer> {
    /** The longest it waits for Logs Insights before it reports with what it has. */
    static final Duration REPORT_LINES_TIMEOUT = Duration.ofMinutes(2);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    ReportCommand report;

    @Mixin
    ReportStacks.OneRun run;

    @Option(names = "--out", paramLabel = "DIR", description = "Folder for the files (default: out/<RUN_ID>/recomputed).")
    Path out;

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
            description = "Task duration on arm64 / on x86_64 for projecting one architecture from the other (e.g. B/A of the mean task"
                    + " duration in `report compare <x86 run> <arm64 run>`). Default: measured in the run if it ran on both, else 1.")
    BigDecimal arm64SpeedRatio;

    /** The report rebuilt from the table's records into --out; writes neither the table nor the stored report. */
    @Override
    public Integer call() throws Exception {
        String runId = run.checkedRunId(spec);
        ReportStacks.checkOut(spec, out);
        if (runsPerMonth < 1) throw new CommandLine.ParameterException(spec.commandLine(), "--runs-per-month must be >= 1");
        if (arm64SpeedRatio != null && arm64SpeedRatio.signum() <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--arm64-speed-ratio must be a number > 0");
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
        PrintWriter stderr = spec.commandLine().getErr();
        DeployedStack stack = run.deployedStack(spec);
        String runsTable = run.table(stack);
        if (runsTable == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--recompute needs the runs table: pass --stack <your deployed stack>"
                    + " or --table <its RunsTableName output>, or point AWS_ENDPOINT_URL_DYNAMODB (and _SQS, _S3) at a `batchpipe local up` stack");
        }
        List<String> workerLogGroups = reportLineLogGroups(stack);
        PriceTable prices = priceTable == null ? PriceTable.defaults() : PriceTable.withOverride(priceTable);
        CostAssumptions assumptions = CostAssumptions.defaults().withRunsPerMonth(runsPerMonth);
        if (arm64SpeedRatio != null) {
            assumptions = assumptions.withArm64SpeedRatio(new CostAssumptions.SpeedRatio(arm64SpeedRatio, "given with --arm64-speed-ratio"));
        }
        RunReport rebuilt;
        // The REPORT-line lookup's own log lines would mix with the report on stdout.
        try (StdoutRedirect quiet = StdoutRedirect.discarded();
             DynamoDbClient dynamoDb = report.dynamoDbClients.get();
             var logs = workerLogGroups.isEmpty() ? null : AwsClients.configure(CloudWatchLogsClient.builder()).build()) {
            ReportLineSource source = logs == null ? ReportLineSource.NONE : new LogsInsightsReportLines(logs, workerLogGroups);
            rebuilt = new ReportBuilder(new RunReader(dynamoDb, runsTable), prices, assumptions, source)
                    .build(runId, Instant.now().plus(REPORT_LINES_TIMEOUT));
        }
        stderr.println(recomputedNotice(runId, runsTable, rebuilt));
        Path dir = out != null ? out : Path.of("out", runId, "recomputed");
        try (rebuilt) { // its tasks.csv spill is deleted once the files are written
            ReportFiles.write(dir, rebuilt);
        }
        ReportStacks.print(stdout, dir, run.json);
        stderr.println("batchpipe report: recomputed files in " + dir + " (" + String.join(", ", ReportFiles.RUN_FILES) + ")");
        return 0;
    }

    /** The first line of a recomputed report: that it is one, from which table and with which REPORT lines; no control character passes. */
    static String recomputedNotice(String runId, String table, RunReport report) {
        return ControlCharacters.escape("batchpipe report: recomputed run " + runId + " from table " + table + " (REPORT lines: "
                + report.report().inputs().reportLines() + "); the table and the stored report are unchanged");
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
        if (stack == null && run.tableGiven() == null) {
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
}
