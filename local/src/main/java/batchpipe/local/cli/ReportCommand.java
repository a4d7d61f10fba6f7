package batchpipe.local.cli;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.AggregatorConfig;
import batchpipe.aggregator.ReportBuilder;
import batchpipe.aggregator.ReportLineSource;
import batchpipe.aggregator.RunReader;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.delivery.ReportDocuments;
import batchpipe.aggregator.delivery.ReportLocation;
import batchpipe.aggregator.delivery.ReportStore;
import batchpipe.aggregator.logs.LogsInsightsReportLines;
import batchpipe.aggregator.report.MarkdownReport;
import batchpipe.common.aws.AwsClients;
import batchpipe.common.task.TaskIds;
import batchpipe.common.text.ControlCharacters;
import batchpipe.local.report.ComparisonReport;
import batchpipe.local.report.HistoryReport;
import batchpipe.local.report.ReportFiles;
import batchpipe.local.report.ReportSources;
import batchpipe.local.report.RunHistory;
import batchpipe.local.report.StoredReports;
import batchpipe.local.report.StoredRunReports;
import batchpipe.local.run.DeployedStack;
import batchpipe.local.template.StackTemplate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Shows a run's stored report, rebuilds it (--recompute) or compares two runs.",
                "`report RUN_ID` reads and never writes the table. It prints report.md (report.json with --json) from "
                    + "out/<RUN_ID>/ when that folder holds report.json, with no stack needed; else it copies the report files the "
                    + "aggregator stored in S3 (where the run's summary item says) into --out and prints them. They come from "
                    + "the local stack the AWS_ENDPOINT_URL_* variables point at (`batchpipe local up` prints them), or from a "
                    + "deployed one (--stack NAME, or --table and/or --reports, with your AWS credentials and region). `report "
                    + "RUN_ID --recompute` rebuilds the report from the run's records in the table, says so on stderr and writes "
                    + "the report files into --out (default out/<RUN_ID>/recomputed), nothing else: not the table, not the stored "
                    + "report. There --report-lines logs-insights (the default with --stack) looks up the workers' REPORT lines "
                    + "in their log groups for exact billed and init durations and Max Memory Used ($0.005 per GB scanned); "
                    + "without REPORT lines Lambda durations are measured from the task records. `report --compare A B` compares "
                    + "two runs, each given as a run id (out/<id>/report.json, else the table's summary), a folder or a "
                    + "report.json, and writes compare.md and compare.html. `report --history` reads every stored report.json (out/*/, "
                    + "or the stack's report prefix in S3 with --stack or --reports) and writes history.md and history.html: per run, "
                    + "cost per million tasks, p50/p99 task duration, throughput, failures and cold-start share, each run flagged when "
                    + "its cost per million tasks or p99 is worse than the median of the --baseline runs of its label before it by "
                    + "more than --regression."},
        footer = {"", "Formulas: docs/COST.md."})
final class ReportCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "RUN_ID", description = "The run to report.")
    String runId;

    @Option(names = "--compare", arity = "2", paramLabel = "RUN", description = "Two runs to compare: run ids, folders or report.json files.")
    List<String> compare;

    @Option(names = "--history", description = "The history of the stored runs, oldest first, with regressions flagged (history.md, history.html).")
    boolean history;

    @Option(names = "--label", paramLabel = "LABEL", description = "With --history, only the runs whose spec had this label (default: every"
            + " label, each run judged against runs of its own label).")
    String label;

    @Option(names = "--last", paramLabel = "N", defaultValue = "20", description = "With --history, the newest N runs shown (default:"
            + " ${DEFAULT-VALUE}); their baselines may be older runs.")
    int last;

    @Option(names = "--baseline", paramLabel = "N", defaultValue = "5", description = "With --history, how many runs of the same label before"
            + " a run its figures are compared with, by their median (default: ${DEFAULT-VALUE}); a run with fewer before it is not judged.")
    int baseline;

    @Option(names = "--regression", paramLabel = "PERCENT", defaultValue = "20%", description = "With --history, how much worse than the"
            + " baseline median a run's cost per million tasks or p99 task duration may be before it is flagged (default: ${DEFAULT-VALUE}).")
    String regression;

    @Option(names = "--from", paramLabel = "DIR", description = "With --history, the folder whose <runId>/report.json files are read"
            + " (default: out, where the demo and `run --wait` leave them).")
    Path from;

    @Option(names = "--out", description = "Folder for the files (default: out/<runId>, out/<runId>/recomputed with --recompute,"
            + " out/compare-<A>-vs-<B>, or out/history with --history); a stored report already in it is read from there.")
    Path out;

    @Option(names = "--json", description = "Print report.json instead of report.md.")
    boolean json;

    @Option(names = "--recompute", description = "Rebuild the report from the run's records in the table instead of reading the stored one;"
            + " the table and the stored report stay as they are.")
    boolean recompute;

    @Option(names = "--table", description = "The runs table (default: <stack-name>-RunsTable of the local stack in AWS_ENDPOINT_URL_DYNAMODB).")
    String table;

    @Option(names = "--reports", paramLabel = "S3_URI",
            description = "Where the stack keeps its reports, as its ReportsLocation output says (s3://bucket/prefix/): looked in for"
                    + " <prefix><runId>/ when no summary item names the files (default: the --stack's output, or reports/ in the local"
                    + " stack's bucket).")
    String reports;

    @Option(names = "--local-stack-name", paramLabel = "NAME", defaultValue = "batchpipe", description = "The local stack's name (default: ${DEFAULT-VALUE}).")
    String stackName;

    @Option(names = {"--stack", "--stack-name"}, paramLabel = "NAME",
            description = "A deployed stack (sam deploy): its runs table, reports location and worker log groups come from its outputs.")
    String deployedStack;

    @Option(names = "--report-lines", paramLabel = "SOURCE",
            description = "With --recompute, where the workers' REPORT lines come from: logs-insights (their CloudWatch log groups; the"
                    + " default with --stack or --log-group) or none (durations measured from the task records; the default otherwise).")
    String reportLines;

    @Option(names = "--log-group", split = ",", paramLabel = "NAME",
            description = "The worker's log group (and its twin's), for --report-lines logs-insights without --stack:"
                    + " the WorkerLogGroupName and WorkerTwinLogGroupName outputs of the stack.")
    List<String> logGroups;

    @Option(names = "--price-table", paramLabel = "FILE", description = "With --recompute, a price table whose fields replace those of the bundled one.")
    Path priceTable;

    @Option(names = "--runs-per-month", defaultValue = "30",
            description = "With --recompute, runs a month for the monthly projection (default: ${DEFAULT-VALUE}).")
    int runsPerMonth;

    @Option(names = "--arm64-speed-ratio", paramLabel = "RATIO",
            description = "With --recompute, task duration on arm64 / on x86_64 for projecting one architecture from the other (e.g. B/A"
                    + " of the mean task duration in `report --compare <x86 run> <arm64 run>`). Default: measured in the run if it ran"
                    + " on both, else 1.")
    BigDecimal arm64SpeedRatio;

    /** The options that only shape a recomputed report: without --recompute they would be silently ignored. */
    private static final List<String> RECOMPUTE_OPTIONS = List.of("--report-lines", "--log-group", "--price-table", "--runs-per-month",
            "--arm64-speed-ratio");

    /** The options that only shape a history: elsewhere they would be silently ignored. */
    private static final List<String> HISTORY_OPTIONS = List.of("--label", "--last", "--baseline", "--regression", "--from");

    /** The most runs a baseline may hold: more would compare a run with a different era of the code. */
    static final int MAX_BASELINE = 100;

    private final Supplier<DynamoDbClient> dynamoDbClients;
    private final Supplier<S3Client> s3Clients;

    ReportCommand() {
        this(AwsClients::dynamoDb, AwsClients::s3);
    }

    /** With the clients a test gives; each is asked for only when the command needs it, and closed after. */
    ReportCommand(Supplier<DynamoDbClient> dynamoDbClients, Supplier<S3Client> s3Clients) {
        this.dynamoDbClients = dynamoDbClients;
        this.s3Clients = s3Clients;
    }

    @Override
    public Integer call() throws Exception {
        if (!history) {
            for (String option : HISTORY_OPTIONS) {
                if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                    throw new CommandLine.ParameterException(spec.commandLine(), option + " shapes a history only: add --history");
                }
            }
        } else {
            return history(System.out);
        }
        if ((compare == null) == (runId == null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give either a RUN_ID or --compare <runA> <runB>");
        }
        if (runId != null && !TaskIds.isValidRunId(runId)) {
            // The id names the folder out/<RUN_ID>: '..' or 'a/b' would put the files elsewhere.
            throw new CommandLine.ParameterException(spec.commandLine(), "RUN_ID '" + ControlCharacters.escape(runId)
                    + "' is not a run id: a run id is " + TaskIds.RUN_ID_RULE);
        }
        if (compare != null && (recompute || json)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--recompute and --json are for a RUN_ID, not --compare");
        }
        if (!recompute) {
            for (String option : RECOMPUTE_OPTIONS) {
                if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                    throw new CommandLine.ParameterException(spec.commandLine(), option + " shapes a recomputed report only: add --recompute"
                            + " (without it the stored report is shown as it is)");
                }
            }
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
        if (deployedStack != null && table != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give --stack or --table, not both");
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
        if (compare != null) return compare(stdout);
        return recompute ? recompute(stdout, stderr) : show(stdout, stderr);
    }

    /** The longest `report` waits for Logs Insights before it reports with what it has. */
    static final Duration REPORT_LINES_TIMEOUT = Duration.ofMinutes(2);

    /**
     * The stored report: the run's folder when it holds report.json (no stack needed), else the files the
     * aggregator stored, copied into it. Reads only.
     */
    private int show(PrintStream stdout, PrintWriter stderr) throws Exception {
        Path dir = out != null ? out : Path.of("out", runId);
        Path reportJson = dir.resolve(ReportDocuments.REPORT_JSON);
        String from;
        if (Files.isRegularFile(reportJson)) {
            from = dir.toString();
        } else {
            DeployedStack stack = describe();
            String runsTable = stack != null ? stack.tableName() : tableName();
            ReportLocation reportsFolder = reportsFolder(stack);
            if (runsTable == null && reportsFolder == null) {
                throw new StoredReports.NotStoredException(runId, List.of("no " + reportJson, "and no stack to fetch it from (pass --stack"
                        + " NAME, --table NAME or --reports s3://bucket/prefix/, or point AWS_ENDPOINT_URL_* at a `batchpipe local up` stack)"));
            }
            try (S3Client s3 = s3Clients.get(); DynamoDbClient dynamoDb = runsTable == null ? null : dynamoDbClients.get()) {
                ReportLocation location = new StoredReports(s3, dynamoDb, runsTable, reportsFolder).copy(runId, dir, "no " + reportJson);
                from = location.uri() + ", copied to " + dir;
            }
        }
        print(stdout, dir);
        stderr.println("batchpipe report: the stored report of run " + runId + ", from " + ControlCharacters.escape(from) + " ("
                + String.join(", ", ReportFiles.RUN_FILES) + ")");
        return 0;
    }

    /** The report rebuilt from the table's records into --out; writes neither the table nor the stored report. */
    private int recompute(PrintStream stdout, PrintWriter stderr) throws Exception {
        DeployedStack stack = describe();
        String runsTable = stack != null ? stack.tableName() : tableName();
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
        RunReport report;
        // The REPORT-line lookup's own log lines would mix with the report on stdout.
        try (StdoutRedirect quiet = StdoutRedirect.discarded();
             DynamoDbClient dynamoDb = dynamoDbClients.get();
             var logs = workerLogGroups.isEmpty() ? null : AwsClients.configure(CloudWatchLogsClient.builder()).build()) {
            ReportLineSource source = logs == null ? ReportLineSource.NONE : new LogsInsightsReportLines(logs, workerLogGroups);
            report = new ReportBuilder(new RunReader(dynamoDb, runsTable), prices, assumptions, source)
                    .build(runId, Instant.now().plus(REPORT_LINES_TIMEOUT));
        }
        stderr.println(recomputedNotice(runId, runsTable, report));
        Path dir = out != null ? out : Path.of("out", runId, "recomputed");
        try (report) { // its tasks.csv spill is deleted once the files are written
            ReportFiles.write(dir, report);
        }
        print(stdout, dir);
        stderr.println("batchpipe report: recomputed files in " + dir + " (" + String.join(", ", ReportFiles.RUN_FILES) + ")");
        return 0;
    }

    /** The first line of a recomputed report: that it is one, from which table and with which REPORT lines; no control character passes. */
    static String recomputedNotice(String runId, String table, RunReport report) {
        return ControlCharacters.escape("batchpipe report: recomputed run " + runId + " from table " + table + " (REPORT lines: "
                + report.report().inputs().reportLines() + "); the table and the stored report are unchanged");
    }

    /** report.md (or report.json with --json) from {@code dir}, as written; no control character of a log value reaches the terminal. */
    private void print(PrintStream stdout, Path dir) throws IOException {
        Path file = dir.resolve(json ? ReportDocuments.REPORT_JSON : "report.md");
        String text = Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8)
                : MarkdownReport.render(Report.fromJson(Files.readString(dir.resolve(ReportDocuments.REPORT_JSON), StandardCharsets.UTF_8),
                        dir.resolve(ReportDocuments.REPORT_JSON).toString()));
        stdout.print(ControlCharacters.escapeKeepingLines(text));
        stdout.flush();
    }

    private DeployedStack describe() {
        if (deployedStack == null) return null;
        try (CloudFormationClient cloudFormation = CloudFormationClient.builder().httpClient(UrlConnectionHttpClient.create()).build()) {
            return DeployedStack.describe(cloudFormation, deployedStack);
        } catch (RuntimeException e) {
            throw StackNames.deployedStackNotFound(spec, deployedStack, e);
        }
    }

    /**
     * Where the stack would keep this run's files, for when no summary item names them: --reports, the
     * deployed stack's ReportsLocation output, or the local stack's DataBucket under reports/; null when
     * none is known.
     */
    private ReportLocation reportsFolder(DeployedStack stack) {
        ReportsAt at = null;
        if (reports != null) at = ReportsAt.parse(reports);
        else if (stack != null && stack.reportsLocation() != null) at = ReportsAt.parse(stack.reportsLocation());
        else if (stack == null && table == null && tableName() != null) {
            at = new ReportsAt(StackTemplate.physicalName(stackName, "DataBucket", "AWS::S3::Bucket"), AggregatorConfig.DEFAULT_REPORT_PREFIX);
        }
        return at == null ? null : StoredReports.runFolder(at.bucket(), ReportStore.normalisePrefix(at.prefix()), runId);
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

    private int compare(PrintStream stdout) throws Exception {
        Path outRoot = Path.of("out");
        String runsTable = tableName();
        var dynamoDb = runsTable == null ? null : dynamoDbClients.get();
        var s3 = runsTable == null ? null : s3Clients.get();
        try {
            ReportSources.TableRef ref = runsTable == null ? null : new ReportSources.TableRef(dynamoDb, s3, runsTable);
            Report a = ReportSources.load(compare.get(0), outRoot, () -> ref);
            Report b = ReportSources.load(compare.get(1), outRoot, () -> ref);
            Path dir = out != null ? out : outRoot.resolve("compare-" + fileName(a.runId()) + "-vs-" + fileName(b.runId()));
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
     * The history of stored runs: every report.json in the folder of run folders (--from, default out/), or
     * under the stack's report prefix in S3 (--reports, --stack; a `local up` stack's bucket when the folder
     * has none), judged by {@link RunHistory}; history.md is printed, both pages written into --out.
     */
    private int history(PrintStream stdout) throws Exception {
        if (runId != null || compare != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--history reads every stored run: give no RUN_ID and no --compare");
        }
        List<String> notForHistory = new java.util.ArrayList<>(List.of("--json", "--recompute", "--table"));
        notForHistory.addAll(RECOMPUTE_OPTIONS);
        for (String option : notForHistory) {
            if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                throw new CommandLine.ParameterException(spec.commandLine(), option + " is not used by --history (it reads the stored"
                        + " report.json files; --reports s3://bucket/prefix/ or --stack NAME for a stack's)");
            }
        }
        if (last < 1) throw new CommandLine.ParameterException(spec.commandLine(), "--last must be at least 1 (the newest runs to show), was " + last);
        if (baseline < 1 || baseline > MAX_BASELINE) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--baseline must be from 1 to " + MAX_BASELINE
                    + " (the runs before each run whose median it is compared with), was " + baseline);
        }
        BigDecimal regressionPercent;
        try {
            regressionPercent = parseRegression(regression);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--regression " + e.getMessage());
        }
        if (out != null && ReportFiles.whyNotAFolder(out) != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out " + out + " " + ReportFiles.whyNotAFolder(out));
        }
        if (reports != null) {
            try {
                ReportsAt.parse(reports);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--reports " + e.getMessage());
            }
        }
        StoredRunReports found = storedRunReports();
        PrintWriter stderr = spec.commandLine().getErr();
        for (String skipped : found.skipped()) stderr.println("batchpipe report: skipped " + ControlCharacters.escape(skipped));
        if (found.reports().isEmpty()) {
            throw new IllegalArgumentException("no stored report found: no <runId>/report.json in " + found.where() + (found.skipped().isEmpty() ? ""
                    : " (" + found.skipped().size() + " unreadable, skipped)") + "; a run leaves one there when it completes (`batchpipe demo`,"
                    + " `batchpipe run --spec FILE --wait`), or name where they are with --from DIR, --reports s3://bucket/prefix/ or --stack NAME");
        }
        List<RunHistory.RunPoint> runs = found.reports().stream().map(RunHistory.RunPoint::of).toList();
        if (label != null) {
            List<RunHistory.RunPoint> ofLabel = runs.stream().filter(r -> label.equals(r.label())).toList();
            if (ofLabel.isEmpty()) throw new IllegalArgumentException(unknownLabel(label, runs, found.where()));
            runs = ofLabel;
        }
        RunHistory judged = RunHistory.judge(runs, baseline, regressionPercent, last, label, found.where());
        Path dir = out != null ? out : Path.of("out", "history");
        List<Path> files = ReportFiles.writeHistory(dir, judged);
        stdout.print(ControlCharacters.escapeKeepingLines(HistoryReport.markdown(judged)));
        files.forEach(f -> stdout.println("  " + f));
        stdout.flush();
        return 0;
    }

    /** Where --history reads: S3 with --reports or --stack, else the folder, else a `local up` stack's bucket when it points at one. */
    private StoredRunReports storedRunReports() throws IOException {
        ReportsAt at = null;
        if (reports != null) {
            at = ReportsAt.parse(reports);
        } else if (deployedStack != null) {
            DeployedStack stack = describe();
            if (stack.reportsLocation() == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "stack " + stack.name() + " has no ReportsLocation output"
                        + " (redeploy it to add one), so --history does not know where its reports are: pass --reports s3://bucket/prefix/");
            }
            at = ReportsAt.parse(stack.reportsLocation());
        }
        if (at == null) {
            StoredRunReports local = StoredRunReports.inFolder(from != null ? from : Path.of("out"));
            return !local.reports().isEmpty() || from != null || tableName() == null ? local : localStackFallback(local);
        }
        try (S3Client s3 = s3Clients.get()) {
            return StoredRunReports.inBucket(s3, at.bucket(), ReportStore.normalisePrefix(at.prefix()));
        }
    }

    /** The folder's reports, else (when it has none and a `local up` stack is pointed at) the local stack's bucket, saying it looked in both. */
    private StoredRunReports localStackFallback(StoredRunReports folder) {
        ReportsAt at = new ReportsAt(StackTemplate.physicalName(stackName, "DataBucket", "AWS::S3::Bucket"), AggregatorConfig.DEFAULT_REPORT_PREFIX);
        try (S3Client s3 = s3Clients.get()) {
            StoredRunReports bucket = StoredRunReports.inBucket(s3, at.bucket(), ReportStore.normalisePrefix(at.prefix()));
            if (!bucket.reports().isEmpty()) return bucket;
            List<String> skipped = new java.util.ArrayList<>(folder.skipped());
            skipped.addAll(bucket.skipped());
            return new StoredRunReports(List.of(), skipped, folder.where() + " and " + bucket.where());
        }
    }

    /** A percentage of at least 0, as "20%" or "20". */
    static BigDecimal parseRegression(String text) {
        String number = text.strip();
        if (number.endsWith("%")) number = number.substring(0, number.length() - 1).strip();
        BigDecimal percent;
        try {
            percent = new BigDecimal(number);
        } catch (NumberFormatException e) {
            percent = null;
        }
        if (percent == null || percent.signum() < 0 || percent.compareTo(BigDecimal.valueOf(10_000)) > 0) {
            throw new IllegalArgumentException("'" + ControlCharacters.escape(text) + "' is not a percentage from 0% to 10000%"
                    + " (how much worse than the baseline median a figure may be, such as 20%)");
        }
        return percent;
    }

    /** The error for a label no run has: the labels there are, with their run counts. */
    static String unknownLabel(String label, List<RunHistory.RunPoint> runs, String where) {
        java.util.Map<String, Long> byLabel = new java.util.TreeMap<>();
        for (RunHistory.RunPoint run : runs) byLabel.merge(run.label() == null ? "(no label)" : "'" + run.label() + "'", 1L, Long::sum);
        List<String> labels = byLabel.entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + (e.getValue() == 1 ? " run)" : " runs)")).toList();
        return ControlCharacters.escape("no run with --label '" + label + "' in " + where + "; the labels there are " + String.join(", ", labels));
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

    private static String fileName(String runId) {
        return runId.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
