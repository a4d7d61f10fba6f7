package batchpipe.producer.listing;

import batchpipe.common.spec.RunSpec;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.util.List;
import java.util.function.Consumer;

/**
 * Lists the objects a scan source names: ListObjectsV2 page by page (1,000 keys a page), skipping folder
 * markers (keys ending in "/") and empty objects, keeping only keys with the suffix, up to maxObjects.
 */
public final class ObjectLister {
    private final S3Client s3;

    public ObjectLister(S3Client s3) {
        this.s3 = s3;
    }

    /**
     * One ListObjectsV2 page of the source's prefix: the keys after {@code startAfter} (from the start when
     * null), in S3's order (UTF-8 binary), as S3 gave them: the caller filters. Listing again from the same
     * key gives the same page while the bucket is unchanged, which is what lets planning resume there.
     */
    public ListedPage page(RunSpec.ScanSource source, String startAfter) {
        try {
            ListObjectsV2Response page = s3.listObjectsV2(ListObjectsV2Request.builder()
                    .bucket(source.bucket())
                    .prefix(source.prefix())
                    .startAfter(startAfter)
                    .build());
            return new ListedPage(page.contents(), Boolean.TRUE.equals(page.isTruncated()));
        } catch (S3Exception e) {
            throw explained(source, e);
        }
    }

    /** A page as listed, and whether more keys follow it. */
    public record ListedPage(List<S3Object> objects, boolean truncated) {
    }

    /** Whether the object is one to scan: not a folder marker, not empty, and with the source's suffix. */
    public static boolean scannable(RunSpec.ScanSource source, S3Object object) {
        if (object.key().endsWith("/") || object.size() == null || object.size() == 0) return false;
        return source.suffix() == null || object.key().endsWith(source.suffix());
    }

    /**
     * Fails now, before a run is recorded, when the source's bucket is missing or cannot be listed: one
     * ListObjectsV2 of one key.
     */
    public void checkListable(RunSpec.ScanSource source) {
        try {
            s3.listObjectsV2(ListObjectsV2Request.builder().bucket(source.bucket()).prefix(source.prefix()).maxKeys(1).build());
        } catch (S3Exception e) {
            throw explained(source, e);
        }
    }

    private static RuntimeException explained(RunSpec.ScanSource source, S3Exception e) {
        if (e instanceof NoSuchBucketException) {
            return new IllegalArgumentException("bucket '" + source.bucket() + "' does not exist; nothing was written or sent", e);
        }
        if (e.statusCode() == 403) {
            return new IllegalArgumentException("access denied listing bucket '" + source.bucket()
                    + "' (the producer's role may not read it; deploy with ScanBucket=" + source.bucket()
                    + "); nothing was written or sent", e);
        }
        return e;
    }

    /**
     * Every object a run of the source scans, in S3's order, as the planner pages through them: {@link #page}
     * by page from the start, the {@link #scannable} ones, at most maxObjects. A source's objects only: where
     * sources of one spec overlap, the planner scans a key once, and this visits it for each.
     */
    public void forEachScannable(RunSpec.ScanSource source, Consumer<S3Object> visit) {
        long cap = source.maxObjects() == null ? Long.MAX_VALUE : source.maxObjects();
        long visited = 0;
        String after = null;
        while (visited < cap) {
            ListedPage listed = page(source, after);
            for (S3Object object : listed.objects()) {
                if (visited >= cap) return;
                if (!scannable(source, object)) continue;
                visited++;
                visit.accept(object);
            }
            if (!listed.truncated() || listed.objects().isEmpty()) return;
            after = listed.objects().get(listed.objects().size() - 1).key();
        }
    }
}
