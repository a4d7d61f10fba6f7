package batchpipe.producer.listing;

import batchpipe.producer.spec.RunSpec;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.util.ArrayList;
import java.util.List;

/**
 * Lists the objects a scan source names: ListObjectsV2 page by page (1,000 keys a page), skipping folder
 * markers (keys ending in "/") and empty objects, keeping only keys with the suffix, up to maxObjects.
 */
public final class ObjectLister {
    private final S3Client s3;

    public ObjectLister(S3Client s3) {
        this.s3 = s3;
    }

    public List<String> list(RunSpec.ScanSource source) {
        List<String> keys = new ArrayList<>();
        long cap = source.maxObjects() == null ? Long.MAX_VALUE : source.maxObjects();
        String token = null;
        try {
            do {
                ListObjectsV2Response page = s3.listObjectsV2(ListObjectsV2Request.builder()
                        .bucket(source.bucket())
                        .prefix(source.prefix())
                        .continuationToken(token)
                        .build());
                for (S3Object object : page.contents()) {
                    if (keys.size() >= cap) return keys;
                    if (object.key().endsWith("/") || object.size() == null || object.size() == 0) continue;
                    if (source.suffix() != null && !object.key().endsWith(source.suffix())) continue;
                    keys.add(object.key());
                }
                token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
            } while (token != null && keys.size() < cap);
        } catch (NoSuchBucketException e) {
            throw new IllegalArgumentException("bucket '" + source.bucket() + "' does not exist; nothing was written or sent", e);
        } catch (S3Exception e) {
            if (e.statusCode() == 403) {
                throw new IllegalArgumentException("access denied listing bucket '" + source.bucket()
                        + "' (the producer's role may not read it; deploy with ScanBucket=" + source.bucket()
                        + "); nothing was written or sent", e);
            }
            throw e;
        }
        return keys;
    }
}
