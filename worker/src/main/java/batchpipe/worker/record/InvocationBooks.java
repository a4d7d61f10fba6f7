package batchpipe.worker.record;

import batchpipe.common.log.StructuredLog;
import batchpipe.common.run.InvocationRecord;
import batchpipe.common.table.CallTimer;
import batchpipe.worker.task.Invocation;
import batchpipe.worker.task.InvocationLedger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Ends a worker invocation's books: writes its invocation record for each run it worked for, then
 * announces the runs it completed. In that order, because the announcement starts the aggregator, which
 * must find every invocation record of the run. An invocation record that cannot be written is logged
 * and skipped (it only carries figures); an announcement that cannot be sent returns its message to the
 * queue, whose redelivery counts the task again, finds the run complete and announces it.
 */
public final class InvocationBooks {
    private static final StructuredLog LOG = StructuredLog.of(InvocationBooks.class);

    private final DynamoDbClient dynamoDb;
    private final String table;
    private final TaskBooks books;

    public InvocationBooks(DynamoDbClient dynamoDb, String table, TaskBooks books) {
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.books = books;
    }

    /** @return the ids of the messages that must come back because their run's announcement failed */
    public Set<String> finish(Invocation invocation, InvocationLedger ledger, long startedAt, long finishedAt) {
        for (Map.Entry<String, Integer> run : ledger.tasksByRun().entrySet()) {
            InvocationRecord record = new InvocationRecord(run.getKey(), invocation.forRecord(), startedAt, finishedAt, run.getValue(),
                    ledger.callsOf(run.getKey()));
            try {
                dynamoDb.putItem(b -> b.tableName(table).item(record.toItem(books.layout(record.runId(), CallTimer.UNTIMED))));
            } catch (RuntimeException e) {
                LOG.warn("could not write the invocation record; the run's report will lack this invocation's call latencies",
                        "runId", run.getKey(), "reason", e.getMessage());
            }
        }
        Set<String> retry = new LinkedHashSet<>();
        for (InvocationLedger.Completion completion : ledger.completions()) {
            try {
                books.announceCompletion(completion.runId(), completion.taskId(), completion.claimedBy(), CallTimer.UNTIMED);
            } catch (RuntimeException e) {
                LOG.error("could not announce the run's completion; its message will come back to announce it again", e,
                        "runId", completion.runId(), "taskId", completion.taskId());
                retry.add(completion.messageId());
            }
        }
        return retry;
    }
}
