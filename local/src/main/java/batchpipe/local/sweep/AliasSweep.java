package batchpipe.local.sweep;

import batchpipe.common.json.Json;
import batchpipe.common.text.ControlCharacters;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.GetFunctionConfigurationResponse;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.lambda.model.LastUpdateStatus;
import software.amazon.awssdk.services.lambda.model.PublishVersionResponse;
import software.amazon.awssdk.services.lambda.model.State;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * A sweep on AWS, the way AWS Lambda Power Tuning drives a function: for each configuration (each
 * repeat too) set the worker's memory and a description naming the configuration, publish a version,
 * point an alias of the sweep's own at it, wait until the version is active (a SnapStart version takes a
 * while), and deliver the planned tasks to that alias as SQS-shaped batches by direct invocation, a
 * bounded number at once. The event source mapping keeps serving the {@code live} alias from the tasks
 * queue untouched: these tasks never pass through it.
 *
 * <p>The description is what makes every version new: PublishVersion answers the last version when
 * nothing changed since it was published, so a configuration at the deployed memory would otherwise be
 * measured on the version {@code live} points at, which the clean-up then cannot delete. A version of
 * its own also gives each repeat its own cold starts.
 *
 * <p>A failed item (an error of the whole invocation, or an id in {@code batchItemFailures}) is sent
 * again in a later batch, at most {@code maxReceiveCount} times in all, each time with the
 * ApproximateReceiveCount SQS would have given it: on its last attempt the worker records the task as
 * failed, as it does for a message about to move to the dead-letter queue, so the run still completes.
 *
 * <p>Whatever happens (an error half way, Ctrl-C), {@link #restore()} puts each function's memory and
 * description back and waits until Lambda has applied them, deletes the aliases and the versions the
 * sweep published; {@link #run} always calls it.
 */
public final class AliasSweep {
    /**
     * One configuration: a function (the worker or its twin on the other architecture) at a memory size.
     * Each repeat of a memory size (keys {@code x86_64-885}, {@code x86_64-885#2}) is a configuration with
     * a version and an alias of its own.
     */
    public record Configuration(String key, String architecture, int memoryMb) {
    }

    /** Delivers task messages' bodies to the configuration's alias. */
    @FunctionalInterface
    public interface Deliverer {
        Delivery deliver(List<String> bodies) throws InterruptedException;
    }

    /** What the sweep does with one configuration once its alias is active: plan a run, deliver it, wait for it. */
    @FunctionalInterface
    public interface Step<R> {
        R run(Configuration configuration, Deliverer deliverer) throws InterruptedException;
    }

    /**
     * How a configuration's delivery went.
     *
     * @param failedBodies     the tasks still failing after the last attempt
     * @param unrecordedBodies those of them whose last attempt failed as a whole invocation (the function's
     *                         error, a timeout, a malformed answer): the worker recorded none of them, and
     *                         with no dead-letter queue behind a direct Invoke nothing else will, so their run
     *                         cannot complete
     * @param errors           what the whole invocations that failed answered, each once, in the order seen
     */
    public record Delivery(String key, String alias, String version, int invocations, int messages, int redelivered, List<String> failedBodies,
                           List<String> unrecordedBodies, List<String> errors) {
        public Delivery {
            failedBodies = List.copyOf(failedBodies);
            unrecordedBodies = List.copyOf(unrecordedBodies);
            errors = List.copyOf(errors);
        }
    }

    /** Longest error text kept from an answer: the error's type and message, not a stack trace. */
    private static final int ERROR_LENGTH = 300;

    /** Sleeps between polls; the tests' does not. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    private final LambdaClient lambda;
    private final String sweepId;
    private final Map<String, String> functionByArchitecture;
    private final String queueArn;
    private final int batchSize;
    private final int concurrency;
    private final int maxReceiveCount;
    private final Duration readyTimeout;
    private final Sleeper sleeper;
    private final PrintStream log;
    /** function → its memory and description before the sweep, put back by {@link #restore()}. */
    private final Map<String, Original> originals = new LinkedHashMap<>();
    /** function → its aliases and versions made by this sweep, removed by {@link #restore()}. */
    private final Map<String, List<String>> aliases = new LinkedHashMap<>();
    private final Map<String, List<String>> versions = new LinkedHashMap<>();
    private final Map<String, String> versionByAlias = new LinkedHashMap<>();

    /** What the sweep changes on a function and puts back. */
    private record Original(int memoryMb, String description) {
    }

    /**
     * @param functionByArchitecture the worker's function name by its architecture: the worker, and its
     *                               twin when the stack was deployed with CompareArchitectures=true
     * @param queueArn               the tasks queue's ARN, which the events name as their source
     * @param maxReceiveCount        the worker's MAX_RECEIVE_COUNT: attempts per item, the last one final
     */
    public AliasSweep(LambdaClient lambda, String sweepId, Map<String, String> functionByArchitecture, String queueArn, int batchSize,
                      int concurrency, int maxReceiveCount, Duration readyTimeout, Sleeper sleeper, PrintStream log) {
        if (batchSize < 1 || concurrency < 1 || maxReceiveCount < 1) {
            throw new IllegalArgumentException("batch size, concurrency and receive count must be at least 1");
        }
        this.lambda = lambda;
        this.sweepId = sweepId;
        this.functionByArchitecture = Map.copyOf(functionByArchitecture);
        this.queueArn = queueArn;
        this.batchSize = batchSize;
        this.concurrency = concurrency;
        this.maxReceiveCount = maxReceiveCount;
        this.readyTimeout = readyTimeout;
        this.sleeper = sleeper;
        this.log = log;
    }

    /** The worker function of an architecture; a missing twin names the template parameter that deploys it. */
    public String functionFor(String architecture) {
        String function = functionByArchitecture.get(architecture);
        if (function == null) {
            throw new IllegalArgumentException("the stack has no worker on " + architecture + " (it has " + functionByArchitecture.keySet()
                    + "): sweep --arch " + String.join(",", functionByArchitecture.keySet().stream().sorted().toList()) + ", or deploy it with"
                    + " --parameter-overrides CompareArchitectures=true for the worker's twin on the other architecture");
        }
        return function;
    }

    /**
     * Runs every configuration in order, then restores the functions. {@code tasksFor} plans a
     * configuration's run and answers its task messages' bodies.
     */
    public List<Delivery> run(List<Configuration> configurations, Function<Configuration, List<String>> tasksFor) throws InterruptedException {
        return run(configurations, (c, deliverer) -> deliverer.deliver(tasksFor.apply(c)));
    }

    /**
     * Runs {@code step} for every configuration in order, each once its own alias is active, then restores
     * the functions, also when a step throws.
     */
    public <R> List<R> run(List<Configuration> configurations, Step<R> step) throws InterruptedException {
        for (Configuration c : configurations) functionFor(c.architecture()); // a missing twin fails before anything changes
        try {
            List<R> results = new ArrayList<>();
            for (Configuration c : configurations) {
                String alias = prepare(c);
                results.add(step.run(c, bodies -> deliver(c, alias, bodies)));
            }
            return results;
        } finally {
            restore();
        }
    }

    /**
     * Sets the memory and the configuration's description, publishes a version (a new one: the description
     * is new), points a new alias at it and waits until it is active; answers the alias.
     */
    String prepare(Configuration c) throws InterruptedException {
        String function = functionFor(c.architecture());
        if (!originals.containsKey(function)) {
            GetFunctionConfigurationResponse deployed = lambda.getFunctionConfiguration(b -> b.functionName(function));
            originals.put(function, new Original(deployed.memorySize(), deployed.description() == null ? "" : deployed.description()));
        }
        String description = description(c);
        lambda.updateFunctionConfiguration(b -> b.functionName(function).memorySize(c.memoryMb()).description(description));
        awaitUpdated(function);
        PublishVersionResponse published = lambda.publishVersion(b -> b.functionName(function).description(description));
        String version = published.version();
        if (!description.equals(published.description())) {
            // Not ours: Lambda answered a version published before (nothing had changed). Never measure it, never delete it.
            throw new IllegalStateException("Lambda answered version " + version + " of " + function + ", published before the sweep ("
                    + "its description: '" + published.description() + "'): the sweep measures and deletes only versions of its own");
        }
        versions.computeIfAbsent(function, f -> new ArrayList<>()).add(version);
        String alias = aliasName(c);
        lambda.createAlias(b -> b.functionName(function).name(alias).functionVersion(version).description("batchpipe sweep " + sweepId));
        aliases.computeIfAbsent(function, f -> new ArrayList<>()).add(alias);
        versionByAlias.put(alias, version);
        awaitActive(function, version);
        log.println("batchpipe sweep: " + c.key() + ": " + function + " version " + version + " as alias " + alias + ", active");
        return alias;
    }

    /**
     * An alias name Lambda accepts ([a-zA-Z0-9-_]+, not only digits, at most 128) and unique in the sweep:
     * {@code sweep-<id>-x86_64-885}, {@code -r2} for a repeat as in its run id.
     */
    String aliasName(Configuration c) {
        String name = ("sweep-" + sweepId.replaceFirst("^sweep-", "") + "-" + c.key().replace("#", "-r")).replaceAll("[^a-zA-Z0-9_-]", "-");
        return name.length() <= 128 ? name : name.substring(name.length() - 128);
    }

    /** The description of the configuration's version, unique in the sweep, within Lambda's 256 characters. */
    String description(Configuration c) {
        String description = "batchpipe " + sweepId + " " + c.key();
        return description.length() <= 256 ? description : description.substring(description.length() - 256);
    }

    private void awaitUpdated(String function) throws InterruptedException {
        long deadline = System.nanoTime() + readyTimeout.toNanos();
        while (true) {
            GetFunctionConfigurationResponse config = lambda.getFunctionConfiguration(b -> b.functionName(function));
            if (config.lastUpdateStatus() == null || config.lastUpdateStatus() == LastUpdateStatus.SUCCESSFUL) return;
            if (config.lastUpdateStatus() == LastUpdateStatus.FAILED) {
                throw new IllegalStateException("updating " + function + " failed: " + config.lastUpdateStatusReason());
            }
            if (System.nanoTime() > deadline) throw new IllegalStateException(function + " was still updating after " + readyTimeout.toSeconds() + " s");
            sleeper.sleep(Duration.ofSeconds(2));
        }
    }

    private void awaitActive(String function, String version) throws InterruptedException {
        long deadline = System.nanoTime() + readyTimeout.toNanos();
        while (true) {
            GetFunctionConfigurationResponse config = lambda.getFunctionConfiguration(b -> b.functionName(function).qualifier(version));
            if (config.state() == null || config.state() == State.ACTIVE) return;
            if (config.state() == State.FAILED) {
                throw new IllegalStateException(function + " version " + version + " failed to become active: " + config.stateReason());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(function + " version " + version + " was not active after " + readyTimeout.toSeconds() + " s");
            }
            sleeper.sleep(Duration.ofSeconds(2));
        }
    }

    /**
     * Sends the bodies to the alias in SQS-shaped batches, {@code concurrency} invocations at once; the
     * items a batch reports as failed go round again with the next receive count. Each item's last failure
     * is kept: an item whose last attempt failed as a whole invocation was never recorded.
     */
    Delivery deliver(Configuration c, String alias, List<String> bodies) throws InterruptedException {
        String function = functionFor(c.architecture());
        List<Item> pending = new ArrayList<>();
        for (String body : bodies) pending.add(new Item(UUID.randomUUID().toString(), body, System.currentTimeMillis()));
        int invocations = 0, redelivered = 0;
        Map<String, String> lastInvocationError = new LinkedHashMap<>();
        Set<String> errors = new LinkedHashSet<>();
        ExecutorService pool = Executors.newFixedThreadPool(concurrency, r -> {
            Thread t = new Thread(r, "sweep-invoke");
            t.setDaemon(true);
            return t;
        });
        try {
            for (int attempt = 1; attempt <= maxReceiveCount && !pending.isEmpty(); attempt++) {
                if (attempt > 1) redelivered += pending.size();
                List<Future<Outcome>> outcomes = new ArrayList<>();
                List<List<Item>> batches = new ArrayList<>();
                for (int from = 0; from < pending.size(); from += batchSize) {
                    List<Item> batch = pending.subList(from, Math.min(pending.size(), from + batchSize));
                    batches.add(batch);
                    int receiveCount = attempt;
                    outcomes.add(pool.submit(() -> invoke(function, alias, batch, receiveCount)));
                }
                invocations += batches.size();
                List<Item> again = new ArrayList<>();
                for (int i = 0; i < batches.size(); i++) {
                    Outcome outcome;
                    try {
                        outcome = outcomes.get(i).get();
                    } catch (ExecutionException e) {
                        throw new IllegalStateException("invoking " + function + ":" + alias + " failed: " + e.getCause().getMessage(), e.getCause());
                    }
                    if (outcome.invocationError() != null) errors.add(outcome.invocationError());
                    for (Item item : batches.get(i)) {
                        if (!outcome.failedIds().contains(item.messageId())) continue;
                        again.add(item);
                        lastInvocationError.put(item.messageId(), outcome.invocationError());
                    }
                }
                pending = again;
            }
        } finally {
            pool.shutdownNow();
        }
        List<String> failed = new ArrayList<>(), unrecorded = new ArrayList<>();
        for (Item item : pending) {
            failed.add(item.body());
            if (lastInvocationError.get(item.messageId()) != null) unrecorded.add(item.body());
        }
        String line = "batchpipe sweep: " + c.key() + ": " + bodies.size() + " tasks in " + invocations + " invocations, " + redelivered
                + " redelivered, " + failed.size() + " still failing after " + maxReceiveCount + " attempts";
        if (!unrecorded.isEmpty()) line += " (" + unrecorded.size() + " never recorded: their last invocation failed as a whole)";
        if (!errors.isEmpty()) line += "; failed invocations answered: " + String.join("; ", errors);
        log.println(line);
        return new Delivery(c.key(), alias, versionByAlias.get(alias), invocations, bodies.size(), redelivered, failed, unrecorded,
                List.copyOf(errors));
    }

    private record Item(String messageId, String body, long sentAt) {
    }

    /**
     * How one invocation went: the message ids to deliver again, and when the whole invocation failed (all of
     * them go again), why, as the function or Lambda said it.
     */
    private record Outcome(Set<String> failedIds, String invocationError) {
    }

    /** One synchronous invocation. */
    private Outcome invoke(String function, String alias, List<Item> batch, int receiveCount) {
        InvokeResponse response = lambda.invoke(b -> b.functionName(function).qualifier(alias)
                .payload(SdkBytes.fromUtf8String(event(batch, receiveCount))));
        Set<String> all = new LinkedHashSet<>();
        batch.forEach(i -> all.add(i.messageId()));
        String payload = response.payload() == null ? "" : response.payload().asString(StandardCharsets.UTF_8);
        if (response.functionError() != null) return new Outcome(all, functionError(response.functionError(), payload));
        try {
            Object failures = Json.parseObject(payload).get("batchItemFailures");
            if (failures == null) return new Outcome(Set.of(), null);
            Set<String> ids = new LinkedHashSet<>();
            for (Object f : (List<?>) failures) ids.add(String.valueOf(((Map<?, ?>) f).get("itemIdentifier")));
            // As the event source mapping: an id not in the batch makes the whole batch fail.
            return all.containsAll(ids) ? new Outcome(ids, null) : new Outcome(all, "its answer named a message not in the batch: " + shortened(payload));
        } catch (RuntimeException malformed) {
            return new Outcome(all, "its answer is not a batch response: " + shortened(payload));
        }
    }

    /**
     * The function's error as its payload states it ({@code errorType: errorMessage}, as the runtime writes
     * it), else Lambda's X-Amz-Function-Error and the payload's start. It is the function's text: shortened,
     * and no control character passes.
     */
    static String functionError(String functionError, String payload) {
        try {
            Map<String, Object> error = Json.parseObject(payload);
            Object type = error.get("errorType"), message = error.get("errorMessage");
            if (type != null || message != null) {
                return shortened((type != null ? type + ": " : "") + (message != null ? message : ""));
            }
        } catch (RuntimeException notJson) {
            // the payload said it otherwise: shown as it came
        }
        return shortened(functionError + (payload.isBlank() ? "" : ": " + payload));
    }

    private static String shortened(String text) {
        String oneLine = ControlCharacters.escape(text.strip());
        return oneLine.length() <= ERROR_LENGTH ? oneLine : oneLine.substring(0, ERROR_LENGTH) + "...";
    }

    /** The SQSEvent Lambda's event source mapping would send, with the receive count of this attempt. */
    String event(List<Item> batch, int receiveCount) {
        List<Map<String, Object>> records = new ArrayList<>();
        String region = queueArn.split(":").length > 3 ? queueArn.split(":")[3] : "";
        for (Item item : batch) {
            Map<String, Object> attributes = new LinkedHashMap<>();
            attributes.put("ApproximateReceiveCount", Integer.toString(receiveCount));
            attributes.put("SentTimestamp", Long.toString(item.sentAt()));
            attributes.put("SenderId", "batchpipe-sweep");
            attributes.put("ApproximateFirstReceiveTimestamp", Long.toString(item.sentAt()));
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("messageId", item.messageId());
            record.put("receiptHandle", "sweep-" + item.messageId() + "-" + receiveCount);
            record.put("body", item.body());
            record.put("attributes", attributes);
            record.put("messageAttributes", Map.of());
            record.put("md5OfBody", "");
            record.put("eventSource", "aws:sqs");
            record.put("eventSourceARN", queueArn);
            record.put("awsRegion", region);
            records.add(record);
        }
        return Json.write(Map.of("Records", records));
    }

    /**
     * Deletes the sweep's aliases and versions, puts every function's memory and description back and waits
     * until Lambda has applied them (the function is not as deployed before that, and a deploy started
     * meanwhile would fail). Each step is tried even when another failed; safe to call again (from a
     * shutdown hook).
     */
    public synchronized void restore() {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : aliases.entrySet()) {
            for (String alias : e.getValue()) {
                try {
                    lambda.deleteAlias(b -> b.functionName(e.getKey()).name(alias));
                } catch (RuntimeException ex) {
                    problems.add("alias " + e.getKey() + ":" + alias + ": " + ex.getMessage());
                }
            }
        }
        aliases.clear();
        for (Map.Entry<String, List<String>> e : versions.entrySet()) {
            for (String version : e.getValue()) {
                try {
                    lambda.deleteFunction(b -> b.functionName(e.getKey()).qualifier(version));
                } catch (RuntimeException ex) {
                    problems.add("version " + e.getKey() + ":" + version + ": " + ex.getMessage());
                }
            }
        }
        versions.clear();
        for (Map.Entry<String, Original> e : originals.entrySet()) {
            String function = e.getKey();
            Original original = e.getValue();
            try {
                lambda.updateFunctionConfiguration(b -> b.functionName(function).memorySize(original.memoryMb()).description(original.description()));
                awaitUpdated(function);
            } catch (RuntimeException ex) {
                problems.add("memory of " + function + " (was " + original.memoryMb() + " MB) and its description: " + ex.getMessage());
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                problems.add("memory of " + function + " (was " + original.memoryMb() + " MB): interrupted while Lambda applied it; check it");
            }
        }
        originals.clear();
        versionByAlias.clear();
        if (!problems.isEmpty()) {
            log.println("batchpipe sweep: could not restore everything, do it by hand: " + String.join("; ", problems));
        }
    }

    /** What {@link #restore()} has left to do, for tests and messages. */
    synchronized List<String> outstanding() {
        List<String> left = new ArrayList<>();
        aliases.forEach((f, list) -> list.forEach(a -> left.add("alias " + f + ":" + a)));
        versions.forEach((f, list) -> list.forEach(v -> left.add("version " + f + ":" + v)));
        originals.forEach((f, o) -> left.add("memory " + f + "=" + o.memoryMb()));
        return Collections.unmodifiableList(left);
    }
}
