package batchpipe.aggregator.delivery;

import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.withSettings;

class MultipartUploadTest {
    private static final int PART = MultipartUpload.MIN_PART_BYTES;
    private final S3Client s3 = mock(S3Client.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
    private final AtomicInteger parts = new AtomicInteger();

    MultipartUploadTest() {
        doReturn(CreateMultipartUploadResponse.builder().uploadId("u1").build()).when(s3).createMultipartUpload(any(CreateMultipartUploadRequest.class));
        doAnswer(call -> UploadPartResponse.builder().eTag("e" + parts.incrementAndGet()).build())
                .when(s3).uploadPart(any(UploadPartRequest.class), any(RequestBody.class));
        doReturn(CompleteMultipartUploadResponse.builder().build()).when(s3).completeMultipartUpload(any(CompleteMultipartUploadRequest.class));
        doReturn(PutObjectResponse.builder().build()).when(s3).putObject(any(PutObjectRequest.class), any(RequestBody.class));
        doReturn(AbortMultipartUploadResponse.builder().build()).when(s3).abortMultipartUpload(any(AbortMultipartUploadRequest.class));
    }

    @Test
    void close_completesTheUploadWithEveryPartInOrder_holdingOnePartAtATime() throws IOException {
        MultipartUpload upload = new MultipartUpload(s3, "bkt", "reports/r1/tasks.csv", "text/csv", PART);
        byte[] chunk = new byte[1_000_003];
        for (int i = 0; i < 12; i++) upload.write(chunk); // 12 MB: two full parts and a last one
        upload.close();

        ArgumentCaptor<UploadPartRequest> sent = ArgumentCaptor.forClass(UploadPartRequest.class);
        verify(s3, times(3)).uploadPart(sent.capture(), any(RequestBody.class));
        assertThat(sent.getAllValues()).extracting(UploadPartRequest::partNumber).containsExactly(1, 2, 3);
        assertThat(sent.getAllValues()).extracting(UploadPartRequest::contentLength).containsExactly((long) PART, (long) PART, 12_000_036L - 2L * PART);
        ArgumentCaptor<CompleteMultipartUploadRequest> completed = ArgumentCaptor.forClass(CompleteMultipartUploadRequest.class);
        verify(s3).completeMultipartUpload(completed.capture());
        assertThat(completed.getValue().multipartUpload().parts()).extracting(p -> p.partNumber() + ":" + p.eTag())
                .containsExactly("1:e1", "2:e2", "3:e3");
        verify(s3, never()).putObject(any(PutObjectRequest.class), any(RequestBody.class));
    }

    @Test
    void close_putsAnObjectSmallerThanAPartWhole() throws IOException {
        MultipartUpload upload = new MultipartUpload(s3, "bkt", "reports/r1/tasks.csv", "text/csv", PART);
        upload.write("taskId\r\n".getBytes());
        upload.close();

        verify(s3).putObject(any(PutObjectRequest.class), any(RequestBody.class));
        verify(s3, never()).createMultipartUpload(any(CreateMultipartUploadRequest.class));
    }

    @Test
    void abort_removesThePartsAlreadyUploaded() throws IOException {
        MultipartUpload upload = new MultipartUpload(s3, "bkt", "k", "text/csv", PART);
        upload.write(new byte[PART + 1]);
        upload.abort();

        ArgumentCaptor<AbortMultipartUploadRequest> aborted = ArgumentCaptor.forClass(AbortMultipartUploadRequest.class);
        verify(s3).abortMultipartUpload(aborted.capture());
        assertThat(aborted.getValue().uploadId()).isEqualTo("u1");
        verify(s3, never()).completeMultipartUpload(any(CompleteMultipartUploadRequest.class));
    }

    @Test
    void aPartSmallerThanS3AllowsIsRefused() {
        assertThatThrownBy(() -> new MultipartUpload(s3, "bkt", "k", "text/csv", PART - 1))
                .hasMessageContaining("at least " + PART + " bytes");
    }
}
