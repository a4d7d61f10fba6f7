package batchpipe.local.runtime;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The Lambda Runtime API (2018-06-01) as far as one function process needs it, served by the JDK's
 * HTTP server: the runtime long-polls {@code invocation/next}, answers on
 * {@code invocation/{id}/response} or {@code /error}, reports {@code init/error}, and with SnapStart
 * calls {@code restore/next} after its before-checkpoint hooks (answered at once: this "restore" is
 * the same process) and may report {@code restore/error}.
 *
 * <p>Used by the tests that run the built functions under aws-lambda-java-runtime-interface-client and
 * by {@code ./batchpipe bench}'s cold-start measurement, which reads the {@link System#nanoTime()} at
 * which the runtime first asked for an invocation (its init was done) and at which each answer arrived.
 */
public final class RuntimeApiServer implements AutoCloseable {
    private static final String PREFIX = "/2018-06-01/runtime/";

    /**
     * How an invocation ended: a response body, or an error the runtime reported.
     *
     * @param arrivedNanos {@link System#nanoTime()} when the runtime's answer had arrived in full
     */
    public record Outcome(String requestId, String response, String error, String errorType, long arrivedNanos) {
        public boolean succeeded() {
            return error == null;
        }
    }

    /** What Lambda sends when the function does not trace: a trace that is not recorded. */
    static final String UNSAMPLED_TRACE = "Root=1-00000000-000000000000000000000000;Sampled=0";

    private record Invocation(String requestId, String event, long deadlineMs, String traceHeader, CompletableFuture<Outcome> outcome) {
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final BlockingQueue<Invocation> pending = new LinkedBlockingQueue<>();
    private final Map<String, Invocation> inFlight = new ConcurrentHashMap<>();
    private final CompletableFuture<String> initError = new CompletableFuture<>();
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Long> firstNextNanos = new CompletableFuture<>();
    private final String functionArn;

    public RuntimeApiServer(String functionArn) throws IOException {
        this.functionArn = functionArn;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(PREFIX, this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** {@code host:port}, the value of AWS_LAMBDA_RUNTIME_API. */
    public String address() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every call the runtime made, as {@code METHOD path-after-runtime/}, ids replaced by {id}. */
    public List<String> calls() {
        return List.copyOf(calls);
    }

    /** Completes when the runtime reports an init (or restore) error. */
    public CompletableFuture<String> initError() {
        return initError;
    }

    /**
     * Completes with the {@link System#nanoTime()} of the runtime's first {@code invocation/next}: the
     * moment its init (the handler's construction included) was done.
     */
    public CompletableFuture<Long> firstNextNanos() {
        return firstNextNanos;
    }

    /** Queues an event for the runtime's next {@code invocation/next}; completes when it answers. */
    public CompletableFuture<Outcome> invoke(String event, Duration timeout) {
        return invoke(event, timeout, UNSAMPLED_TRACE);
    }

    /** {@link #invoke(String, Duration)} with the X-Ray trace header Lambda would pass (Lambda-Runtime-Trace-Id). */
    public CompletableFuture<Outcome> invoke(String event, Duration timeout, String traceHeader) {
        return invoke(UUID.randomUUID().toString(), event, timeout, traceHeader);
    }

    /**
     * {@link #invoke(String, Duration, String)} under the caller's request id: the one the function sees as its
     * awsRequestId (and writes on its task records), so that the caller's REPORT line for it names the same id.
     */
    public CompletableFuture<Outcome> invoke(String requestId, String event, Duration timeout, String traceHeader) {
        Invocation invocation = new Invocation(requestId, event, System.currentTimeMillis() + timeout.toMillis(), traceHeader,
                new CompletableFuture<>());
        pending.add(invocation);
        return invocation.outcome();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            long arrived = System.nanoTime();
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getPath().substring(PREFIX.length());
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            long read = System.nanoTime();
            String[] parts = path.split("/");
            calls.add(method + " " + (parts.length == 3 && parts[0].equals("invocation") ? "invocation/{id}/" + parts[2] : path));
            if (method.equals("GET") && path.equals("invocation/next")) {
                firstNextNanos.complete(arrived);
                next(exchange);
            } else if (method.equals("POST") && parts.length == 3 && parts[0].equals("invocation")) {
                Invocation invocation = inFlight.remove(parts[1]);
                if (invocation == null) {
                    reply(exchange, 400, "{\"errorMessage\":\"unknown request id " + parts[1] + "\"}");
                    return;
                }
                String text = new String(body, StandardCharsets.UTF_8);
                invocation.outcome().complete(parts[2].equals("response")
                        ? new Outcome(invocation.requestId(), text, null, null, read)
                        : new Outcome(invocation.requestId(), null, text, exchange.getRequestHeaders().getFirst("Lambda-Runtime-Function-Error-Type"), read));
                reply(exchange, 202, "{\"status\":\"OK\"}");
            } else if (method.equals("POST") && (path.equals("init/error") || path.equals("restore/error"))) {
                initError.complete(path + ": " + new String(body, StandardCharsets.UTF_8));
                reply(exchange, 202, "{\"status\":\"OK\"}");
            } else if (method.equals("GET") && path.equals("restore/next")) {
                reply(exchange, 200, "");
            } else {
                reply(exchange, 404, "{\"errorMessage\":\"not part of the Runtime API: " + method + " " + path + "\"}");
            }
        }
    }

    private void next(HttpExchange exchange) throws IOException {
        Invocation invocation;
        try {
            invocation = pending.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reply(exchange, 500, "{\"errorMessage\":\"server stopping\"}");
            return;
        }
        inFlight.put(invocation.requestId(), invocation);
        var headers = exchange.getResponseHeaders();
        headers.set("Lambda-Runtime-Aws-Request-Id", invocation.requestId());
        headers.set("Lambda-Runtime-Deadline-Ms", Long.toString(invocation.deadlineMs()));
        headers.set("Lambda-Runtime-Invoked-Function-Arn", functionArn);
        headers.set("Lambda-Runtime-Trace-Id", invocation.traceHeader());
        reply(exchange, 200, invocation.event());
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
