package batchpipe.local.cli;

import batchpipe.aggregator.delivery.ReportStore;
import batchpipe.common.text.ControlCharacters;
import batchpipe.local.report.HistoryReport;
import batchpipe.local.report.ReportFiles;
import batchpipe.local.report.RunHistory;
import batchpipe.local.report.StoredRunReports;
import batchpipe.local.run.DeployedStack;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

@Command(name = "history", mixinStandardHelpOptions = true,
        description = {"Shows the history of the stored runs, oldest first, with regressions flagged (history.md, history.html).",
                "It reads every stored report.json (out/*/, or the stack's report prefix in S3 with --stack or --reports) and writes "
                    + "history.md and history.html: per run, cost per million tasks, p50/p99 task duration, throughput, failures and "
                    + "cold-start share, each run flagged when its cost per million tasks or p99 is worse than the median of the "
                    + "--baseline runs of its label before it by more than --regression. `report --history` is the same command."},
        footer = {"", "Formulas: docs/COST.md."})
final class ReportHistoryCommand implements Callable<Integer> {
    /** The most runs a baseline may hold: more would compare a run with a different era of the code. */
    static final int MAX_BASELINE = 100;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    ReportCommand report;

    @Option(names = "--label", paramLabel = "LABEL", description = "Only the runs whose spec had this label (default: every label, each run"
            + " judged against runs of its own label).")
    String label;

    @Option(names = "--last", paramLabel = "N", defaultValue = "20", description = "The newest N runs shown (default: ${DEFAULT-VALUE});"
            + " their baselines may be older runs.")
    int last;

    @Option(names = "--baseline", paramLabel = "N", defaultValue = "5", description = "How many runs of the same label before a run its"
            + " figures are compared with, by their median (default: ${DEFAULT-VALUE}); a run with fewer before it is not judged.")
    int baseline;

    @Option(names = "--regression", paramLabel = "PERCENT", defaultValue = "20%", description = "How much worse than the baseline median a"
            + " run's cost per million tasks or p99 task duration may be before it is flagged (default: ${DEFAULT-VALUE}).")
    String regression;

    @ArgGroup(exclusive = true)
    Source source;

    @Option(names = "--out", paramLabel = "DIR", description = "Folder for history.md and history.html (default: out/history).")
    Path out;

    @Mixin
    ReportStacks.LocalStackName localStack;

    /** Where the stored reports are read: one of a folder, a deployed stack's report prefix, or an S3 location (picocli refuses two). */
    static final class Source {
        @Option(names = "--from", paramLabel = "DIR", description = "The folder whose <runId>/report.json files are read (default: out, where"
                + " the demo and `run --wait` leave them).")
        Path from;

        @Option(names = {"--stack", "--stack-name"}, paramLabel = "NAME",
                description = "A deployed stack (sam deploy): its reports are read where its ReportsLocation output says.")
        String deployedStack;

        @Option(names = "--reports", paramLabel = "S3_URI", description = "Where the stack keeps its reports, as its ReportsLocation output"
                + " says (s3://bucket/prefix/).")
        String reports;
    }

    /**
     * The history of stored runs: every report.json in the folder of run folders (--from, default out/), or
     * under the stack's report prefix in S3 (--reports, --stack; a `local up` stack's bucket when the folder
     * has none), judged by {@link RunHistory}; history.md is printed, both pages written into --out.
     */
    @Override
    public Integer call() throws Exception {
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
        ReportStacks.checkOut(spec, out);
        ReportStacks.checkReports(spec, source == null ? null : source.reports);
        PrintStream stdout = System.out;
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

    /** Where it reads: S3 with --reports or --stack, else the folder, else a `local up` stack's bucket when it points at one. */
    private StoredRunReports storedRunReports() throws IOException {
        Path from = source == null ? null : source.from;
        ReportsAt at = null;
        if (source != null && source.reports != null) {
            at = ReportsAt.parse(source.reports);
        } else if (source != null && source.deployedStack != null) {
            DeployedStack stack = ReportStacks.describe(spec, source.deployedStack);
            if (stack.reportsLocation() == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "stack " + stack.name() + " has no ReportsLocation output"
                        + " (redeploy it to add one), so --history does not know where its reports are: pass --reports s3://bucket/prefix/");
            }
            at = ReportsAt.parse(stack.reportsLocation());
        }
        if (at == null) {
            StoredRunReports local = StoredRunReports.inFolder(from != null ? from : Path.of("out"));
            return !local.reports().isEmpty() || from != null || localStack.table() == null ? local : localStackFallback(local);
        }
        try (S3Client s3 = report.s3Clients.get()) {
            return StoredRunReports.inBucket(s3, at.bucket(), ReportStore.normalisePrefix(at.prefix()));
        }
    }

    /** The folder's reports, else (when it has none and a `local up` stack is pointed at) the local stack's bucket, saying it looked in both. */
    private StoredRunReports localStackFallback(StoredRunReports folder) {
        ReportsAt at = localStack.reports();
        try (S3Client s3 = report.s3Clients.get()) {
            StoredRunReports bucket = StoredRunReports.inBucket(s3, at.bucket(), ReportStore.normalisePrefix(at.prefix()));
            if (!bucket.reports().isEmpty()) return bucket;
            List<String> skipped = new ArrayList<>(folder.skipped());
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
        Map<String, Long> byLabel = new TreeMap<>();
        for (RunHistory.RunPoint run : runs) byLabel.merge(run.label() == null ? "(no label)" : "'" + run.label() + "'", 1L, Long::sum);
        List<String> labels = byLabel.entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + (e.getValue() == 1 ? " run)" : " runs)")).toList();
        return ControlCharacters.escape("no run with --label '" + label + "' in " + where + "; the labels there are " + String.join(", ", labels));
    }
}
