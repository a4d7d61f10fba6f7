package batchpipe.common.task;

import java.util.Locale;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/**
 * Run and task identifiers. Task ids are derived from the run and the item, so a retried send or a
 * second planning of the same run can never make two different tasks of one item.
 */
public final class TaskIds {
    private static final DateTimeFormatter RUN_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final SecureRandom RANDOM = new SecureRandom();

    private TaskIds() {
    }

    /** A new run id that sorts by creation time: {@code 20261130T010203Z-3f9a1c}. */
    public static String newRunId(Instant now) {
        byte[] suffix = new byte[3];
        RANDOM.nextBytes(suffix);
        return RUN_TIME.format(now) + "-" + HexFormat.of().formatHex(suffix);
    }

    /** {@code scan-} and 16 hex digits of SHA-256 over run, bucket and key. */
    public static String scanTaskId(String runId, String bucket, String key) {
        return "scan-" + digest(runId + "\n" + bucket + "\n" + key);
    }

    /** {@code hash-} and the batch number, 1-based and zero-padded so ids sort in batch order. */
    public static String hashTaskId(int batch) {
        return String.format(Locale.ROOT, "hash-%06d", batch);
    }

    private static String digest(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JDK", e);
        }
    }
}
