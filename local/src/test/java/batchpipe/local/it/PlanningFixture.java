package batchpipe.local.it;

import batchpipe.common.task.TaskCodec;
import batchpipe.common.task.TaskLimits;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.SharedEmulators;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import batchpipe.producer.RunPlanner;
import batchpipe.producer.enqueue.PlanningContinuations;
import batchpipe.producer.enqueue.TaskPublisher;
import batchpipe.producer.listing.ObjectLister;
import batchpipe.producer.run.CompletionNotice;
import batchpipe.producer.run.RunStore;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * What the planning ITs share: a local stack whose data bucket holds a prefix of small objects, the
 * producer's planner on it, and a DynamoDB client through which a chosen move of the planning cursor
 * fails, as an invocation that dies after sending a page and before moving its cursor past it would.
 */
final class PlanningFixture {
    private PlanningFixture() {
    }

    /** The key of object {@code i} under {@code prefix}. */
    static String key(String prefix, int i) {
        return String.format(Locale.ROOT, "%spart-%05d.jsonl", prefix, i);
    }

    /** A fresh local stack named {@code name}, used by this process, with {@code objects} one-line objects under {@code prefix}. */
    static LocalStack startWithObjects(String name, String prefix, int objects) throws Exception {
        LocalStack stack = SharedEmulators.stack(StackTemplate.load(ProjectHome.find().resolve("template.yaml"), Map.of()), name);
        stack.useForThisProcess();
        String bucket = stack.ref("DataBucket");
        List<Future<?>> puts = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(16)) {
            for (int i = 0; i < objects; i++) {
                String key = key(prefix, i);
                puts.add(threads.submit(() -> stack.s3().putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("{}\n"))));
            }
            for (Future<?> put : puts) put.get();
        }
        return stack;
    }

    /** The producer's planner on the stack's queues and table, reaching DynamoDB through {@code dynamoDb}. */
    static RunPlanner planner(LocalStack stack, DynamoDbClient dynamoDb, long marginMs) {
        RunStore runs = new RunStore(dynamoDb, stack.ref("RunsTable"));
        return new RunPlanner(new ObjectLister(stack.s3()), runs, new TaskPublisher(stack.sqs(), stack.ref("TasksQueue"), 8, 8, 50),
                new TaskCodec(TaskLimits.defaults()), new PlanningContinuations(stack.sqs(), stack.ref("PlanningQueue")),
                new CompletionNotice(runs, stack.sqs(), stack.ref("CompletionsQueue")), 5, marginMs, Clock.systemUTC());
    }

    /**
     * The stack's DynamoDB client, except that the planning cursor's n-th move past a page (1-based,
     * counted through this client) throws what {@code failure} gives for n, when it gives something.
     */
    static DynamoDbClient failingCursorMove(LocalStack stack, IntFunction<Throwable> failure) {
        DynamoDbClient real = stack.dynamoDb();
        AtomicInteger moves = new AtomicInteger();
        return (DynamoDbClient) Proxy.newProxyInstance(DynamoDbClient.class.getClassLoader(), new Class<?>[]{DynamoDbClient.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("updateItem") && args != null && args[0] instanceof Consumer<?> build) {
                        UpdateItemRequest.Builder builder = UpdateItemRequest.builder();
                        @SuppressWarnings("unchecked") Consumer<UpdateItemRequest.Builder> b = (Consumer<UpdateItemRequest.Builder>) build;
                        b.accept(builder);
                        UpdateItemRequest request = builder.build();
                        if (request.updateExpression().equals("SET #planning = :next")) {
                            Throwable fails = failure.apply(moves.incrementAndGet());
                            if (fails != null) throw fails;
                        }
                        return real.updateItem(request);
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
