package batchpipe.aggregator;

import batchpipe.aggregator.cost.InvocationSpans;
import batchpipe.aggregator.cost.ReportLine;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;

import java.time.Instant;
import java.util.List;

/**
 * Where the REPORT lines of a run's invocations come from. A source never fails the report: when it
 * cannot find the lines it returns none, and says why in {@link Found#source()}.
 */
public interface ReportLineSource {

    /** No REPORT lines: every duration is measured from the task records. */
    ReportLineSource NONE = (run, tasks, deadline) -> new Found(List.of(), ReportInputs.NO_REPORT_LINES);

    /**
     * @param run         the run record, or null when there is none
     * @param invocations the worker invocations the run's task records name (folded as they were read)
     * @param deadline    when the source must have answered (the aggregator's remaining Lambda time, less what
     *                    the rest of the report needs)
     */
    Found find(RunRecord run, InvocationSpans invocations, Instant deadline);

    /** From a list of the run's task records. */
    default Found find(RunRecord run, List<TaskRecord> tasks, Instant deadline) {
        return find(run, InvocationSpans.of(tasks), deadline);
    }

    /**
     * @param lines  the REPORT lines found
     * @param source said in the report: where the lines come from, how many were found, and why the rest
     *               were not
     */
    record Found(List<ReportLine> lines, String source) {
        public Found {
            lines = List.copyOf(lines);
        }
    }
}
