package batchpipe.local.runtime;

import batchpipe.common.config.FunctionEnvironment;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Small handlers the runtime tests invoke. */
public final class TestHandlers {
    private TestHandlers() {
    }

    /** Fails the messages whose body is "fail": proves Records reach SQSEvent.records. */
    public static final class FailingBodies implements RequestHandler<SQSEvent, SQSBatchResponse> {
        @Override
        public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
            List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
            for (SQSEvent.SQSMessage m : event.getRecords()) {
                if (m.getBody().equals("fail")) failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
            }
            return new SQSBatchResponse(failures);
        }
    }

    /** Answers with the instance number, the variable GREETING seen at init and the context's facts. */
    public static final class Introspecting implements RequestStreamHandler {
        static final AtomicInteger INSTANCES = new AtomicInteger();
        private final int instance = INSTANCES.incrementAndGet();
        private final String greeting = FunctionEnvironment.current().get("GREETING");
        private final String memory = FunctionEnvironment.current().get("AWS_LAMBDA_FUNCTION_MEMORY_SIZE");

        @Override
        public void handleRequest(InputStream input, OutputStream output, Context context) throws java.io.IOException {
            String json = "{\"instance\":" + instance + ",\"greeting\":\"" + greeting + "\",\"memoryEnv\":\"" + memory
                    + "\",\"memory\":" + context.getMemoryLimitInMB() + ",\"remainingMs\":" + context.getRemainingTimeInMillis()
                    + ",\"function\":\"" + context.getFunctionName() + "\",\"event\":" + new String(input.readAllBytes(), StandardCharsets.UTF_8) + "}";
            output.write(json.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Sleeps longer than any test timeout. */
    public static final class Sleeping implements RequestStreamHandler {
        @Override
        public void handleRequest(InputStream input, OutputStream output, Context context) throws java.io.IOException {
            try {
                Thread.sleep(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Throws on every invocation. */
    public static final class Throwing implements RequestStreamHandler {
        @Override
        public void handleRequest(InputStream input, OutputStream output, Context context) {
            throw new IllegalStateException("handler failed on purpose");
        }
    }

    /** Fails during init. */
    public static final class FailingInit implements RequestStreamHandler {
        public FailingInit() {
            throw new IllegalStateException("TABLE_NAME is not set");
        }

        @Override
        public void handleRequest(InputStream input, OutputStream output, Context context) {
        }
    }
}
