package batchpipe.local.runtime;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The server played against by a plain HTTP client standing in for the runtime interface client. */
class RuntimeApiServerTest {
    private static final String ARN = "arn:aws:lambda:us-east-1:000000000000:function:test:1";

    private final HttpClient http = HttpClient.newHttpClient();
    private RuntimeApiServer server;

    @AfterEach
    void stop() {
        if (server != null) server.close();
    }

    @Test
    void invoke_servesTheEventToNextAndRecordsTheResponseWithItsArrivalTime() throws Exception {
        server = new RuntimeApiServer(ARN);
        long before = System.nanoTime();
        CompletableFuture<RuntimeApiServer.Outcome> outcome = server.invoke("{\"Records\":[]}", Duration.ofSeconds(30));

        HttpResponse<String> next = get("invocation/next");
        String requestId = next.headers().firstValue("Lambda-Runtime-Aws-Request-Id").orElseThrow();
        HttpResponse<String> accepted = post("invocation/" + requestId + "/response", "{\"batchItemFailures\":[]}");

        assertThat(next.statusCode()).isEqualTo(200);
        assertThat(next.body()).isEqualTo("{\"Records\":[]}");
        assertThat(next.headers().firstValue("Lambda-Runtime-Invoked-Function-Arn")).hasValue(ARN);
        assertThat(Long.parseLong(next.headers().firstValue("Lambda-Runtime-Deadline-Ms").orElseThrow()))
                .isGreaterThan(System.currentTimeMillis());
        assertThat(accepted.statusCode()).isEqualTo(202);
        RuntimeApiServer.Outcome done = outcome.get(5, TimeUnit.SECONDS);
        assertThat(done.succeeded()).isTrue();
        assertThat(done.requestId()).isEqualTo(requestId);
        assertThat(done.response()).isEqualTo("{\"batchItemFailures\":[]}");
        assertThat(server.firstNextNanos().get(5, TimeUnit.SECONDS)).isBetween(before, done.arrivedNanos());
        assertThat(done.arrivedNanos()).isLessThanOrEqualTo(System.nanoTime());
        assertThat(server.calls()).containsExactly("GET invocation/next", "POST invocation/{id}/response");
    }

    @Test
    void invoke_recordsAnErrorTheRuntimeReportsWithItsType() throws Exception {
        server = new RuntimeApiServer(ARN);
        CompletableFuture<RuntimeApiServer.Outcome> outcome = server.invoke("{}", Duration.ofSeconds(30));

        String requestId = get("invocation/next").headers().firstValue("Lambda-Runtime-Aws-Request-Id").orElseThrow();
        post("invocation/" + requestId + "/error", "{\"errorMessage\":\"boom\"}", "Lambda-Runtime-Function-Error-Type", "Runtime.Boom");

        RuntimeApiServer.Outcome done = outcome.get(5, TimeUnit.SECONDS);
        assertThat(done.succeeded()).isFalse();
        assertThat(done.error()).contains("boom");
        assertThat(done.errorType()).isEqualTo("Runtime.Boom");
    }

    @Test
    void initError_completesWithWhatTheRuntimeReported() throws Exception {
        server = new RuntimeApiServer(ARN);

        post("init/error", "{\"errorMessage\":\"handler class not found\"}");

        assertThat(server.initError().get(5, TimeUnit.SECONDS)).startsWith("init/error: ").contains("handler class not found");
        assertThat(server.firstNextNanos()).isNotDone();
    }

    @Test
    void responseForAnUnknownRequestId_isRefused() throws Exception {
        server = new RuntimeApiServer(ARN);

        assertThat(post("invocation/no-such-id/response", "{}").statusCode()).isEqualTo(400);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) request.headers(headers);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://" + server.address() + "/2018-06-01/runtime/" + path);
    }
}
