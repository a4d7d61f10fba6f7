package batchpipe.common.aws;

import batchpipe.common.trace.Tracing;
import batchpipe.common.trace.TracingInterceptor;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.time.Duration;

/**
 * Builds the SDK clients every function uses, once, at init. Endpoints come only from the SDK's
 * standard settings ({@code AWS_ENDPOINT_URL}, {@code AWS_ENDPOINT_URL_SQS}, ... or the matching
 * {@code aws.endpointUrl*} system properties), so the same code runs on the local stack, on
 * LocalStack and on AWS. When S3 is pointed at a custom endpoint we use path-style addressing
 * (emulators do not serve bucket sub-domains) and send checksums only when an operation requires
 * them (S3Proxy rejects the newer default checksum headers).
 */
public final class AwsClients {
    private static final Duration API_CALL_TIMEOUT = Duration.ofSeconds(30);

    private AwsClients() {
    }

    public static SqsClient sqs() {
        return sqs(region(), null);
    }

    public static DynamoDbClient dynamoDb() {
        return dynamoDb(region(), null);
    }

    /** S3 reads are streamed; only the attempt to get the response headers is bounded. */
    public static S3Client s3() {
        return s3(region(), null);
    }

    /**
     * {@link #sqs()} in {@code region} with {@code credentials} (null: the SDK's default chain), for a caller
     * that resolved them itself (the CLI, from --region and --profile).
     */
    public static SqsClient sqs(Region region, AwsCredentialsProvider credentials) {
        return configure(SqsClient.builder(), region, credentials).build();
    }

    /** {@link #dynamoDb()} in {@code region} with {@code credentials} (null: the SDK's default chain). */
    public static DynamoDbClient dynamoDb(Region region, AwsCredentialsProvider credentials) {
        return configure(DynamoDbClient.builder(), region, credentials).build();
    }

    /** {@link #s3()} in {@code region} with {@code credentials} (null: the SDK's default chain). */
    public static S3Client s3(Region region, AwsCredentialsProvider credentials) {
        var builder = S3Client.builder()
                .httpClient(httpClient())
                .region(region)
                .overrideConfiguration(traced(ClientOverrideConfiguration.builder()
                        .apiCallAttemptTimeout(API_CALL_TIMEOUT))
                        .build());
        if (credentials != null) builder.credentialsProvider(credentials);
        if (hasEndpointOverride("AWS_ENDPOINT_URL_S3", "aws.endpointUrlS3")) {
            builder.forcePathStyle(true)
                    .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED);
        }
        return builder.build();
    }

    /**
     * The settings every client here shares (the url-connection HTTP client, the region, the call
     * timeout) applied to the builder of a client only one function needs, so that the others do not
     * ship its SDK module.
     */
    public static <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(B builder) {
        return configure(builder, region(), null);
    }

    /** {@link #configure(AwsClientBuilder)} in {@code region} with {@code credentials} (null: the SDK's default chain). */
    public static <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(B builder, Region region,
                                                                                           AwsCredentialsProvider credentials) {
        builder.httpClient(httpClient())
                .region(region)
                .overrideConfiguration(timeouts());
        return credentials == null ? builder : builder.credentialsProvider(credentials);
    }

    private static ClientOverrideConfiguration timeouts() {
        return traced(ClientOverrideConfiguration.builder().apiCallTimeout(API_CALL_TIMEOUT)).build();
    }

    /** With X-Ray on (Lambda names a daemon), a subsegment per call; elsewhere no interceptor at all. */
    private static ClientOverrideConfiguration.Builder traced(ClientOverrideConfiguration.Builder builder) {
        Tracing tracing = Tracing.current();
        return tracing.enabled() ? builder.addExecutionInterceptor(new TracingInterceptor(tracing)) : builder;
    }

    private static SdkHttpClient httpClient() {
        return UrlConnectionHttpClient.builder()
                .connectionTimeout(Duration.ofSeconds(5))
                .socketTimeout(Duration.ofSeconds(30))
                .build();
    }

    /**
     * The configured region; with no region configured but an endpoint override (a laptop with the
     * local stack and no AWS profile), us-east-1, which the emulators accept.
     */
    static Region region() {
        try {
            return new DefaultAwsRegionProviderChain().getRegion();
        } catch (RuntimeException noRegion) {
            if (hasAnyEndpointOverride()) {
                return Region.US_EAST_1;
            }
            throw noRegion;
        }
    }

    /** True when the service's endpoint is overridden: by its own variable or property, or by the global one. */
    public static boolean hasEndpointOverride(String serviceVariable, String serviceProperty) {
        return isSet(System.getenv(serviceVariable)) || isSet(System.getProperty(serviceProperty))
                || isSet(System.getenv("AWS_ENDPOINT_URL"))
                || isSet(System.getProperty("aws.endpointUrl"));
    }

    private static boolean hasAnyEndpointOverride() {
        return hasEndpointOverride("AWS_ENDPOINT_URL_S3", "aws.endpointUrlS3")
                || hasEndpointOverride("AWS_ENDPOINT_URL_SQS", "aws.endpointUrlSqs")
                || hasEndpointOverride("AWS_ENDPOINT_URL_DYNAMODB", "aws.endpointUrlDynamoDb");
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }
}
