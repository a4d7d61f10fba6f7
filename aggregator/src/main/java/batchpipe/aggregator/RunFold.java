package batchpipe.aggregator;

import batchpipe.aggregator.cost.BilledInvocation;
import batchpipe.aggregator.cost.CostModel;
import batchpipe.aggregator.cost.InvocationSpans;
import batchpipe.aggregator.cost.Invocations;
import batchpipe.aggregator.cost.ItemSize;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.cost.TaskTotals;
import batchpipe.aggregator.cost.UsageModel;
import batchpipe.aggregator.report.TaskRows;
import batchpipe.aggregator.stats.FiguresFold;
import batchpipe.common.run.InvocationRecord;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;

/**
 * A run's report built as its records are read: each task record is folded into the figures
 * ({@link FiguresFold}), the cost model's totals ({@link TaskTotals}), the worker invocations
 * ({@link InvocationSpans}) and the rows of tasks.csv ({@link TaskRows}, spilled to a file), and is then
 * dropped, so the heap holds columns of primitives and per-invocation entries, never the records. A run's
 * invocation records ({@code invocation#<requestId>}, one per worker invocation: a batch of tasks each)
 * are folded the same way. Records are folded in task-id order, the order a Query returns them in.
 * <p>
 * Closing the fold before {@link #report} deletes the spilled rows (a read that failed); the report's
 * rows belong to the {@link RunReport} afterwards.
 */
public final class RunFold implements AutoCloseable {
    private final PriceTable prices;
    private final FiguresFold figures = new FiguresFold();
    private final TaskTotals totals;
    private final InvocationSpans invocations = new InvocationSpans();
    private final TaskRows rows = new TaskRows();
    private boolean reported;

    public RunFold(PriceTable prices) {
        this.prices = prices;
        this.totals = new TaskTotals(prices.writeUnitBytes());
    }

    public void add(TaskRecord task) {
        // the item as stored: its size is what DynamoDB billed the put by, and tasks.csv shows it attribute by attribute
        Map<String, AttributeValue> item = task.toItem();
        long itemBytes = ItemSize.of(item);
        figures.add(task);
        totals.add(task, itemBytes);
        invocations.add(task);
        rows.add(item, itemBytes);
    }

    public void add(InvocationRecord invocation) {
        figures.add(invocation);
    }

    /** Task records folded so far. */
    public long tasks() {
        return totals.tasks();
    }

    /** The worker invocations the task records folded so far name: what REPORT lines are looked up for. */
    public InvocationSpans invocations() {
        return invocations;
    }

    /** @param run the run record, or null when there is none */
    public RunReport report(String runId, RunRecord run, ReportInputs inputs) {
        List<BilledInvocation> billed = Invocations.of(invocations, inputs.reportLines());
        UsageModel.Usage usage = UsageModel.measure(run, totals, billed, inputs.assumptions(), prices);
        reported = true;
        return new RunReport(new Report(figures.figures(runId, run), new CostModel(prices).compute(totals, billed, usage, inputs.assumptions()),
                new Report.Inputs(inputs.reportLinesSource(), billed)), run, rows);
    }

    @Override
    public void close() {
        if (!reported) rows.close();
    }
}
