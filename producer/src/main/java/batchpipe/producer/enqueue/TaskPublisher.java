package batchpipe.producer.enqueue;

import batchpipe.common.log.StructuredLog;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * Sends task messages with SendMessageBatch: groups of at most 10 entries and 256 KiB, several calls in
 * flight at once, and on a partial failure re-sends only the failed entries, with exponential backoff
 * and full jitter. An entry that succeeded is never sent again; entry ids are the task ids, which are
 * deterministic, so even a re-send after an ambiguous failure cannot make two different tasks.
 */
public final class TaskPublisher {
    public static final int MAX_ENTRIES = 10;
    public static final int MAX_BATCH_BYTES = 256 * 1024;
    private static final StructuredLog LOG = StructuredLog.of(TaskPublisher.class);

    /** A message to send: its id (the task id) and body. */
    public record Message(String id, String body) {
        int bytes() {
            return body.getBytes(StandardCharsets.UTF_8).length;
        }
    }

    private final SqsClient sqs;
    private final String queueUrl;
    private final int callsInFlight;
    private final int maxAttempts;
    private final long backoffBaseMs;

    public TaskPublisher(SqsClient sqs, String queueUrl, int callsInFlight, int maxAttempts, long backoffBaseMs) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.callsInFlight = callsInFlight;
        this.maxAttempts = maxAttempts;
        this.backoffBaseMs = backoffBaseMs;
    }

    /** Cuts messages into groups that respect both SendMessageBatch limits, in order. */
    public static List<List<Message>> groups(List<Message> messages) {
        List<List<Message>> groups = new ArrayList<>();
        List<Message> current = new ArrayList<>();
        int bytes = 0;
        for (Message m : messages) {
            if (m.bytes() > MAX_BATCH_BYTES) {
                throw new IllegalArgumentException("task " + m.id() + " is " + m.bytes() + " bytes, over SQS's limit of " + MAX_BATCH_BYTES);
            }
            if (current.size() == MAX_ENTRIES || bytes + m.bytes() > MAX_BATCH_BYTES) {
                groups.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(m);
            bytes += m.bytes();
        }
        if (!current.isEmpty()) groups.add(current);
        return groups;
    }

    /** Sends every message; returns how many were accepted. Throws when some could not be sent after retries. */
    public long publish(List<Message> messages, LongConsumer progress) {
        AtomicLong sent = new AtomicLong();
        List<Future<?>> calls = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(Math.max(1, callsInFlight))) {
            for (List<Message> group : groups(messages)) {
                calls.add(threads.submit(() -> {
                    sendGroup(group, accepted -> progress.accept(sent.addAndGet(accepted)));
                    return null;
                }));
            }
            List<String> errors = new ArrayList<>();
            for (Future<?> call : calls) {
                try {
                    call.get();
                } catch (ExecutionException e) {
                    errors.add(e.getCause().getMessage());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while sending tasks", e);
                }
            }
            if (!errors.isEmpty()) {
                throw new IllegalStateException(errors.size() + " SendMessageBatch groups failed after " + maxAttempts
                        + " attempts; " + sent.get() + " of " + messages.size() + " tasks were sent. First error: " + errors.get(0));
            }
        }
        return sent.get();
    }

    /** Sends one group; {@code accepted} hears of every entry SQS took, as soon as it took it. */
    private void sendGroup(List<Message> group, LongConsumer accepted) throws InterruptedException {
        Map<String, Message> pending = new HashMap<>();
        group.forEach(m -> pending.put(m.id(), m));
        String lastError = null;
        for (int attempt = 0; attempt < maxAttempts; attempt++) {
            if (attempt > 0) {
                Thread.sleep(ThreadLocalRandom.current().nextLong(Math.min(5_000, backoffBaseMs << attempt) + 1));
            }
            List<SendMessageBatchRequestEntry> entries = pending.values().stream()
                    .map(m -> SendMessageBatchRequestEntry.builder().id(m.id()).messageBody(m.body()).build())
                    .toList();
            SendMessageBatchResponse response;
            try {
                response = sqs.sendMessageBatch(b -> b.queueUrl(queueUrl).entries(entries));
            } catch (RuntimeException e) {
                // The whole call failed (throttled, network): nothing of it was accepted as far as we know.
                lastError = e.getMessage();
                continue;
            }
            response.successful().forEach(ok -> pending.remove(ok.id()));
            if (!response.successful().isEmpty()) accepted.accept(response.successful().size());
            if (pending.isEmpty()) return;
            for (BatchResultErrorEntry failed : response.failed()) {
                lastError = failed.code() + ": " + failed.message();
                if (Boolean.TRUE.equals(failed.senderFault())) {
                    throw new IllegalStateException("SQS refused task " + failed.id() + ": " + lastError);
                }
            }
            LOG.warn("some entries of a SendMessageBatch failed; retrying only those", "failed", pending.size(), "attempt", attempt + 1);
        }
        throw new IllegalStateException(pending.size() + " tasks not sent after " + maxAttempts + " attempts: " + lastError);
    }
}
