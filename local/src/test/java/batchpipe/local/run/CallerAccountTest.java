package batchpipe.local.run;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The account of the CLI's credentials, from an STS endpoint of the test's own on 127.0.0.1. */
class CallerAccountTest {
    private static final StaticCredentialsProvider CREDENTIALS = StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret"));
    private final List<String> received = new CopyOnWriteArrayList<>();
    private HttpServer sts;

    @AfterEach
    void stop() {
        if (sts != null) sts.stop(0);
    }

    private URI sts(int status, String answer) throws IOException {
        sts = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        sts.createContext("/", exchange -> {
            try (exchange) {
                received.add(exchange.getRequestMethod() + " " + exchange.getRequestHeaders().getFirst("Authorization") + " "
                        + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                byte[] body = answer.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, body.length);
                exchange.getResponseBody().write(body);
            }
        });
        sts.start();
        return URI.create("http://127.0.0.1:" + sts.getAddress().getPort() + "/");
    }

    @Test
    void lookUp_sendsASignedGetCallerIdentity_andReadsTheAccount() throws Exception {
        URI endpoint = sts(200, """
                <GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
                  <GetCallerIdentityResult>
                    <Arn>arn:aws:iam::123456789012:user/ana</Arn>
                    <UserId>AIDAEXAMPLE</UserId>
                    <Account>123456789012</Account>
                  </GetCallerIdentityResult>
                </GetCallerIdentityResponse>
                """);

        String account;
        try (SdkHttpClient http = UrlConnectionHttpClient.create()) {
            account = CallerAccount.lookUp(http, endpoint, Region.EU_WEST_1, CREDENTIALS);
        }

        assertThat(account).isEqualTo("123456789012");
        assertThat(received).singleElement().asString().startsWith("POST AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
                .contains("/eu-west-1/sts/aws4_request").endsWith(" Action=GetCallerIdentity&Version=2011-06-15");
    }

    @Test
    void anAnswerWithoutAnAccount_isAnErrorWithStsStatusAndWords() throws Exception {
        URI endpoint = sts(403, "<ErrorResponse><Error><Code>InvalidClientTokenId</Code><Message>The security token included in the request is"
                + " invalid.</Message></Error></ErrorResponse>");

        try (SdkHttpClient http = UrlConnectionHttpClient.create()) {
            assertThatThrownBy(() -> CallerAccount.lookUp(http, endpoint, Region.EU_WEST_1, CREDENTIALS))
                    .hasMessageStartingWith("STS answered 403: ").hasMessageContaining("InvalidClientTokenId");
        }
    }

    @Test
    void endpoint_isTheRegionsUnlessTheSdksEndpointSettingsNameAnother() {
        assertThat(CallerAccount.endpoint(Region.EU_WEST_1, Map.of())).isEqualTo(URI.create("https://sts.eu-west-1.amazonaws.com/"));
        assertThat(CallerAccount.endpoint(Region.CN_NORTH_1, Map.of())).isEqualTo(URI.create("https://sts.cn-north-1.amazonaws.com.cn/"));
        assertThat(CallerAccount.endpoint(Region.EU_WEST_1, Map.of("AWS_ENDPOINT_URL", "http://localhost:4566")))
                .isEqualTo(URI.create("http://localhost:4566"));
    }
}
