package batchpipe.local.sample;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.withSettings;

class SampleDataTest {

    @Test
    void uploadsMoreObjectsThanTheGenerationWindowEachUnderItsKeyWithTheSeededBytes() throws IOException {
        int objects = SampleData.WINDOW * 2 + 3;
        Map<String, byte[]> uploaded = new ConcurrentHashMap<>();
        S3Client s3 = mock(S3Client.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        doAnswer(call -> {
            PutObjectRequest request = call.getArgument(0);
            assertThat(request.bucket()).isEqualTo("bucket");
            try (InputStream body = call.<RequestBody>getArgument(1).contentStreamProvider().newStream()) {
                assertThat(uploaded.put(request.key(), body.readAllBytes())).as("second upload of %s", request.key()).isNull();
            }
            return PutObjectResponse.builder().build();
        }).when(s3).putObject(any(PutObjectRequest.class), any(RequestBody.class));

        long total;
        try (SampleData data = SampleData.generate(objects, 500, 5)) {
            total = data.upload(s3, "bucket");
        }

        SampleLogs logs = new SampleLogs(5, 2_000);
        assertThat(uploaded).hasSize(objects).containsKeys("logs/app-000.jsonl.zst", SampleData.key(objects - 1));
        for (int i = 0; i < objects; i++) {
            assertThat(uploaded.get(SampleData.key(i))).as("object %d", i).isEqualTo(logs.zstdObject(i, 500));
        }
        assertThat(total).isEqualTo(uploaded.values().stream().mapToLong(b -> b.length).sum());
    }

    @Test
    void aSecondRunReadsTheSameBytesFromTheCacheFolder(@TempDir Path cache) throws IOException {
        List<byte[]> first = new ArrayList<>(), second = new ArrayList<>();
        S3Client s3 = recordingS3(first);
        try (SampleData data = SampleData.generate(3, 400, 8, cache)) {
            data.upload(s3, "bucket");
            assertThat(data.objectsFromCache()).isZero();
        }
        try (SampleData data = SampleData.generate(3, 400, 8, cache)) {
            data.upload(recordingS3(second), "bucket");
            assertThat(data.objectsFromCache()).isEqualTo(3);
        }
        for (int i = 0; i < 3; i++) {
            assertThat(second.get(i)).isEqualTo(first.get(i)).isEqualTo(new SampleLogs(8, 2_000).zstdObject(i, 400));
        }
        // Another seed or size is another set of objects.
        try (SampleData data = SampleData.generate(3, 401, 8, cache)) {
            data.upload(recordingS3(new ArrayList<>()), "bucket");
            assertThat(data.objectsFromCache()).isZero();
        }
    }

    /** Records the bodies in key order (uploads run in parallel). */
    private static S3Client recordingS3(List<byte[]> bodies) {
        S3Client s3 = mock(S3Client.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        doAnswer(call -> {
            int index = Integer.parseInt(call.<PutObjectRequest>getArgument(0).key().replaceAll("\\D", ""));
            try (InputStream body = call.<RequestBody>getArgument(1).contentStreamProvider().newStream()) {
                byte[] bytes = body.readAllBytes();
                synchronized (bodies) {
                    while (bodies.size() <= index) bodies.add(null);
                    bodies.set(index, bytes);
                }
            }
            return PutObjectResponse.builder().build();
        }).when(s3).putObject(any(PutObjectRequest.class), any(RequestBody.class));
        return s3;
    }

    @Test
    void refusesASecondUpload() throws IOException {
        S3Client s3 = mock(S3Client.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        doAnswer(call -> PutObjectResponse.builder().build()).when(s3).putObject(any(PutObjectRequest.class), any(RequestBody.class));
        try (SampleData data = SampleData.generate(1, 10, 1)) {
            data.upload(s3, "bucket");
            assertThatThrownBy(() -> data.upload(s3, "bucket")).isInstanceOf(IllegalStateException.class).hasMessageContaining("already");
        }
    }
}
