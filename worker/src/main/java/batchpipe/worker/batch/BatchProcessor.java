package batchpipe.worker.batch;

import batchpipe.common.log.StructuredLog;
import batchpipe.worker.task.Invocation;
import batchpipe.worker.task.InvocationLedger;
import batchpipe.worker.task.TaskMetrics;
import batchpipe.worker.task.TaskProcessor;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import org.slf4j.MDC;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * Runs the messages of one SQS batch concurrently and answers with exactly the ids that must come
 * back. Each message runs on its own virtual thread (its I/O waits cost no platform thread); the CPU
 * work inside it goes to the ForkJoin pool. At most {@code maxInFlight} messages run at once, which
 * bounds memory, and none starts once less than the safety margin of the invocation remains: those
 * are reported as failures so that SQS delivers them again instead of losing them to a timeout.
 */
public final class BatchProcessor {
    private static final StructuredLog LOG = StructuredLog.of(BatchProcessor.class);

    private final TaskProcessor tasks;
    private final InvocationEnd end;
    private final int maxInFlight;
    private final long safetyMarginMs;

    /** What ends an invocation's books once its messages are done; answers the messages that must come back. */
    @FunctionalInterface
    public interface InvocationEnd {
        Set<String> finish(Invocation invocation, InvocationLedger ledger, long startedAt, long finishedAt);
    }

    public BatchProcessor(TaskProcessor tasks, InvocationEnd end, int maxInFlight, long safetyMarginMs) {
        this.tasks = tasks;
        this.end = end;
        this.maxInFlight = maxInFlight;
        this.safetyMarginMs = safetyMarginMs;
    }

    public SQSBatchResponse process(List<SQSMessage> messages, Invocation invocation, RemainingTime remaining, TaskMetrics metrics) {
        List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
        if (messages == null || messages.isEmpty()) {
            return new SQSBatchResponse(failures);
        }
        long startedAt = System.currentTimeMillis();
        InvocationLedger ledger = new InvocationLedger();
        Semaphore slots = new Semaphore(maxInFlight);
        // The invocation's log context (request id, cold start, ...) follows each message onto its thread.
        Map<String, String> logContext = MDC.getCopyOfContextMap();
        List<Future<Boolean>> outcomes = new ArrayList<>(messages.size());
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (SQSMessage message : messages) {
                outcomes.add(threads.submit(() -> {
                    if (logContext != null) MDC.setContextMap(logContext);
                    slots.acquire();
                    try {
                        if (remaining.millis() < safetyMarginMs) {
                            LOG.warn("not started: too little time left in this invocation; it will be delivered again",
                                    "messageId", message.getMessageId(), "remainingMs", remaining.millis());
                            return false;
                        }
                        return tasks.process(message, invocation, metrics, ledger);
                    } finally {
                        slots.release();
                    }
                }));
            }
            List<Boolean> succeeded = new ArrayList<>();
            for (int i = 0; i < messages.size(); i++) {
                succeeded.add(succeeded(outcomes.get(i), messages.get(i)));
            }
            Set<String> retry = finish(invocation, ledger, startedAt);
            for (int i = 0; i < messages.size(); i++) {
                if (!succeeded.get(i) || retry.contains(messages.get(i).getMessageId())) {
                    failures.add(new SQSBatchResponse.BatchItemFailure(messages.get(i).getMessageId()));
                }
            }
        }
        return new SQSBatchResponse(failures);
    }

    /** Never lets a failure here lose a message: whatever could not be announced comes back. */
    private Set<String> finish(Invocation invocation, InvocationLedger ledger, long startedAt) {
        try {
            return end.finish(invocation, ledger, startedAt, System.currentTimeMillis());
        } catch (RuntimeException e) {
            LOG.error("could not end the invocation's books; the messages of the runs it completed will come back", e);
            Set<String> retry = new java.util.HashSet<>();
            ledger.completions().forEach(c -> retry.add(c.messageId()));
            return retry;
        }
    }

    private static boolean succeeded(Future<Boolean> outcome, SQSMessage message) {
        try {
            return outcome.get();
        } catch (ExecutionException e) {
            // A bug in one message's processing must not fail its neighbours: it comes back alone.
            LOG.error("message processing failed unexpectedly", e.getCause(), "messageId", message.getMessageId());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
