package batchpipe.common.priming;

import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An HTTP client that never opens a connection: each request body is read to its end (so the SDK
 * has marshalled and signed it completely) and the responder answers it from memory. Priming
 * clients use it, so warming the SDK can never reach, or be billed by, a real service.
 */
final class CannedHttpClient implements SdkHttpClient {

    /** A request as sent: its line and headers, and its body bytes. */
    record Request(SdkHttpRequest http, byte[] body) {
        String header(String name) {
            return http.firstMatchingHeader(name).orElse("");
        }
    }

    record Reply(int status, Map<String, String> headers, byte[] body) {
        static Reply ok(String contentType, byte[] body) {
            return new Reply(200, Map.of("Content-Type", contentType), body);
        }
    }

    private final Function<Request, Reply> responder;
    private final AtomicInteger requests = new AtomicInteger();

    CannedHttpClient(Function<Request, Reply> responder) {
        this.responder = responder;
    }

    int requests() {
        return requests.get();
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        return new ExecutableHttpRequest() {
            @Override
            public HttpExecuteResponse call() {
                requests.incrementAndGet();
                byte[] body = request.contentStreamProvider().map(p -> readAll(p.newStream())).orElse(new byte[0]);
                Reply reply = responder.apply(new Request(request.httpRequest(), body));
                SdkHttpResponse.Builder response = SdkHttpResponse.builder().statusCode(reply.status());
                reply.headers().forEach(response::putHeader);
                response.putHeader("Content-Length", Integer.toString(reply.body().length));
                return HttpExecuteResponse.builder()
                        .response(response.build())
                        .responseBody(AbortableInputStream.create(new ByteArrayInputStream(reply.body())))
                        .build();
            }

            @Override
            public void abort() {
            }
        };
    }

    private static byte[] readAll(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String clientName() {
        return "BatchpipePriming";
    }

    @Override
    public void close() {
    }
}
