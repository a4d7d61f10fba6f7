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
import java.util.regex.Pattern;

/**
 * Run and task identifiers. Task ids are derived from the run and the item, so a retried send or a
 * second planning of the same run can never make two different tasks of one item.
 */
public final class TaskIds {
    private static final DateTimeFormatter RUN_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0," + (TaskLimits.MAX_ID_LENGTH - 1) + "}");

    /** {@link #isValidRunId}'s rule in words, for error messages (README's run spec section says the same). */
    public static final String RUN_ID_RULE = "1 to " + TaskLimits.MAX_ID_LENGTH
            + " letters, digits, '.', '_' or '-', starting with a letter or digit and without '..'";

    private TaskIds() {
    }

    /** A new run id that sorts by creation time: {@code 20261130T010203Z-3f9a1c}. */
    public static String newRunId(Instant now) {
        byte[] suffix = new byte[3];
        RANDOM.nextBytes(suffix);
        return RUN_TIME.format(now) + "-" + HexFormat.of().formatHex(suffix);
    }

    /**
     * Whether {@code runId} may name a run. A run id becomes a DynamoDB key and a folder name
     * ({@code out/<runId>}), so it must be one harmless path segment: no separator, never {@code .} or
     * {@code ..} (nor anything holding {@code ..}), no leading dot or dash, and no {@code :}, which makes
     * {@code c:x} a drive-relative path on Windows. Every id {@link #newRunId} makes passes.
     */
    public static boolean isValidRunId(String runId) {
        return runId != null && RUN_ID.matcher(runId).matches() && !runId.contains("..");
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
