package batchpipe.worker.scan;

import batchpipe.common.task.ScanTask;
import batchpipe.worker.task.PermanentTaskException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ForkJoinPool;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.withSettings;

class ScanExecutorTest {
    private final S3Client s3 = mock(S3Client.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
    private final ScanExecutor executor = new ScanExecutor(s3, new LogScanner(ForkJoinPool.commonPool()));
    private final ScanTask task = new ScanTask("r", "scan-1", Instant.EPOCH, "archive", "logs/a.zst", List.of("level"), null);

    @Test
    void execute_rejectsABucketTheFunctionMayNotReadWithAMessageThatSaysWhatToChange() {
        doThrow(S3Exception.builder().statusCode(403).message("Access Denied").build()).when(s3).getObject(any(GetObjectRequest.class));
        assertThatThrownBy(() -> executor.execute(task)).isInstanceOf(PermanentTaskException.class)
                .hasMessageContaining("access denied reading s3://archive/logs/a.zst")
                .hasMessageContaining("ScanBucket");
    }

    @Test
    void execute_rejectsAMissingObject() {
        doThrow(NoSuchKeyException.builder().statusCode(404).message("nope").build()).when(s3).getObject(any(GetObjectRequest.class));
        assertThatThrownBy(() -> executor.execute(task)).isInstanceOf(PermanentTaskException.class)
                .hasMessage("object s3://archive/logs/a.zst does not exist");
    }

    @Test
    void execute_leavesAServerErrorTransient() {
        doThrow(S3Exception.builder().statusCode(503).message("Slow Down").build()).when(s3).getObject(any(GetObjectRequest.class));
        assertThatThrownBy(() -> executor.execute(task)).isInstanceOf(S3Exception.class);
    }

    @Test
    void execute_rejectsScanSettingsTheScannerRefuses() {
        ScanTask badPath = new ScanTask("r", "scan-2", Instant.EPOCH, "archive", "k", List.of("a..b"), null);
        assertThatThrownBy(() -> executor.execute(badPath)).isInstanceOf(PermanentTaskException.class)
                .hasMessageStartingWith("invalid scan settings:");
    }

    @Test
    void execute_rejectsAnObjectWhoseCountByValuesAreTooLongToCountInBoundedMemory() {
        // 3,000 distinct 4 KiB messages: past the exact budget, and only 512 of them fit the sketch's 2 MiB
        StringBuilder lines = new StringBuilder();
        String padding = "x".repeat(4_090);
        for (int i = 0; i < 3_000; i++) {
            lines.append("{\"level\":\"").append(String.format("%06d", i)).append(padding).append("\"}\n");
        }
        byte[] object = lines.toString().getBytes(StandardCharsets.UTF_8);
        doReturn(new ResponseInputStream<>(GetObjectResponse.builder().build(),
                AbortableInputStream.create(new ByteArrayInputStream(object))))
                .when(s3).getObject(any(GetObjectRequest.class));

        assertThatThrownBy(() -> executor.execute(task)).isInstanceOf(PermanentTaskException.class)
                .hasMessageStartingWith("s3://archive/logs/a.zst: countBy path 'level' has values too long to count")
                .hasMessageEndingWith("count a shorter field");
    }
}
