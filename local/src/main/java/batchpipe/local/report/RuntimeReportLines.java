package batchpipe.local.report;

import batchpipe.aggregator.cost.ReportLine;
import batchpipe.local.runtime.InvocationResult;
import batchpipe.local.runtime.LocalLambdaRuntime;
import batchpipe.worker.task.Invocation;

import java.util.ArrayList;
import java.util.List;

/**
 * The local counterpart of the functions' CloudWatch REPORT lines: every invocation the in-process
 * runtime made, with its billed duration and init time. The functions ran in this JVM, so they ran on
 * this machine's architecture.
 */
public final class RuntimeReportLines {
    private RuntimeReportLines() {
    }

    public static List<ReportLine> of(LocalLambdaRuntime runtime) {
        String architecture = Invocation.normalizedArchitecture(System.getProperty("os.arch"));
        List<ReportLine> lines = new ArrayList<>();
        for (InvocationResult r : runtime.history()) {
            String function = runtime.definition(r.functionLogicalId()).functionName();
            lines.add(new ReportLine(r.requestId(), function, architecture, r.memorySizeMb(), r.durationMs(), r.billedMs(), r.initMs()));
        }
        return lines;
    }

    /** Said in the report: these lines are every invocation of this process, so the process must have run one run only. */
    public static String source(int lines) {
        return "the local in-process runtime's REPORT lines: all " + lines + " invocations of this process (producer, workers,"
                + " aggregator), which ran this one run only";
    }
}
