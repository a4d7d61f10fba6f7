package batchpipe.local.esm;

import batchpipe.common.json.Json;
import batchpipe.local.chaos.Chaos;
import batchpipe.local.chaos.ChaosProfile;
import batchpipe.local.runtime.InvocationResult;
import batchpipe.local.template.FunctionDefinition;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

/**
 * Lambda's SQS event source mapping, emulated: long-polls a queue, gathers batches by BatchSize and
 * MaximumBatchingWindowInSeconds (and Lambda's 6 MB payload limit), invokes the function with an
 * SQSEvent, and deletes what the response allows ({@link BatchOutcome}). At most MaximumConcurrency
 * invocations run at once: one poller per concurrency slot. Failed messages are left alone: they come
 * back after the visibility timeout, and the queue's own redrive policy moves them to the dead-letter
 * queue after maxReceiveCount receives; no code here imitates that.
 */
public final class SqsEventSourceMapping implements AutoCloseable {
    /** Lambda's synchronous invocation payload limit. */
    static final int MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;

    /** Counters for the demo's overhead report. */
    public record Stats(long invocations, long messagesDelivered, long messagesDeleted, long messagesReturned, long wholeBatchFailures) {
    }

    private final SqsClient sqs;
    private final String queueUrl;
    private final String queueArn;
    private final String functionLogicalId;
    private final FunctionDefinition.SqsEventSource settings;
    private final BiFunction<String, byte[], InvocationResult> invoker;
    private final PrintStream log;
    private final int pollWaitSeconds;
    private final AtomicBoolean running = new AtomicBoolean();
    private final List<Thread> pollers = new ArrayList<>();
    /** Pollers handing a batch to the function right now: closing waits for these only. */
    private final Set<Thread> delivering = ConcurrentHashMap.newKeySet();
    private final AtomicLong invocations = new AtomicLong();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong deleted = new AtomicLong();
    private final AtomicLong returned = new AtomicLong();
    private final AtomicLong wholeBatchFailures = new AtomicLong();

    public SqsEventSourceMapping(SqsClient sqs, String queueUrl, String queueArn, String functionLogicalId,
                                 FunctionDefinition.SqsEventSource settings,
                                 BiFunction<String, byte[], InvocationResult> invoker, PrintStream log, int pollWaitSeconds) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.queueArn = queueArn;
        this.functionLogicalId = functionLogicalId;
        this.settings = settings;
        this.invoker = invoker;
        this.log = log;
        this.pollWaitSeconds = pollWaitSeconds;
    }

    public void start() {
        if (!running.compareAndSet(false, true)) return;
        for (int i = 0; i < settings.maximumConcurrency(); i++) {
            Thread poller = new Thread(this::pollLoop, "esm-" + functionLogicalId + "-" + i);
            poller.setDaemon(true);
            pollers.add(poller);
            poller.start();
        }
    }

    private void pollLoop() {
        while (running.get()) {
            try {
                List<Message> batch = gatherBatch();
                if (!batch.isEmpty()) {
                    // Registered before running is checked again, and close() clears running before it
                    // looks: either this batch is delivered and waited for, or it is left to come back
                    // to the queue when its visibility timeout ends. Never lost, never half-delivered.
                    delivering.add(Thread.currentThread());
                    try {
                        if (running.get()) deliver(batch);
                    } finally {
                        delivering.remove(Thread.currentThread());
                    }
                }
            } catch (RuntimeException e) {
                if (running.get()) {
                    log.println("esm " + functionLogicalId + ": polling failed, retrying: " + e.getMessage());
                    sleepQuietly(500);
                }
            }
        }
    }

    /** Receives until the batch is full, the window has passed, or the payload limit is near. */
    List<Message> gatherBatch() {
        List<Message> batch = new ArrayList<>();
        long payload = 0;
        long windowEnds = Long.MAX_VALUE;
        while (running.get() && batch.size() < settings.batchSize()) {
            long now = System.nanoTime();
            if (!batch.isEmpty() && now >= windowEnds) break;
            int want = Math.min(10, settings.batchSize() - batch.size());
            failIfInjected("sqs receive failed");
            int wait = batch.isEmpty() ? pollWaitSeconds
                    : (int) Math.max(0, Math.min(pollWaitSeconds, (windowEnds - now) / 1_000_000_000L));
            List<Message> received = sqs.receiveMessage(b -> b.queueUrl(queueUrl)
                    .maxNumberOfMessages(want)
                    .waitTimeSeconds(wait)
                    .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
                    .messageAttributeNames("All")).messages();
            for (Message m : received) {
                batch.add(m);
                payload += m.body().getBytes(StandardCharsets.UTF_8).length + 1024;
            }
            if (!batch.isEmpty() && windowEnds == Long.MAX_VALUE) {
                windowEnds = System.nanoTime() + settings.maximumBatchingWindowSeconds() * 1_000_000_000L;
            }
            if (settings.maximumBatchingWindowSeconds() == 0 && !batch.isEmpty()) break;
            if (payload >= MAX_PAYLOAD_BYTES - 256 * 1024) break;
        }
        return batch;
    }

    void deliver(List<Message> batch) {
        invocations.incrementAndGet();
        delivered.addAndGet(batch.size());
        byte[] event = sqsEvent(batch, queueArn).getBytes(StandardCharsets.UTF_8);
        Chaos chaos = Chaos.active();
        if (chaos != null && chaos.targets(functionLogicalId) && chaos.strike(ChaosProfile.DUPLICATE, "batch delivered twice")) {
            // SQS's at-least-once: the same messages reach a second instance at the same time.
            Thread.ofVirtual().start(() -> invoker.apply(functionLogicalId, event));
        }
        InvocationResult result = invoker.apply(functionLogicalId, event);
        List<String> ids = batch.stream().map(Message::messageId).toList();
        BatchOutcome outcome = BatchOutcome.of(ids, result.error(), result.response(), settings.reportBatchItemFailures());
        if (outcome.wholeBatchFailed() != null) {
            wholeBatchFailures.incrementAndGet();
            log.println("esm " + functionLogicalId + ": whole batch of " + batch.size() + " failed: " + outcome.wholeBatchFailed()
                    + "; the messages return after the visibility timeout");
        }
        returned.addAndGet(outcome.toRetry().size());
        List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
        for (Message m : batch) {
            if (outcome.toDelete().contains(m.messageId())) {
                entries.add(DeleteMessageBatchRequestEntry.builder().id(Integer.toString(entries.size()))
                        .receiptHandle(m.receiptHandle()).build());
            }
        }
        for (int from = 0; from < entries.size(); from += 10) {
            List<DeleteMessageBatchRequestEntry> group = entries.subList(from, Math.min(entries.size(), from + 10));
            if (chaos != null && chaos.targets(functionLogicalId) && chaos.strike(ChaosProfile.SQS_FAIL, "sqs delete failed")) {
                log.println("esm " + functionLogicalId + ": DeleteMessageBatch failed (injected); " + group.size()
                        + " messages will be delivered again");
                continue;
            }
            var response = sqs.deleteMessageBatch(b -> b.queueUrl(queueUrl).entries(group));
            deleted.addAndGet(response.successful().size());
            if (!response.failed().isEmpty()) {
                log.println("esm " + functionLogicalId + ": " + response.failed().size() + " deletes failed; those messages will be delivered again");
            }
        }
    }

    private void failIfInjected(String what) {
        Chaos chaos = Chaos.active();
        if (chaos != null && chaos.targets(functionLogicalId) && chaos.strike(ChaosProfile.SQS_FAIL, what)) {
            throw SdkClientException.create("ReceiveMessage failed: connection reset (injected)");
        }
    }

    /** The SQSEvent JSON exactly as Lambda shapes it, for messages received from the queue {@code queueArn}. */
    public static String sqsEvent(List<Message> batch, String queueArn) {
        List<Map<String, Object>> records = new ArrayList<>();
        for (Message m : batch) {
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("messageId", m.messageId());
            record.put("receiptHandle", m.receiptHandle());
            record.put("body", m.body());
            Map<String, Object> attributes = new LinkedHashMap<>();
            m.attributesAsStrings().forEach(attributes::put);
            record.put("attributes", attributes);
            Map<String, Object> messageAttributes = new LinkedHashMap<>();
            m.messageAttributes().forEach((name, value) -> {
                Map<String, Object> attribute = new LinkedHashMap<>();
                attribute.put("stringValue", value.stringValue());
                attribute.put("dataType", value.dataType());
                messageAttributes.put(name, attribute);
            });
            record.put("messageAttributes", messageAttributes);
            record.put("md5OfBody", m.md5OfBody());
            record.put("eventSource", "aws:sqs");
            record.put("eventSourceARN", queueArn);
            record.put("awsRegion", queueArn.split(":")[3]);
            records.add(record);
        }
        return Json.write(Map.of("Records", records));
    }

    public Stats stats() {
        return new Stats(invocations.get(), delivered.get(), deleted.get(), returned.get(), wholeBatchFailures.get());
    }

    @Override
    /**
     * Stops polling. Waits for batches being delivered; a poller parked in a receive is not waited for
     * (it ends by itself within the poll wait, and what it receives goes back to the queue).
     */
    public void close() {
        running.set(false);
        for (Thread poller : pollers) {
            if (!delivering.contains(poller)) continue;
            try {
                poller.join(Math.max(2_000, pollWaitSeconds * 2_000L));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * After {@link #close()}: waits until every poller has ended (a poller parked in a receive ends
     * within the poll wait). From then on this mapping receives nothing, so a message sent afterwards
     * cannot be taken and left invisible by it: the sweep starts its next configuration's mapping on
     * the same queue only after this.
     */
    public void awaitStopped(java.time.Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        for (Thread poller : pollers) {
            long left = deadline - System.nanoTime();
            if (left <= 0) return;
            poller.join(Math.max(1, left / 1_000_000));
        }
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
