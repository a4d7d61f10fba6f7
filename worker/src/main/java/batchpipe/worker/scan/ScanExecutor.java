package batchpipe.worker.scan;

import batchpipe.common.task.ScanMatch;
import batchpipe.common.task.ScanTask;
import batchpipe.common.trace.Tracing;
import batchpipe.worker.task.PermanentTaskException;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.IOException;
import java.util.function.Supplier;

/** Streams one object from S3 through the {@link LogScanner}; never holds the object in memory. */
public final class ScanExecutor {
    private final Supplier<S3Client> s3Client;
    private final LogScanner scanner;
    private final ScanOptions defaults;

    public ScanExecutor(S3Client s3, LogScanner scanner) {
        this(() -> s3, scanner);
    }

    /** @param s3Client asked for the client on the first scan only (see {@code LazyClient}) */
    public ScanExecutor(Supplier<S3Client> s3Client, LogScanner scanner) {
        this.s3Client = s3Client;
        this.scanner = scanner;
        this.defaults = ScanOptions.defaults();
    }

    public ScanResult execute(ScanTask task) throws IOException, PermanentTaskException {
        ScanOptions options;
        try {
            options = new ScanOptions(task.countBy(), toMatch(task.match()), defaults.maxLineBytes(), defaults.chunkBytes());
        } catch (IllegalArgumentException e) {
            throw new PermanentTaskException("invalid scan settings: " + e.getMessage(), e);
        }
        S3Client s3 = s3Client.get();
        try (ResponseInputStream<GetObjectResponse> object = s3.getObject(b -> b.bucket(task.bucket()).key(task.key()))) {
            return Tracing.current().trace("scan", () -> scanner.scan(object, options));
        } catch (NoSuchKeyException e) {
            throw new PermanentTaskException("object s3://" + task.bucket() + "/" + task.key() + " does not exist", e);
        } catch (NoSuchBucketException e) {
            throw new PermanentTaskException("bucket " + task.bucket() + " does not exist", e);
        } catch (CorruptDataException | ValuesTooLongException e) {
            throw new PermanentTaskException("s3://" + task.bucket() + "/" + task.key() + ": " + e.getMessage(), e);
        } catch (S3Exception e) {
            if (e.statusCode() == 403) {
                throw new PermanentTaskException("access denied reading s3://" + task.bucket() + "/" + task.key()
                        + " (the worker's role may not read this bucket; deploy with ScanBucket=" + task.bucket() + ")", e);
            }
            if (e.statusCode() == 404) {
                throw new PermanentTaskException("s3://" + task.bucket() + "/" + task.key() + " not found", e);
            }
            throw e;
        }
    }

    static Match toMatch(ScanMatch match) {
        if (match instanceof ScanMatch.Contains c) return new Match.Contains(c.text());
        if (match instanceof ScanMatch.FieldEquals f) return new Match.FieldEquals(f.field(), f.equals());
        return null;
    }
}
