package batchpipe.local.cli;

import batchpipe.aggregator.AggregatorConfig;
import batchpipe.aggregator.Report;
import batchpipe.aggregator.delivery.ReportDocuments;
import batchpipe.aggregator.report.MarkdownReport;
import batchpipe.common.task.TaskIds;
import batchpipe.common.text.ControlCharacters;
import batchpipe.local.report.ReportFiles;
import batchpipe.local.run.DeployedStack;
import batchpipe.local.template.StackTemplate;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the {@code report} subcommands share: where a stack keeps a run's records and reports (the local
 * stack by its name, a deployed stack, a table), the checks of a run id, --out and --reports, and
 * printing a run's report folder.
 */
final class ReportStacks {
    private ReportStacks() {
    }

    /** --local-stack-name, and what it names once the AWS_ENDPOINT_URL_* variables point at a `local up` stack. */
    static final class LocalStackName {
        @Option(names = "--local-stack-name", paramLabel = "NAME", defaultValue = "batchpipe", description = "The local stack's name (default: ${DEFAULT-VALUE}).")
        String name;

        /** The local stack's runs table when the DynamoDB endpoint points at one, else null. */
        String table() {
            String endpoint = System.getenv("AWS_ENDPOINT_URL_DYNAMODB");
            if (endpoint == null || endpoint.isBlank()) endpoint = System.getProperty("aws.endpointUrlDynamoDb");
            if (endpoint == null || endpoint.isBlank()) return null;
            return StackTemplate.physicalName(name, "RunsTable", "AWS::DynamoDB::Table");
        }

        /** Where the local stack's aggregator stores reports: its DataBucket, under the default prefix. */
        ReportsAt reports() {
            return new ReportsAt(StackTemplate.physicalName(name, "DataBucket", "AWS::S3::Bucket"), AggregatorConfig.DEFAULT_REPORT_PREFIX);
        }
    }

    /** What show and recompute both take: the run, --json, and where its records are (--stack or --table, else the local stack). */
    static final class OneRun {
        @Parameters(index = "0", paramLabel = "RUN_ID", description = "The run to report.")
        String runId;

        @Option(names = "--json", description = "Print report.json instead of report.md.")
        boolean json;

        @ArgGroup(exclusive = true)
        StackOrTable stackOrTable;

        @Mixin
        LocalStackName localStack;

        /** The run id, refused with a usage error when it is not one. */
        String checkedRunId(CommandSpec spec) {
            checkRunId(spec, runId);
            return runId;
        }

        /** The deployed stack's outputs, or null without --stack. */
        DeployedStack deployedStack(CommandSpec spec) {
            return describe(spec, stackOrTable == null ? null : stackOrTable.deployedStack);
        }

        /** The deployed stack's runs table, else {@link #table()}. */
        String table(DeployedStack stack) {
            return stack != null ? stack.tableName() : table();
        }

        /** --table as given, else null. */
        String tableGiven() {
            return stackOrTable == null ? null : stackOrTable.table;
        }

        /** --table, else the local stack's table when the DynamoDB endpoint points at one, else null. */
        String table() {
            return runsTable(tableGiven(), localStack);
        }
    }

    /** A deployed stack or a runs table, not both (picocli refuses both). */
    static final class StackOrTable {
        @Option(names = {"--stack", "--stack-name"}, paramLabel = "NAME",
                description = "A deployed stack (sam deploy): its runs table, reports location and worker log groups come from its outputs.")
        String deployedStack;

        @Option(names = "--table", paramLabel = "NAME",
                description = "The runs table (default: <stack-name>-RunsTable of the local stack in AWS_ENDPOINT_URL_DYNAMODB).")
        String table;
    }

    /** --table, else the local stack's table when the DynamoDB endpoint points at one, else null. */
    static String runsTable(String table, LocalStackName local) {
        return table != null && !table.isBlank() ? table : local.table();
    }

    /** The deployed stack's outputs, or null without one; a name it cannot find may be the old local use of --stack-name. */
    static DeployedStack describe(CommandSpec spec, String deployedStack) {
        if (deployedStack == null) return null;
        try (CloudFormationClient cloudFormation = CloudFormationClient.builder().httpClient(UrlConnectionHttpClient.create()).build()) {
            return DeployedStack.describe(cloudFormation, deployedStack);
        } catch (RuntimeException e) {
            throw StackNames.deployedStackNotFound(spec, deployedStack, e);
        }
    }

    /** The id names the folder out/<RUN_ID>: '..' or 'a/b' would put the files elsewhere. */
    static void checkRunId(CommandSpec spec, String runId) {
        if (!TaskIds.isValidRunId(runId)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "RUN_ID '" + ControlCharacters.escape(runId)
                    + "' is not a run id: a run id is " + TaskIds.RUN_ID_RULE);
        }
    }

    static void checkOut(CommandSpec spec, Path out) {
        if (out != null && ReportFiles.whyNotAFolder(out) != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out " + out + " " + ReportFiles.whyNotAFolder(out));
        }
    }

    static void checkReports(CommandSpec spec, String reports) {
        if (reports == null) return;
        try {
            ReportsAt.parse(reports);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--reports " + e.getMessage());
        }
    }

    /** report.md (or report.json) from {@code dir}, as written; no control character of a log value reaches the terminal. */
    static void print(PrintStream stdout, Path dir, boolean json) throws IOException {
        Path file = dir.resolve(json ? ReportDocuments.REPORT_JSON : "report.md");
        String text = Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8)
                : MarkdownReport.render(Report.fromJson(Files.readString(dir.resolve(ReportDocuments.REPORT_JSON), StandardCharsets.UTF_8),
                        dir.resolve(ReportDocuments.REPORT_JSON).toString()));
        stdout.print(ControlCharacters.escapeKeepingLines(text));
        stdout.flush();
    }
}
