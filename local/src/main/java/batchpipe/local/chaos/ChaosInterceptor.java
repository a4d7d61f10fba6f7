package batchpipe.local.chaos;

import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Injects the SDK-level faults of {@link Chaos} into the functions' AWS calls: throttled and partly
 * unprocessed DynamoDB writes, S3 bodies that break mid-stream, and an instance that dies after some
 * of its writes. Registered for every SDK client of the CLI's JVM through the SDK's global interceptor
 * file; it does nothing unless chaos is active, and never touches the harness's own clients
 * (marked with {@link #HARNESS}) or calls made outside a function invocation.
 */
public final class ChaosInterceptor implements ExecutionInterceptor {
    /** Set on the local stack's own clients: the emulators' setup and the test's checks stay fault-free. */
    public static final ExecutionAttribute<Boolean> HARNESS = new ExecutionAttribute<>("batchpipe.chaos.harness");
    private static final ExecutionAttribute<List<WriteRequest>> HELD_BACK = new ExecutionAttribute<>("batchpipe.chaos.heldBack");
    private static final Set<String> DYNAMODB_WRITES = Set.of("PutItem", "UpdateItem", "BatchWriteItem", "DeleteItem");

    private static InvocationScope targetScope(ExecutionAttributes attributes) {
        if (Chaos.active() == null || Boolean.TRUE.equals(attributes.getAttribute(HARNESS))) return null;
        InvocationScope scope = InvocationScope.current();
        return scope != null && Chaos.active().targets(scope.functionLogicalId()) ? scope : null;
    }

    private static boolean isDynamoDbWrite(ExecutionAttributes attributes) {
        return "DynamoDb".equalsIgnoreCase(attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME))
                && DYNAMODB_WRITES.contains(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        InvocationScope scope = targetScope(attributes);
        if (scope == null) return;
        if (scope.dead()) {
            throw new InstanceCrash("the instance is dead (injected); this call never leaves it");
        }
    }

    /**
     * Per attempt, like the real thing: the SDK's retry policy sees a throttling error it knows and
     * retries it with backoff; only when every attempt is throttled does the caller see it.
     */
    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        InvocationScope scope = targetScope(attributes);
        if (scope == null) return;
        if (isDynamoDbWrite(attributes) && !"BatchWriteItem".equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))
                && Chaos.active().strike(ChaosProfile.THROTTLE, "DynamoDB write attempt throttled")) {
            throw ProvisionedThroughputExceededException.builder()
                    .message("Rate of requests exceeds the allowed throughput (injected)")
                    .statusCode(400)
                    .awsErrorDetails(AwsErrorDetails.builder().errorCode("ProvisionedThroughputExceededException")
                            .serviceName("DynamoDb").errorMessage("Rate of requests exceeds the allowed throughput (injected)").build())
                    .build();
        }
    }

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        InvocationScope scope = targetScope(attributes);
        if (scope == null || !(context.request() instanceof BatchWriteItemRequest batch)
                || !Chaos.active().strike(ChaosProfile.THROTTLE, "BatchWriteItem left UnprocessedItems")) {
            return context.request();
        }
        // Keep a random tail of each table's writes back and report it as unprocessed, as DynamoDB does
        // when a partition is hot: the caller must retry exactly those.
        Map<String, List<WriteRequest>> sent = new HashMap<>();
        List<WriteRequest> heldBack = new ArrayList<>();
        for (Map.Entry<String, List<WriteRequest>> e : batch.requestItems().entrySet()) {
            List<WriteRequest> writes = e.getValue();
            int keep = writes.size() <= 1 ? writes.size() : Chaos.active().upTo(writes.size() - 1);
            sent.put(e.getKey(), new ArrayList<>(writes.subList(0, keep)));
            heldBack.addAll(writes.subList(keep, writes.size()));
        }
        if (heldBack.isEmpty()) return context.request();
        attributes.putAttribute(HELD_BACK, heldBack);
        return batch.toBuilder().requestItems(sent).build();
    }

    @Override
    public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
        List<WriteRequest> heldBack = attributes.getAttribute(HELD_BACK);
        if (heldBack == null || !(context.response() instanceof BatchWriteItemResponse response)) return context.response();
        BatchWriteItemRequest original = (BatchWriteItemRequest) context.request();
        String table = original.requestItems().keySet().iterator().next();
        Map<String, List<WriteRequest>> unprocessed = new HashMap<>(response.unprocessedItems());
        List<WriteRequest> merged = new ArrayList<>(unprocessed.getOrDefault(table, List.of()));
        merged.addAll(heldBack);
        unprocessed.put(table, merged);
        return response.toBuilder().unprocessedItems(unprocessed).build();
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        InvocationScope scope = targetScope(attributes);
        if (scope == null || !isDynamoDbWrite(attributes)) return;
        if (scope.countWriteAndCheckCrash()) {
            // The write went through; the instance dies right after it.
            scope.kill("instance died after a DynamoDB write (injected " + (scope.aborts() ? "abort" : "crash") + ")");
            if (!scope.aborts()) {
                throw new InstanceCrash("instance crashed after a DynamoDB write (injected)");
            }
        }
    }

    @Override
    public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
        Optional<InputStream> body = context.responseBody();
        InvocationScope scope = targetScope(attributes);
        if (scope == null || body.isEmpty() || !"S3".equalsIgnoreCase(attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME))
                || !"GetObject".equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))
                || !Chaos.active().has(ChaosProfile.S3_BREAK) || !Chaos.active().strike(ChaosProfile.S3_BREAK, "S3 read armed to break")) {
            return body;
        }
        // Somewhere inside the body, so that the read really breaks before its end.
        long length = context.httpResponse().firstMatchingHeader("Content-Length").map(Long::parseLong).orElse(64L * 1024);
        long breakAt = Chaos.active().upTo((int) Math.max(1, Math.min(Integer.MAX_VALUE, length - 1)));
        return Optional.of(new BreakingStream(body.get(), breakAt));
    }

    /** A response body that fails after {@code breakAt} bytes, as a dropped connection does. */
    private static final class BreakingStream extends FilterInputStream {
        private long remaining;

        BreakingStream(InputStream in, long breakAt) {
            super(in);
            this.remaining = breakAt;
        }

        private void check() throws IOException {
            if (remaining <= 0) {
                Chaos chaos = Chaos.active();
                if (chaos != null) chaos.count("S3 read broke mid-stream");
                throw new IOException("Connection reset: the S3 read broke mid-stream (injected)");
            }
        }

        @Override
        public int read() throws IOException {
            check();
            int b = super.read();
            if (b >= 0) remaining--;
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            check();
            int n = super.read(buffer, offset, (int) Math.min(length, remaining));
            if (n > 0) remaining -= n;
            return n;
        }
    }
}
