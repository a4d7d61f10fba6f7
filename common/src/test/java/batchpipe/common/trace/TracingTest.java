package batchpipe.common.trace;

import batchpipe.common.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Subsegments as the X-Ray daemon receives them, on a real UDP socket standing where Lambda's daemon listens. */
class TracingTest {
    private static final String ROOT = "1-6756a1b2-0123456789abcdef01234567";
    private static final String PARENT = "53995c3f42cd8ad8";

    private DatagramSocket daemon;
    private final AtomicReference<String> header = new AtomicReference<>("Root=" + ROOT + ";Parent=" + PARENT + ";Sampled=1");
    private Tracing tracing;

    @BeforeEach
    void listen() throws IOException {
        daemon = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        daemon.setSoTimeout(300);
        tracing = new Tracing(new InetSocketAddress(InetAddress.getLoopbackAddress(), daemon.getLocalPort()), header::get);
    }

    @AfterEach
    void close() {
        daemon.close();
    }

    @Test
    void trace_sendsOneSubsegmentUnderTheFunctionsSegment_inTheDaemonsFormat() throws Exception {
        String result = tracing.trace("scan", () -> "done");

        assertThat(result).isEqualTo("done");
        List<String> datagrams = received();
        assertThat(datagrams).hasSize(1);
        assertThat(datagrams.get(0)).startsWith("{\"format\":\"json\",\"version\":1}\n");
        Map<String, Object> doc = Json.parseObject(datagrams.get(0).substring(datagrams.get(0).indexOf('\n') + 1));
        assertThat(doc).containsEntry("name", "scan").containsEntry("type", "subsegment")
                .containsEntry("trace_id", ROOT).containsEntry("parent_id", PARENT);
        assertThat((String) doc.get("id")).matches("[0-9a-f]{16}");
        assertThat(((Number) doc.get("end_time")).doubleValue()).isGreaterThanOrEqualTo(((Number) doc.get("start_time")).doubleValue());
        assertThat(((Number) doc.get("start_time")).doubleValue()).isCloseTo(System.currentTimeMillis() / 1000.0, org.assertj.core.data.Offset.offset(5.0));
    }

    @Test
    @SuppressWarnings("unchecked")
    void trace_marksAFailureAFaultWithItsCause_andRethrowsIt() throws Exception {
        assertThatThrownBy(() -> tracing.trace("bcrypt", () -> {
            throw new IOException("disk \"full\"");
        })).isInstanceOf(IOException.class);

        Map<String, Object> doc = document(received().get(0));
        assertThat(doc).containsEntry("fault", true);
        Map<String, Object> exception = ((List<Map<String, Object>>) ((Map<String, Object>) doc.get("cause")).get("exceptions")).get(0);
        assertThat(exception).containsEntry("type", "java.io.IOException").containsEntry("message", "disk \"full\"");
    }

    @Test
    void nothingIsSent_whenTheInvocationIsNotSampled_orHasNoTraceHeader() throws Exception {
        header.set("Root=" + ROOT + ";Parent=" + PARENT + ";Sampled=0");
        tracing.trace("scan", () -> 1);
        header.set(null);
        tracing.trace("scan", () -> 2);

        assertThat(received()).isEmpty();
    }

    @Test
    void withoutADaemonAddress_tracingIsOff_andTheWorkStillRuns() throws Exception {
        Tracing off = Tracing.fromEnvironment(Map.of());

        assertThat(off.enabled()).isFalse();
        assertThat(off.trace("scan", () -> 42)).isEqualTo(42);
    }

    @Test
    void daemonAddress_readsLambdasFormAndTheSdksUdpTcpForm() {
        assertThat(Tracing.daemonAddress("169.254.79.129:2000")).isEqualTo(new InetSocketAddress("169.254.79.129", 2000));
        assertThat(Tracing.daemonAddress("tcp:127.0.0.1:2000 udp:127.0.0.2:2001")).isEqualTo(new InetSocketAddress("127.0.0.2", 2001));
        assertThat(Tracing.daemonAddress("nonsense")).isNull();
        assertThat(Tracing.daemonAddress("")).isNull();
    }

    @Test
    void documentFields_areWhatXRayReads_secondsWithMicrosecondsHexIdsAndEscapedText() {
        assertThat(Tracing.seconds(1_733_000_000_000_042L)).isEqualTo("1733000000.000042");
        assertThat(Tracing.seconds(1_733_000_000_999_999L)).isEqualTo("1733000000.999999");
        assertThat(Tracing.id()).matches("[0-9a-f]{16}");
    }

    /**
     * A name or message with backspace, form feed or an unpaired surrogate (a log value can hold any UTF-16
     * garbage): the document quotes them as Json does, so it is still valid JSON in UTF-8 and reads back the
     * same. Tracing once had its own quoter, which sent the lone surrogate raw, and UTF-8 turned it into '?'.
     */
    @Test
    @SuppressWarnings("unchecked")
    void document_quotesBackspaceFormFeedAndALoneSurrogate_soTheDaemonReadsTheTextBack() throws Exception {
        String awkward = "bs\b ff\f lone\uD800 end";
        assertThatThrownBy(() -> tracing.trace(awkward, () -> {
            throw new IOException(awkward);
        })).isInstanceOf(IOException.class);

        String datagram = received().get(0);
        assertThat(datagram).contains("bs\\b ff\\f lone\\ud800 end");
        Map<String, Object> doc = document(datagram);
        assertThat(doc).containsEntry("name", awkward);
        Map<String, Object> exception = ((List<Map<String, Object>>) ((Map<String, Object>) doc.get("cause")).get("exceptions")).get(0);
        assertThat(exception).containsEntry("message", awkward);
    }

    private List<String> received() throws IOException {
        List<String> datagrams = new ArrayList<>();
        byte[] buffer = new byte[65_536];
        while (true) {
            DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
            try {
                daemon.receive(packet);
            } catch (SocketTimeoutException e) {
                return datagrams;
            }
            datagrams.add(new String(packet.getData(), 0, packet.getLength(), StandardCharsets.UTF_8));
        }
    }

    private static Map<String, Object> document(String datagram) {
        return Json.parseObject(datagram.substring(datagram.indexOf('\n') + 1));
    }
}
