package batchpipe.local.run;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The clients of the commands that work on a deployed stack, against a Lambda endpoint of the test's own on 127.0.0.1. */
class StackClientsTest {
    private final AtomicInteger requests = new AtomicInteger();
    private final ExecutorService handlers = Executors.newCachedThreadPool();
    private HttpServer lambdaEndpoint;

    @AfterEach
    void stop() {
        if (lambdaEndpoint != null) lambdaEndpoint.stop(0);
        handlers.shutdownNow();
    }

    /** An endpoint that answers each Invoke with {@code answer}, counting the requests. */
    private URI endpoint(Answer answer) throws IOException {
        lambdaEndpoint = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        lambdaEndpoint.setExecutor(handlers);
        lambdaEndpoint.createContext("/", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                answer.answer(requests.incrementAndGet(), exchange);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        lambdaEndpoint.start();
        return URI.create("http://127.0.0.1:" + lambdaEndpoint.getAddress().getPort());
    }

    @FunctionalInterface
    private interface Answer {
        void answer(int request, HttpExchange exchange) throws IOException, InterruptedException;
    }

    private static void respond(HttpExchange exchange, int status, String errorType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        if (errorType != null) exchange.getResponseHeaders().add("X-Amzn-ErrorType", errorType);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private static LambdaClient invokingLambda(URI endpoint, Duration readTimeout) {
        return StackClients.invokingLambda(readTimeout).endpointOverride(endpoint).region(Region.EU_WEST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret"))).build();
    }

    @Test
    void anInvokeLongerThanTheReadTimeout_isSentOnce_neverRetried() throws Exception {
        // The function is still running when the client stops reading: sending it again would run (and bill) it again.
        URI endpoint = endpoint((request, exchange) -> {
            Thread.sleep(3_000);
            respond(exchange, 200, null, "{\"batchItemFailures\":[]}");
        });

        try (LambdaClient lambda = invokingLambda(endpoint, Duration.ofMillis(300))) {
            assertThatThrownBy(() -> lambda.invoke(b -> b.functionName("worker").qualifier("sweep-1").payload(SdkBytes.fromUtf8String("{}"))))
                    .isInstanceOf(SdkClientException.class);
        }

        assertThat(requests.get()).isEqualTo(1);
    }

    @Test
    void aThrottledInvoke_isRetried() throws Exception {
        // A 429 comes before the function runs: trying again costs nothing.
        URI endpoint = endpoint((request, exchange) -> {
            if (request == 1) respond(exchange, 429, "TooManyRequestsException", "{\"message\":\"Rate exceeded\",\"Reason\":\"ReservedFunctionConcurrentInvocationLimitExceeded\"}");
            else respond(exchange, 200, null, "{\"batchItemFailures\":[]}");
        });

        InvokeResponse response;
        try (LambdaClient lambda = invokingLambda(endpoint, Duration.ofSeconds(5))) {
            response = lambda.invoke(b -> b.functionName("worker").qualifier("sweep-1").payload(SdkBytes.fromUtf8String("{}")));
        }

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(requests.get()).isEqualTo(2);
    }

    @Test
    void theSweepsLambdaClient_waitsLongerThanTheLongestInvocation() {
        // A synchronous Invoke may run 15 minutes; the client must outwait it, by reading and by the call's own timeouts.
        Duration longest = Duration.ofMinutes(15);
        assertThat(StackClients.INVOKE_READ_TIMEOUT).isGreaterThan(longest);
        try (LambdaClient lambda = invokingLambda(URI.create("http://127.0.0.1:9"), StackClients.INVOKE_READ_TIMEOUT)) {
            var configuration = lambda.serviceClientConfiguration().overrideConfiguration();
            assertThat(configuration.apiCallTimeout()).hasValueSatisfying(t -> assertThat(t).isGreaterThan(StackClients.INVOKE_READ_TIMEOUT));
            assertThat(configuration.apiCallAttemptTimeout()).hasValueSatisfying(t -> assertThat(t).isGreaterThan(longest));
        }
    }

    @Test
    void noCredentials_isOneSentenceSayingWhereTheyWereLookedFor_notTheSdksListOfEveryProvider() {
        AwsTarget target = new AwsTarget(Region.EU_WEST_1, "AWS_DEFAULT_REGION", "default", null);
        String sdksMessage = "Unable to load credentials from any of the providers in the chain AwsCredentialsProviderChain(credentialsProviders=["
                + "SystemPropertyCredentialsProvider(), EnvironmentVariableCredentialsProvider(), ...]) : [SystemPropertyCredentialsProvider(): "
                + "Unable to load credentials from system settings. Access key must be specified either via environment variable "
                + "(AWS_ACCESS_KEY_ID) or system property (aws.accessKeyId)., " + "x".repeat(1_200) + "]";

        assertThatThrownBy(() -> StackClients.checked(() -> {
            throw SdkClientException.create(sdksMessage);
        }, target)).hasMessageStartingWith("no AWS credentials for region eu-west-1 (from AWS_DEFAULT_REGION), profile default: ")
                .hasMessageContaining("aws configure").hasMessageContaining("--profile")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(400));
    }
}
