package batchpipe.local.cli;

import batchpipe.aggregator.delivery.ReportDocuments;
import batchpipe.aggregator.delivery.ReportLocation;
import batchpipe.aggregator.delivery.ReportStore;
import batchpipe.common.text.ControlCharacters;
import batchpipe.local.report.ReportFiles;
import batchpipe.local.report.StoredReports;
import batchpipe.local.run.DeployedStack;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "show", mixinStandardHelpOptions = true,
        description = {"Shows a run's stored report; it reads and never writes the table.",
                "It prints report.md (report.json with --json) from out/<RUN_ID>/ when that folder holds report.json, with no stack "
                    + "needed; else it copies the report files the aggregator stored in S3 (where the run's summary item says) into "
                    + "--out and prints them. They come from the local stack the AWS_ENDPOINT_URL_* variables point at (`batchpipe "
                    + "local up` prints them), or from a deployed one (--stack NAME, or --table and/or --reports, with your AWS "
                    + "credentials and region). `report RUN_ID` is the same command."},
        footer = {"", "Formulas: docs/COST.md."})
final class ReportShowCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    ReportCommand report;

    @Mixin
    ReportStacks.OneRun run;

    @Option(names = "--out", paramLabel = "DIR", description = "Folder for the files (default: out/<RUN_ID>); a stored report already in it is"
            + " read from there.")
    Path out;

    @Option(names = "--reports", paramLabel = "S3_URI",
            description = "Where the stack keeps its reports, as its ReportsLocation output says (s3://bucket/prefix/): looked in for"
                    + " <prefix><runId>/ when no summary item names the files (default: the --stack's output, or reports/ in the local"
                    + " stack's bucket).")
    String reports;

    /** The stored report: the run's folder when it holds report.json (no stack needed), else the files the aggregator stored, copied into it. */
    @Override
    public Integer call() throws Exception {
        String runId = run.checkedRunId(spec);
        ReportStacks.checkOut(spec, out);
        ReportStacks.checkReports(spec, reports);
        PrintWriter stderr = spec.commandLine().getErr();
        Path dir = out != null ? out : Path.of("out", runId);
        Path reportJson = dir.resolve(ReportDocuments.REPORT_JSON);
        String from;
        if (Files.isRegularFile(reportJson)) {
            from = dir.toString();
        } else {
            DeployedStack stack = run.deployedStack(spec);
            String runsTable = run.table(stack);
            ReportLocation reportsFolder = reportsFolder(stack, runId);
            if (runsTable == null && reportsFolder == null) {
                throw new StoredReports.NotStoredException(runId, List.of("no " + reportJson, "and no stack to fetch it from (pass --stack"
                        + " NAME, --table NAME or --reports s3://bucket/prefix/, or point AWS_ENDPOINT_URL_* at a `batchpipe local up` stack)"));
            }
            try (S3Client s3 = report.s3Clients.get(); DynamoDbClient dynamoDb = runsTable == null ? null : report.dynamoDbClients.get()) {
                ReportLocation location = new StoredReports(s3, dynamoDb, runsTable, reportsFolder).copy(runId, dir, "no " + reportJson);
                from = location.uri() + ", copied to " + dir;
            }
        }
        ReportStacks.print(System.out, dir, run.json);
        stderr.println("batchpipe report: the stored report of run " + runId + ", from " + ControlCharacters.escape(from) + " ("
                + String.join(", ", ReportFiles.RUN_FILES) + ")");
        return 0;
    }

    /**
     * Where the stack would keep this run's files, for when no summary item names them: --reports, the
     * deployed stack's ReportsLocation output, or the local stack's DataBucket under reports/; null when
     * none is known.
     */
    private ReportLocation reportsFolder(DeployedStack stack, String runId) {
        ReportsAt at = null;
        if (reports != null) at = ReportsAt.parse(reports);
        else if (stack != null && stack.reportsLocation() != null) at = ReportsAt.parse(stack.reportsLocation());
        else if (stack == null && run.tableGiven() == null && run.localStack.table() != null) at = run.localStack.reports();
        return at == null ? null : StoredReports.runFolder(at.bucket(), ReportStore.normalisePrefix(at.prefix()), runId);
    }
}
