package batchpipe.aggregator.delivery;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An S3 object written as a stream, in bounded memory: bytes fill one part buffer of {@code partBytes};
 * each full buffer is uploaded as a part of a multipart upload, and {@link #close()} completes it. An
 * object that never fills one buffer is put whole (PutObject), as small report files always were. Until
 * the upload completes readers see the object as it was before (or no object), as with PutObject. If
 * writing fails, {@link #abort()} removes the parts uploaded so far (S3 bills stored parts until then).
 * <p>
 * S3's limits: every part but the last at least 5 MiB, at most 10,000 parts: 8 MiB parts hold objects up
 * to about 78 GiB.
 */
public final class MultipartUpload extends OutputStream {
    public static final int MIN_PART_BYTES = 5 << 20;
    public static final int DEFAULT_PART_BYTES = 8 << 20;
    static final int MAX_PARTS = 10_000;

    private final S3Client s3;
    private final String bucket;
    private final String key;
    private final String contentType;
    private final byte[] buffer;
    private int filled;
    private String uploadId;
    private final List<CompletedPart> parts = new ArrayList<>();
    private boolean closed;

    public MultipartUpload(S3Client s3, String bucket, String key, String contentType) {
        this(s3, bucket, key, contentType, DEFAULT_PART_BYTES);
    }

    MultipartUpload(S3Client s3, String bucket, String key, String contentType, int partBytes) {
        if (partBytes < MIN_PART_BYTES) {
            throw new IllegalArgumentException("a part of a multipart upload is at least " + MIN_PART_BYTES + " bytes, got " + partBytes);
        }
        this.s3 = s3;
        this.bucket = bucket;
        this.key = key;
        this.contentType = contentType;
        this.buffer = new byte[partBytes];
    }

    @Override
    public void write(int b) throws IOException {
        if (filled == buffer.length) uploadPart();
        buffer[filled++] = (byte) b;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        while (length > 0) {
            if (filled == buffer.length) uploadPart();
            int n = Math.min(length, buffer.length - filled);
            System.arraycopy(bytes, offset, buffer, filled, n);
            filled += n;
            offset += n;
            length -= n;
        }
    }

    private void uploadPart() throws IOException {
        ensureOpen();
        if (parts.size() == MAX_PARTS) {
            throw new IOException("s3://" + bucket + "/" + key + " is larger than " + MAX_PARTS + " parts of " + buffer.length + " bytes");
        }
        // No encryption header, as ReportStore's PutObject: the bucket's default encryption applies.
        if (uploadId == null) {
            uploadId = s3.createMultipartUpload(b -> b.bucket(bucket).key(key).contentType(contentType)).uploadId();
        }
        int partNumber = parts.size() + 1;
        String eTag = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(partNumber).contentLength((long) filled),
                RequestBody.fromBytes(Arrays.copyOf(buffer, filled))).eTag();
        parts.add(CompletedPart.builder().partNumber(partNumber).eTag(eTag).build());
        filled = 0;
    }

    /** Completes the object: the last part and the completion, or, for an object under one part, a PutObject. */
    @Override
    public void close() throws IOException {
        if (closed) return;
        if (uploadId == null) {
            closed = true;
            s3.putObject(b -> b.bucket(bucket).key(key).contentType(contentType), RequestBody.fromBytes(Arrays.copyOf(buffer, filled)));
            return;
        }
        if (filled > 0) uploadPart();
        closed = true;
        s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId).multipartUpload(u -> u.parts(parts)));
    }

    /** Gives up the object: the parts uploaded so far are deleted, and the object stays as it was. */
    public void abort() {
        if (closed) return;
        closed = true;
        if (uploadId != null) s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
    }

    /** Parts uploaded so far (0 for an object that will be put whole). */
    int partsUploaded() {
        return parts.size();
    }

    private void ensureOpen() throws IOException {
        if (closed) throw new IOException("s3://" + bucket + "/" + key + " is already closed");
    }
}
