package batchpipe.common.trace;

import batchpipe.common.json.Json;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * X-Ray subsegments for the work inside an invocation, sent the way the X-Ray SDK sends them but with
 * none of its dependencies: one UDP datagram per finished subsegment to the daemon Lambda runs beside
 * the function ({@code AWS_XRAY_DAEMON_ADDRESS}), the daemon's documented format: the header line
 * {@code {"format":"json","version":1}}, a newline, then the subsegment document (name, 64-bit id,
 * trace_id, parent_id, start_time and end_time in epoch seconds, "type":"subsegment"). Each one hangs
 * directly under the function's segment named by the invocation's trace header, which the Lambda Java
 * runtime puts in the system property {@code com.amazonaws.xray.traceHeader}.
 *
 * <p>Nothing is sent unless that header says Sampled=1, which Lambda does for active tracing (the
 * template's Tracing=Active) or for a sampled caller under PassThrough; without a daemon address
 * (the local stack, tests, tools) every method just runs the work. A send never fails the work: UDP is
 * fire-and-forget, and an I/O error is dropped. docs/DEPLOY.md ("Tracing") has the cost measured
 * against the X-Ray SDK.
 */
public final class Tracing {
    static final String HEADER_PROPERTY = "com.amazonaws.xray.traceHeader";
    private static final byte[] DAEMON_HEADER = "{\"format\":\"json\",\"version\":1}\n".getBytes(StandardCharsets.UTF_8);
    private static final Tracing CURRENT = fromEnvironment(System.getenv());

    /** Work that may throw a checked exception of its own. */
    @FunctionalInterface
    public interface Work<T, E extends Exception> {
        T run() throws E;
    }

    /** A subsegment being timed; {@link #close} sends it (once). */
    public interface Span extends AutoCloseable {
        /** Marks the subsegment failed with this error (fault: not the caller's doing; error: a 4xx-like refusal). */
        void failed(Throwable error, boolean fault);

        /** Adds {@code "aws": {...}} fields (operation, region, request_id) to the document. */
        void aws(String operation, String region, String requestId);

        /** The HTTP status the call got, under {@code "http": {"response": {"status"}}}. */
        void httpStatus(int status);

        @Override
        void close();
    }

    private static final Span NOT_RECORDED = new Span() {
        public void failed(Throwable error, boolean fault) { }
        public void aws(String operation, String region, String requestId) { }
        public void httpStatus(int status) { }
        public void close() { }
    };

    private final InetSocketAddress daemon;
    private final Supplier<String> header;
    private final DatagramChannel socket;

    Tracing(InetSocketAddress daemon, Supplier<String> header) {
        this.daemon = daemon;
        this.header = header;
        DatagramChannel s = null;
        if (daemon != null) {
            try {
                s = DatagramChannel.open();
            } catch (IOException e) {
                s = null; // no socket, no traces; the function works
            }
        }
        this.socket = s;
    }

    /** The process's tracing: on when Lambda names a daemon (AWS_XRAY_DAEMON_ADDRESS), off elsewhere. */
    public static Tracing current() {
        return CURRENT;
    }

    static Tracing fromEnvironment(Map<String, String> env) {
        return new Tracing(daemonAddress(env.get("AWS_XRAY_DAEMON_ADDRESS")),
                () -> System.getProperty(HEADER_PROPERTY, System.getenv("_X_AMZN_TRACE_ID")));
    }

    /** {@code host:port}, or the SDK's {@code udp:host:port tcp:host:port} form (the UDP one is used); null when absent or unreadable. */
    static InetSocketAddress daemonAddress(String value) {
        if (value == null || value.isBlank()) return null;
        String address = value.trim();
        for (String part : address.split("\\s+")) {
            if (part.startsWith("udp:")) address = part.substring(4);
        }
        int colon = address.lastIndexOf(':');
        if (colon <= 0) return null;
        try {
            return new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    public boolean enabled() {
        return socket != null;
    }

    /** Runs {@code work} inside a subsegment named {@code name}; an exception it throws marks the subsegment a fault and passes on. */
    public <T, E extends Exception> T trace(String name, Work<T, E> work) throws E {
        Span span = begin(name);
        try {
            return work.run();
        } catch (Exception | Error e) {
            span.failed(e, true);
            throw e;
        } finally {
            span.close();
        }
    }

    /** A subsegment starting now, or a span that records nothing when this invocation is not traced. */
    public Span begin(String name) {
        if (socket == null) return NOT_RECORDED;
        TraceHeader trace = TraceHeader.parse(header.get());
        if (trace == null || !trace.sampled()) return NOT_RECORDED;
        return new Subsegment(name, trace, now());
    }

    /** Microseconds since the epoch. */
    private static long now() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }

    /** Epoch seconds with six decimals, as the documents carry them (no Formatter: it costs a cold start ~100 classes). */
    static String seconds(long micros) {
        String fraction = Long.toString(1_000_000 + micros % 1_000_000).substring(1);
        return (micros / 1_000_000) + "." + fraction;
    }

    private void send(String document) {
        byte[] body = document.getBytes(StandardCharsets.UTF_8);
        byte[] datagram = new byte[DAEMON_HEADER.length + body.length];
        System.arraycopy(DAEMON_HEADER, 0, datagram, 0, DAEMON_HEADER.length);
        System.arraycopy(body, 0, datagram, DAEMON_HEADER.length, body.length);
        try {
            socket.send(ByteBuffer.wrap(datagram), daemon);
        } catch (IOException | RuntimeException e) {
            // Lost: a trace is worth less than the work it describes.
        }
    }

    private final class Subsegment implements Span {
        private final String name;
        private final TraceHeader trace;
        private final long start;
        private String failure;
        private String aws;
        private int status;
        private boolean sent;

        Subsegment(String name, TraceHeader trace, long start) {
            this.name = name;
            this.trace = trace;
            this.start = start;
        }

        @Override
        public void failed(Throwable error, boolean fault) {
            failure = (fault ? "\"fault\":true" : "\"error\":true") + ",\"cause\":{\"exceptions\":[{\"id\":\"" + id()
                    + "\",\"type\":" + Json.quote(error.getClass().getName())
                    + ",\"message\":" + Json.quote(String.valueOf(error.getMessage())) + "}]}";
        }

        @Override
        public void aws(String operation, String region, String requestId) {
            StringBuilder text = new StringBuilder("\"aws\":{\"operation\":").append(Json.quote(operation));
            if (region != null) text.append(",\"region\":").append(Json.quote(region));
            if (requestId != null) text.append(",\"request_id\":").append(Json.quote(requestId));
            aws = text.append('}').toString();
        }

        @Override
        public void httpStatus(int status) {
            this.status = status;
        }

        @Override
        public void close() {
            if (sent) return;
            sent = true;
            StringBuilder doc = new StringBuilder(256).append("{\"name\":").append(Json.quote(name))
                    .append(",\"id\":\"").append(id()).append('"')
                    .append(",\"trace_id\":").append(Json.quote(trace.root()))
                    .append(",\"parent_id\":").append(Json.quote(trace.parent()))
                    .append(",\"type\":\"subsegment\"")
                    .append(",\"start_time\":").append(seconds(start))
                    .append(",\"end_time\":").append(seconds(Math.max(start, now())));
            if (aws != null) doc.append(",\"namespace\":\"aws\",").append(aws);
            if (status > 0) doc.append(",\"http\":{\"response\":{\"status\":").append(status).append("}}");
            if (failure != null) doc.append(',').append(failure);
            send(doc.append('}').toString());
        }
    }

    /** A 64-bit id in 16 lower-case hex digits, as X-Ray wants. */
    static String id() {
        String hex = Long.toHexString(ThreadLocalRandom.current().nextLong());
        return "0000000000000000".substring(hex.length()) + hex;
    }
}
