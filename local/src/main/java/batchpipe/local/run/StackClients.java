package batchpipe.local.run;

import batchpipe.common.aws.AwsClients;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.LambdaClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.retries.StandardRetryStrategy;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The AWS clients of a command that works on a deployed stack ({@code run --stack}, {@code sweep --stack}):
 * each built on first use, once, and all closed together. A test hands the commands its own.
 */
public final class StackClients implements AutoCloseable {
    /** Makes the clients of one command. */
    @FunctionalInterface
    public interface Factory {
        StackClients connect();
    }

    /**
     * Read timeout of the sweep's Lambda client: a synchronous Invoke answers when the function returns,
     * which may be after Lambda's longest run of 15 minutes, plus a minute for the answer to arrive.
     */
    static final Duration INVOKE_READ_TIMEOUT = Duration.ofMinutes(16);

    private final Once<CloudFormationClient> cloudFormation;
    private final Once<LambdaClient> lambda;
    private final Once<S3Client> s3;
    private final Once<SqsClient> sqs;
    private final Once<DynamoDbClient> dynamoDb;

    private StackClients(Supplier<CloudFormationClient> cloudFormation, Supplier<LambdaClient> lambda, Supplier<S3Client> s3,
                         Supplier<SqsClient> sqs, Supplier<DynamoDbClient> dynamoDb) {
        this.cloudFormation = new Once<>(cloudFormation);
        this.lambda = new Once<>(lambda);
        this.s3 = new Once<>(s3);
        this.sqs = new Once<>(sqs);
        this.dynamoDb = new Once<>(dynamoDb);
    }

    /** The clients of the default region and credentials. */
    public static StackClients connect() {
        return new StackClients(() -> CloudFormationClient.builder().httpClient(UrlConnectionHttpClient.create()).build(),
                () -> invokingLambda(INVOKE_READ_TIMEOUT).build(), AwsClients::s3, AwsClients::sqs, AwsClients::dynamoDb);
    }

    /** Clients made elsewhere (a test's); closing these closes them. */
    public static StackClients of(CloudFormationClient cloudFormation, LambdaClient lambda, S3Client s3, SqsClient sqs, DynamoDbClient dynamoDb) {
        return new StackClients(() -> cloudFormation, () -> lambda, () -> s3, () -> sqs, () -> dynamoDb);
    }

    /**
     * The sweep's Lambda client, before its region and credentials: synchronous invocations of the worker,
     * each waited for up to {@code readTimeout}, and retried only when Lambda cannot have run the function
     * ({@link #refusedBeforeRunning}). The call's own timeouts lie beyond the read timeout, so that what
     * ends a too-long invocation is a read timeout, which is never retried.
     */
    static LambdaClientBuilder invokingLambda(Duration readTimeout) {
        return LambdaClient.builder()
                .httpClient(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(10)).socketTimeout(readTimeout).build())
                .overrideConfiguration(o -> o.apiCallAttemptTimeout(readTimeout.plusMinutes(1))
                        // room for the throttled attempts before the one that runs
                        .apiCallTimeout(readTimeout.plusMinutes(3))
                        .retryStrategy(invokeRetries()));
    }

    /**
     * Three attempts at most, and a second one only after an answer that says the function did not run:
     * without the SDK's own conditions, which retry any I/O error, a read timeout included.
     */
    static RetryStrategy invokeRetries() {
        return StandardRetryStrategy.builder()
                .useClientDefaults(false)
                .maxAttempts(3)
                .retryOnException(StackClients::refusedBeforeRunning)
                .treatAsThrottling(StackClients::throttled)
                .backoffStrategy(BackoffStrategy.exponentialDelay(Duration.ofMillis(100), Duration.ofSeconds(20)))
                .throttlingBackoffStrategy(BackoffStrategy.exponentialDelay(Duration.ofSeconds(1), Duration.ofSeconds(20)))
                .circuitBreakerEnabled(false)
                .build();
    }

    /**
     * Whether a failed call surely did not run the function: Lambda throttled it (429, before running
     * anything), or no connection was ever made. A read timeout, a reset connection or a 5xx may come
     * after the function ran: running its batch again would bill it again and count it twice.
     */
    static boolean refusedBeforeRunning(Throwable failure) {
        if (throttled(failure)) return true;
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException || cause instanceof UnknownHostException || cause instanceof NoRouteToHostException) return true;
        }
        return false;
    }

    private static boolean throttled(Throwable failure) {
        return failure instanceof SdkServiceException service && service.isThrottlingException();
    }

    public CloudFormationClient cloudFormation() {
        return cloudFormation.get();
    }

    public LambdaClient lambda() {
        return lambda.get();
    }

    public S3Client s3() {
        return s3.get();
    }

    public SqsClient sqs() {
        return sqs.get();
    }

    public DynamoDbClient dynamoDb() {
        return dynamoDb.get();
    }

    @Override
    public void close() {
        List<RuntimeException> failures = new ArrayList<>();
        for (Once<?> client : List.of(cloudFormation, lambda, s3, sqs, dynamoDb)) {
            try {
                client.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        if (!failures.isEmpty()) throw failures.get(0);
    }

    /** A client made on first use; closed only if it was made. */
    private static final class Once<T extends AutoCloseable> {
        private final Supplier<T> make;
        private T client;

        Once(Supplier<T> make) {
            this.make = make;
        }

        synchronized T get() {
            if (client == null) client = make.get();
            return client;
        }

        synchronized void close() {
            if (client == null) return;
            try {
                client.close();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("closing " + client + " failed: " + e.getMessage(), e);
            }
        }
    }
}
