package batchpipe.local.cli;

import batchpipe.aggregator.Report;
import batchpipe.common.text.ControlCharacters;
import batchpipe.local.report.ComparisonReport;
import batchpipe.local.report.ReportFiles;
import batchpipe.local.report.ReportSources;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compares two runs side by side and writes compare.md and compare.html.",
                "Each run is given as a run id (out/<id>/report.json, else the report.json the table's summary item names), a "
                    + "folder or a report.json. `report --compare A B` is the same command."},
        footer = {"", "Formulas: docs/COST.md."})
final class ReportCompareCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    ReportCommand report;

    @Parameters(arity = "2", paramLabel = "RUN", description = "Two runs to compare: run ids, folders or report.json files.")
    List<String> runs;

    @Option(names = "--out", paramLabel = "DIR", description = "Folder for the files (default: out/compare-<A>-vs-<B>).")
    Path out;

    @Option(names = "--table", paramLabel = "NAME", description = "The runs table whose summary items name the report of a run id not in"
            + " out/ (default: <stack-name>-RunsTable of the local stack in AWS_ENDPOINT_URL_DYNAMODB).")
    String table;

    @Mixin
    ReportStacks.LocalStackName localStack;

    @Override
    public Integer call() throws Exception {
        ReportStacks.checkOut(spec, out);
        PrintStream stdout = System.out;
        Path outRoot = Path.of("out");
        String runsTable = ReportStacks.runsTable(table, localStack);
        var dynamoDb = runsTable == null ? null : report.dynamoDbClients.get();
        var s3 = runsTable == null ? null : report.s3Clients.get();
        try {
            ReportSources.TableRef ref = runsTable == null ? null : new ReportSources.TableRef(dynamoDb, s3, runsTable);
            Report a = ReportSources.load(runs.get(0), outRoot, () -> ref);
            Report b = ReportSources.load(runs.get(1), outRoot, () -> ref);
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

    private static String fileName(String runId) {
        return runId.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
