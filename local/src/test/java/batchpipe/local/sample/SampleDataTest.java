package batchpipe.local.sample;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.withSettings;

class SampleDataTest {

    @Test
    void uploadsMoreObjectsThanTheGenerationWindowInKeyOrderWithTheSeededBytes() throws IOException {
        int objects = SampleData.WINDOW * 2 + 3;
        List<String> keys = new ArrayList<>();
        List<byte[]> bodies = new ArrayList<>();
        S3Client s3 = mock(S3Client.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        doAnswer(call -> {
            PutObjectRequest request = call.getArgument(0);
            assertThat(request.bucket()).isEqualTo("bucket");
            keys.add(request.key());
            try (InputStream body = call.<RequestBody>getArgument(1).contentStreamProvider().newStream()) {
                bodies.add(body.readAllBytes());
            }
            return PutObjectResponse.builder().build();
        }).when(s3).putObject(any(PutObjectRequest.class), any(RequestBody.class));

        long total;
        try (SampleData data = SampleData.generate(objects, 500, 5)) {
            total = data.upload(s3, "bucket");
        }

        assertThat(keys).hasSize(objects).startsWith("logs/app-000.jsonl.zst", "logs/app-001.jsonl.zst").endsWith(SampleData.key(objects - 1));
        SampleLogs logs = new SampleLogs(5, 2_000);
        for (int i = 0; i < objects; i++) {
            assertThat(bodies.get(i)).as("object %d", i).isEqualTo(logs.zstdObject(i, 500));
        }
        assertThat(total).isEqualTo(bodies.stream().mapToLong(b -> b.length).sum());
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
