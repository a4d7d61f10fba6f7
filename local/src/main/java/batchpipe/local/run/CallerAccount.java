package batchpipe.local.run;

import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.regions.Region;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The AWS account the CLI's credentials belong to, for messages that say where a stack was looked for:
 * STS GetCallerIdentity, which any credentials may call (it needs no permission). Sent as the signed query
 * the STS API documents, since the SDK's sts module is not on the CLI's class path for this one call.
 */
final class CallerAccount {
    private static final String QUERY = "Action=GetCallerIdentity&Version=2011-06-15";
    private static final Pattern ACCOUNT = Pattern.compile("<Account>\\s*(\\d{12})\\s*</Account>");

    private CallerAccount() {
    }

    /**
     * STS's endpoint in {@code region}, or the one AWS_ENDPOINT_URL_STS or AWS_ENDPOINT_URL names (the SDK's
     * own endpoint settings, which the other clients follow).
     */
    static URI endpoint(Region region, Map<String, String> env) {
        for (String variable : new String[]{"AWS_ENDPOINT_URL_STS", "AWS_ENDPOINT_URL"}) {
            String url = env.get(variable);
            if (url != null && !url.isBlank()) return URI.create(url.trim());
        }
        String domain = region.metadata() != null ? region.metadata().domain() : "amazonaws.com";
        return URI.create("https://sts." + region.id() + "." + domain + "/");
    }

    /**
     * The account's twelve digits.
     *
     * @throws IllegalStateException with STS's status and the start of its answer when it gives none
     */
    static String lookUp(SdkHttpClient http, URI endpoint, Region region, AwsCredentialsProvider credentials) {
        SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.POST).uri(endpoint)
                .putHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                .putHeader("Content-Length", Integer.toString(QUERY.getBytes(StandardCharsets.UTF_8).length)).build();
        SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r.identity(credentials.resolveCredentials()).request(request)
                .payload(ContentStreamProvider.fromUtf8String(QUERY))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sts")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region.id()));
        String answer;
        int status;
        try {
            HttpExecuteResponse response = http.prepareRequest(HttpExecuteRequest.builder().request(signed.request())
                    .contentStreamProvider(signed.payload().orElse(null)).build()).call();
            status = response.httpResponse().statusCode();
            answer = "";
            if (response.responseBody().isPresent()) {
                try (InputStream body = response.responseBody().get()) {
                    answer = new String(body.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("STS at " + endpoint + " could not be reached: " + e.getMessage(), e);
        }
        Matcher account = ACCOUNT.matcher(answer);
        if (status / 100 != 2 || !account.find()) {
            String start = answer.strip().replaceAll("\\s+", " ");
            throw new IllegalStateException("STS answered " + status + ": " + (start.length() <= 200 ? start : start.substring(0, 200) + "..."));
        }
        return account.group(1);
    }
}
