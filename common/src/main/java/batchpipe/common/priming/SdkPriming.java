package batchpipe.common.priming;

import batchpipe.common.json.Json;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.core.SdkClient;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs SDK calls through throwaway clients whose HTTP layer answers from memory, so that the
 * snapshot holds the SDK's request pipeline warm (endpoint rules, marshalling, SigV4 signing,
 * retries, unmarshalling) for the operations a function uses. Nothing reaches a network or the
 * user's resources, and the function's own clients are left untouched: they resolve credentials
 * and open connections only after the restore. Answers: DynamoDB {@code {}}, SQS a send result with
 * the right MD5 digests, S3 an empty listing or the object body the caller chose.
 */
public final class SdkPriming {
    /** Never resolved: the canned client answers before any lookup. */
    static final URI ENDPOINT = URI.create("https://priming.invalid");
    private static final Region REGION = Region.US_EAST_1;
    private static final StaticCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIAPRIMINGEXAMPLE00", "priming-secret-key-not-used-anywhere"));
    private static final String AMZ_JSON = "application/x-amz-json-1.0";

    private SdkPriming() {
    }

    /** Runs {@code calls} against a DynamoDB client that answers every operation with {@code {}}. */
    public static int dynamoDb(Consumer<DynamoDbClient> calls) {
        CannedHttpClient http = new CannedHttpClient(request -> CannedHttpClient.Reply.ok(AMZ_JSON, bytes("{}")));
        try (DynamoDbClient client = DynamoDbClient.builder().httpClient(http).region(REGION)
                .credentialsProvider(CREDENTIALS).endpointOverride(ENDPOINT).build()) {
            calls.accept(client);
        }
        return http.requests();
    }

    /** Runs {@code calls} against an SQS client whose sends all succeed. */
    public static int sqs(Consumer<SqsClient> calls) {
        CannedHttpClient http = new CannedHttpClient(SdkPriming::sqsReply);
        try (SqsClient client = SqsClient.builder().httpClient(http).region(REGION)
                .credentialsProvider(CREDENTIALS).endpointOverride(ENDPOINT).build()) {
            calls.accept(client);
        }
        return http.requests();
    }

    /**
     * Runs {@code calls} against the client {@code builder} builds, whose every request is answered with
     * {@code answer} as {@code contentType}: for a JSON-protocol client only one function ships (the
     * aggregator's EventBridge), which this module must not depend on.
     */
    public static <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C extends SdkClient> int json(
            B builder, String contentType, String answer, Consumer<C> calls) {
        CannedHttpClient http = new CannedHttpClient(request -> CannedHttpClient.Reply.ok(contentType, bytes(answer)));
        try (C client = builder.httpClient(http).region(REGION).credentialsProvider(CREDENTIALS).endpointOverride(ENDPOINT).build()) {
            calls.accept(client);
        }
        return http.requests();
    }

    /**
     * Runs {@code calls} against an S3 client (path-style, as on the local stack) that answers a
     * listing with no objects, a GET with {@code object} and any other request with an empty 200.
     */
    public static int s3(byte[] object, Consumer<S3Client> calls) {
        CannedHttpClient http = new CannedHttpClient(request -> s3Reply(request, object));
        try (S3Client client = S3Client.builder().httpClient(http).region(REGION).credentialsProvider(CREDENTIALS)
                .endpointOverride(ENDPOINT).forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED).build()) {
            calls.accept(client);
        }
        return http.requests();
    }

    private static CannedHttpClient.Reply s3Reply(CannedHttpClient.Request request, byte[] object) {
        var http = request.http();
        if (http.method().name().equals("GET") && http.rawQueryParameters().containsKey("list-type")) {
            String bucket = http.encodedPath().replaceAll("^/+|/+$", "");
            return new CannedHttpClient.Reply(200, Map.of("Content-Type", "application/xml"), bytes(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                            + "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>" + bucket
                            + "</Name><Prefix></Prefix><KeyCount>0</KeyCount><MaxKeys>1000</MaxKeys>"
                            + "<IsTruncated>false</IsTruncated></ListBucketResult>"));
        }
        if (http.method().name().equals("GET")) {
            return new CannedHttpClient.Reply(200, Map.of("Content-Type", "application/octet-stream",
                    "ETag", "\"" + md5Hex(object) + "\""), object);
        }
        return new CannedHttpClient.Reply(200, Map.of("ETag", "\"" + md5Hex(request.body()) + "\""), new byte[0]);
    }

    @SuppressWarnings("unchecked")
    private static CannedHttpClient.Reply sqsReply(CannedHttpClient.Request request) {
        String target = request.header("X-Amz-Target");
        Map<String, Object> sent = Json.parseObject(new String(request.body(), StandardCharsets.UTF_8));
        Map<String, Object> answer = new LinkedHashMap<>();
        if (target.endsWith(".SendMessageBatch")) {
            List<Map<String, Object>> successful = new ArrayList<>();
            for (Object entry : (List<Object>) sent.getOrDefault("Entries", List.of())) {
                Map<String, Object> e = (Map<String, Object>) entry;
                successful.add(Map.of("Id", e.get("Id"), "MessageId", "priming-" + e.get("Id"),
                        "MD5OfMessageBody", md5Hex(bytes(String.valueOf(e.get("MessageBody"))))));
            }
            answer.put("Successful", successful);
            answer.put("Failed", List.of());
        } else if (target.endsWith(".SendMessage")) {
            answer.put("MessageId", "priming-message");
            answer.put("MD5OfMessageBody", md5Hex(bytes(String.valueOf(sent.get("MessageBody")))));
        }
        return CannedHttpClient.Reply.ok(AMZ_JSON, bytes(Json.write(answer)));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String md5Hex(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required by every JDK", e);
        }
    }
}
