package batchpipe.local.run;

import batchpipe.common.aws.AwsClients;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.StandardRetryStrategy;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.LambdaClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The AWS clients of a command that works on a deployed stack ({@code run --stack}, {@code sweep --stack}):
 * all in the region and with the credentials of one {@link AwsTarget}, each built on first use, once, and
 * all closed together. A test hands the commands its own.
 */
public final class StackClients implements AutoCloseable {
    /** Makes the clients of one command. */
    @FunctionalInterface
    public interface Factory {
        StackClients connect(AwsTarget target);
    }

    /**
     * Read timeout of the sweep's Lambda client: a synchronous Invoke answers when the function returns,
     * which may be after Lambda's longest run of 15 minutes, plus a minute for the answer to arrive.
     */
    static final Duration INVOKE_READ_TIMEOUT = Duration.ofMinutes(16);

    private final AwsTarget target;
    private final Supplier<String> account;
    private final Once<CloudFormationClient> cloudFormation;
    private final Once<LambdaClient> lambda;
    private final Once<S3Client> s3;
    private final Once<SqsClient> sqs;
    private final Once<DynamoDbClient> dynamoDb;

    private StackClients(AwsTarget target, Supplier<String> account, Supplier<CloudFormationClient> cloudFormation,
                         Supplier<LambdaClient> lambda, Supplier<S3Client> s3, Supplier<SqsClient> sqs, Supplier<DynamoDbClient> dynamoDb) {
        this.target = target;
        this.account = account;
        this.cloudFormation = new Once<>(cloudFormation);
        this.lambda = new Once<>(lambda);
        this.s3 = new Once<>(s3);
        this.sqs = new Once<>(sqs);
        this.dynamoDb = new Once<>(dynamoDb);
    }

    /**
     * The clients of {@code target}'s region and credentials. The credentials are resolved now, once: when
     * there are none, the error says where they were looked for rather than the SDK's list of every provider.
     */
    public static StackClients connect(AwsTarget target) {
        Region region = target.region();
        AwsCredentialsProvider credentials = checked(target.credentials(), target);
        return new StackClients(target, () -> {
            try (SdkHttpClient http = UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(5))
                    .socketTimeout(Duration.ofSeconds(10)).build()) {
                return CallerAccount.lookUp(http, CallerAccount.endpoint(region, System.getenv()), region, credentials);
            }
        }, () -> AwsClients.configure(CloudFormationClient.builder(), region, credentials).build(),
                () -> invokingLambda(INVOKE_READ_TIMEOUT).region(region).credentialsProvider(credentials).build(),
                () -> AwsClients.s3(region, credentials), () -> AwsClients.sqs(region, credentials), () -> AwsClients.dynamoDb(region, credentials));
    }

    /** Clients made elsewhere (a test's) for {@code target}, in {@code account}; closing these closes them. */
    public static StackClients of(AwsTarget target, String account, CloudFormationClient cloudFormation, LambdaClient lambda, S3Client s3,
                                  SqsClient sqs, DynamoDbClient dynamoDb) {
        return new StackClients(target, () -> account, () -> cloudFormation, () -> lambda, () -> s3, () -> sqs, () -> dynamoDb);
    }

    /** {@code credentials}, once they have given credentials; a clear error naming the target when they cannot. */
    static AwsCredentialsProvider checked(AwsCredentialsProvider credentials, AwsTarget target) {
        try {
            credentials.resolveCredentials();
            return credentials;
        } catch (SdkClientException none) {
            // With no profile to blame, the SDK's message lists every provider of its chain, some 1,500 characters (BATCHPIPE_DEBUG
            // shows it); a short one (a profile without keys, an SSO session expired) says what is wrong and is kept.
            String sdkMessage = String.valueOf(none.getMessage());
            String reason = sdkMessage.length() <= 200 ? sdkMessage
                    : "none in the environment (AWS_ACCESS_KEY_ID), the profile's files, the container or the instance's role.";
            throw new IllegalStateException("no AWS credentials for " + target.describe() + ": " + reason + " Set them up with `aws configure`"
                    + " (or `aws sso login`), pass --profile NAME, or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY", none);
        }
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

    public AwsTarget target() {
        return target;
    }

    /**
     * Where the commands look, for messages: "region eu-west-1 (from AWS_DEFAULT_REGION), profile default,
     * account 123456789012"; the account is asked of STS only here, and when it cannot be told, why not.
     */
    public String where() {
        String accountText;
        try {
            accountText = "account " + account.get();
        } catch (RuntimeException unknown) {
            accountText = "account unknown (" + unknown.getMessage() + ")";
        }
        return target.describe() + ", " + accountText;
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
