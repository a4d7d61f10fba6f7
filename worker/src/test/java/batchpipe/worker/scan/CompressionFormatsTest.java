package batchpipe.worker.scan;

import static batchpipe.worker.scan.ScanFixtures.concat;
import static batchpipe.worker.scan.ScanFixtures.failingAfter;
import static batchpipe.worker.scan.ScanFixtures.gzip;
import static batchpipe.worker.scan.ScanFixtures.mixedLog;
import static batchpipe.worker.scan.ScanFixtures.scan;
import static batchpipe.worker.scan.ScanFixtures.trickle;
import static batchpipe.worker.scan.ScanFixtures.utf8;
import static batchpipe.worker.scan.ScanFixtures.zstd;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Rule 2: format detection, decompression, byte counts, and corrupt versus broken sources. */
class CompressionFormatsTest {

    private static final ScanOptions OPTIONS = ScanOptions.defaults().withChunkBytes(4096);
    private static final byte[] LOG = mixedLog(2000, 50);

    private static ScanResult expected() throws IOException {
        return scan(LOG, OPTIONS);
    }

    /** The same result apart from the compressed byte count. */
    private static void assertSameFindings(ScanResult actual, ScanResult expected) {
        assertThat(actual.events()).isEqualTo(expected.events());
        assertThat(actual.malformed()).isEqualTo(expected.malformed());
        assertThat(actual.malformedLines()).isEqualTo(expected.malformedLines());
        assertThat(actual.bytes()).isEqualTo(expected.bytes());
        assertThat(actual.countBy()).isEqualTo(expected.countBy());
    }

    @Test
    void scan_readsPlainTextAndCountsItsBytesTwice() throws IOException {
        ScanResult r = expected();
        assertThat(r.events()).isEqualTo(2000 - 40 - 20); // every 50th line malformed, every 97th blank
        assertThat(r.bytes()).isEqualTo(LOG.length);
        assertThat(r.compressedBytes()).isEqualTo(LOG.length);
    }

    @Test
    void scan_detectsZstdByMagicBytes() throws IOException {
        byte[] z = zstd(LOG);
        ScanResult r = scan(z, OPTIONS);
        assertSameFindings(r, expected());
        assertThat(r.compressedBytes()).isEqualTo(z.length);
        assertThat(r.bytes()).isEqualTo(LOG.length);
    }

    @Test
    void scan_detectsGzipByMagicBytes() throws IOException {
        byte[] gz = gzip(LOG);
        ScanResult r = scan(gz, OPTIONS);
        assertSameFindings(r, expected());
        assertThat(r.compressedBytes()).isEqualTo(gz.length);
    }

    @Test
    void scan_treatsTextThatMerelyStartsLikeAMagicPrefixAsPlain() throws IOException {
        byte[] almostZstd = {0x28, (byte) 0xB5, 0x2F, '\n', '{', '}', '\n'};
        ScanResult r = scan(almostZstd, OPTIONS);
        assertThat(r.malformed()).isEqualTo(1);
        assertThat(r.events()).isEqualTo(1);
        assertThat(scan(new byte[] {0x1F}, OPTIONS).malformed()).isEqualTo(1);
    }

    @Test
    void scan_readsConcatenatedZstdFrames() throws IOException {
        int half = indexAfterNewline(LOG, LOG.length / 2);
        byte[] frames = concat(zstd(Arrays.copyOfRange(LOG, 0, half)), zstd(new byte[0]),
                zstd(Arrays.copyOfRange(LOG, half, LOG.length)));
        assertSameFindings(scan(frames, OPTIONS), expected());
    }

    @Test
    void scan_readsMultiMemberGzipEvenWhenTheSourceReportsNothingAvailable() throws IOException {
        int third = indexAfterNewline(LOG, LOG.length / 3);
        byte[] members = concat(gzip(Arrays.copyOfRange(LOG, 0, third)), gzip(new byte[0]),
                gzip(Arrays.copyOfRange(LOG, third, LOG.length)));
        assertSameFindings(scan(members, OPTIONS), expected());
        // small reads with available() == 0 are where the JDK's GZIPInputStream can stop after one member
        assertSameFindings(scan(trickle(members, 7), OPTIONS, 2), expected());
    }

    @Test
    void scan_readsZstdFromASourceThatDeliversFewBytesPerRead() throws IOException {
        assertSameFindings(scan(trickle(zstd(LOG), 5), OPTIONS, 2), expected());
    }

    @Test
    void scan_readsGzipHeadersWithExtraNameCommentAndHeaderCrc() throws IOException {
        byte[] plain = gzip(LOG);
        byte[] header = {0x1F, (byte) 0x8B, 8, 4 | 8 | 16 | 2, 0, 0, 0, 0, 0, 3};
        byte[] extra = {3, 0, 'a', 'b', 'c'};
        byte[] name = utf8("app.log\0");
        byte[] comment = utf8("rotated\0");
        byte[] headerCrc = {0x12, 0x34};
        byte[] withFields = concat(header, extra, name, comment, headerCrc, Arrays.copyOfRange(plain, 10, plain.length));
        assertSameFindings(scan(withFields, OPTIONS), expected());
    }

    @Test
    void scan_splitsLinesAcrossFramesAndMembers() throws IOException {
        byte[] a = utf8("{\"level\":\"IN");
        byte[] b = utf8("FO\"}\n{\"level\":\"WARN\"}\n");
        assertThat(scan(concat(zstd(a), zstd(b)), OPTIONS).countBy().get("level")).containsKeys("INFO", "WARN");
        assertThat(scan(concat(gzip(a), gzip(b)), OPTIONS).countBy().get("level")).containsKeys("INFO", "WARN");
    }

    @Test
    void scan_throwsCorruptDataForTruncatedZstd() {
        byte[] z = zstd(LOG);
        Throwable t = catchThrowable(() -> scan(Arrays.copyOf(z, z.length - 10), OPTIONS));
        assertThat(t).isInstanceOf(CorruptDataException.class).hasMessageContaining("zstd")
                .hasMessageContaining("uncompressed offset");
    }

    @Test
    void scan_throwsCorruptDataForGarbageAfterZstdMagic() {
        byte[] bad = concat(new byte[] {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD}, utf8("this is not a zstd frame"));
        assertThatThrownBy(() -> scan(bad, OPTIONS)).isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("zstd");
    }

    @Test
    void scan_throwsCorruptDataForTrailingGarbageAfterZstdFrame() {
        byte[] bad = concat(zstd(LOG), utf8("garbage"));
        assertThatThrownBy(() -> scan(bad, OPTIONS)).isInstanceOf(CorruptDataException.class);
    }

    @Test
    void scan_throwsCorruptDataForTruncatedGzip() {
        byte[] gz = gzip(LOG);
        for (int cut : new int[] {3, 12, gz.length / 2, gz.length - 4}) {
            assertThatThrownBy(() -> scan(Arrays.copyOf(gz, cut), OPTIONS)).as("cut at %d", cut)
                    .isInstanceOf(CorruptDataException.class).hasMessageContaining("gzip");
        }
    }

    @Test
    void scan_throwsCorruptDataForGzipWithBadCrcOrDeflateData() {
        byte[] gz = gzip(LOG);
        byte[] badCrc = gz.clone();
        badCrc[gz.length - 6] ^= 0x55;
        assertThatThrownBy(() -> scan(badCrc, OPTIONS)).isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("CRC");
        byte[] badData = gz.clone();
        for (int i = 20; i < 60; i++) {
            badData[i] = (byte) 0xFF;
        }
        assertThatThrownBy(() -> scan(badData, OPTIONS)).isInstanceOf(CorruptDataException.class);
    }

    @Test
    void scan_throwsCorruptDataForTrailingGarbageAfterGzipMember() {
        byte[] bad = concat(gzip(LOG), utf8("garbage"));
        assertThatThrownBy(() -> scan(bad, OPTIONS)).isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("not another gzip member");
    }

    @Test
    void scan_propagatesTheSourcesOwnIOExceptionUnchanged() {
        for (byte[] data : new byte[][] {LOG, zstd(LOG), gzip(LOG)}) {
            IOException broken = new IOException("connection reset");
            Throwable t = catchThrowable(() -> scan(failingAfter(Arrays.copyOf(data, data.length / 2), broken),
                    OPTIONS, 2));
            assertThat(t).isSameAs(broken).isNotInstanceOf(CorruptDataException.class);
        }
    }

    @Test
    void scan_propagatesASourceFailureDuringFormatDetection() {
        IOException broken = new IOException("refused");
        assertThatThrownBy(() -> scan(failingAfter(new byte[0], broken), OPTIONS, 1)).isSameAs(broken);
    }

    @Test
    void scan_leavesTheSourceOpen() throws IOException {
        boolean[] closed = {false};
        ByteArrayInputStream source = new ByteArrayInputStream(zstd(LOG)) {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        scan(source, OPTIONS, 1);
        assertThat(closed[0]).isFalse();
    }

    private static int indexAfterNewline(byte[] b, int from) {
        int i = from;
        while (b[i] != '\n') {
            i++;
        }
        return i + 1;
    }
}
