package batchpipe.producer.listing;

import batchpipe.common.spec.RunSpec;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

class ObjectListerTest {
    private final S3Client s3 = mock(S3Client.class);
    private final ObjectLister lister = new ObjectLister(s3);

    private static S3Object object(String key, Long size) {
        return S3Object.builder().key(key).size(size).build();
    }

    private static RunSpec.ScanSource source(String suffix, Long maxObjects) {
        return new RunSpec.ScanSource("log-archive", "app/", suffix, maxObjects, List.of("level"), null);
    }

    /** Page one: a folder marker, an empty object and two real objects; page two: three real objects. */
    private void twoPages() {
        when(s3.listObjectsV2(any(ListObjectsV2Request.class))).thenReturn(
                ListObjectsV2Response.builder()
                        .contents(object("app/", 0L), object("app/a.json", 10L), object("app/empty.json", 0L),
                                object("app/b.log", 7L))
                        .isTruncated(true).nextContinuationToken("token-1").build(),
                ListObjectsV2Response.builder()
                        .contents(object("app/sub/", 0L), object("app/c.json", 5L), object("app/d.json", 3L),
                                object("app/e.txt", 1L))
                        .isTruncated(false).build());
    }

    /** The keys {@link ObjectLister#forEachScannable} visits, in order. */
    private List<String> scannableKeys(RunSpec.ScanSource source) {
        List<String> keys = new ArrayList<>();
        lister.forEachScannable(source, object -> keys.add(object.key()));
        return keys;
    }

    private List<ListObjectsV2Request> requests(int calls) {
        ArgumentCaptor<ListObjectsV2Request> captor = ArgumentCaptor.forClass(ListObjectsV2Request.class);
        verify(s3, times(calls)).listObjectsV2(captor.capture());
        return captor.getAllValues();
    }

    @Test
    void forEachScannable_pagesOnAfterTheLastKeyListedAsThePlannerDoes() {
        twoPages();

        List<String> keys = scannableKeys(source(null, null));

        assertThat(keys).containsExactly("app/a.json", "app/b.log", "app/c.json", "app/d.json", "app/e.txt");
        List<ListObjectsV2Request> requests = requests(2);
        assertThat(requests.get(0).bucket()).isEqualTo("log-archive");
        assertThat(requests.get(0).prefix()).isEqualTo("app/");
        assertThat(requests.get(0).startAfter()).isNull();
        assertThat(requests.get(1).bucket()).isEqualTo("log-archive");
        assertThat(requests.get(1).prefix()).isEqualTo("app/");
        // after the last key of page one (a scannable one or not), as PlanPager resumes planning
        assertThat(requests.get(1).startAfter()).isEqualTo("app/b.log");
    }

    @Test
    void forEachScannable_skipsFolderMarkersAndEmptyObjectsEvenWithASize() {
        when(s3.listObjectsV2(any(ListObjectsV2Request.class))).thenReturn(ListObjectsV2Response.builder()
                .contents(object("app/dir/", 12L), object("app/zero.json", 0L), object("app/nosize.json", null),
                        object("app/ok.json", 1L))
                .isTruncated(false).build());

        assertThat(scannableKeys(source(null, null))).containsExactly("app/ok.json");
    }

    @Test
    void forEachScannable_keepsOnlyKeysWithTheSuffix() {
        twoPages();

        assertThat(scannableKeys(source(".json", null))).containsExactly("app/a.json", "app/c.json", "app/d.json");
    }

    @Test
    void forEachScannable_capsAtMaxObjectsAcrossPages() {
        twoPages();

        assertThat(scannableKeys(source(null, 3L))).containsExactly("app/a.json", "app/b.log", "app/c.json");
        requests(2);
    }

    @Test
    void forEachScannable_stopsListingOnceTheCapIsReached() {
        twoPages();

        assertThat(scannableKeys(source(null, 2L))).containsExactly("app/a.json", "app/b.log");
        requests(1);
    }

    @Test
    void forEachScannable_appliesTheCapAfterTheSuffixFilter() {
        twoPages();

        assertThat(scannableKeys(source(".json", 2L))).containsExactly("app/a.json", "app/c.json");
    }

    @Test
    void forEachScannable_ofAnEmptyPrefixIsEmpty() {
        when(s3.listObjectsV2(any(ListObjectsV2Request.class))).thenReturn(ListObjectsV2Response.builder().isTruncated(false).build());

        assertThat(scannableKeys(source(null, null))).isEmpty();
    }

    @Test
    void forEachScannable_turnsNoSuchBucketIntoAnErrorNamingTheBucket() {
        when(s3.listObjectsV2(any(ListObjectsV2Request.class)))
                .thenThrow(NoSuchBucketException.builder().statusCode(404).message("The specified bucket does not exist").build());

        assertThatThrownBy(() -> scannableKeys(source(null, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bucket 'log-archive' does not exist; nothing was written or sent")
                .hasCauseInstanceOf(NoSuchBucketException.class);
    }

    @Test
    void forEachScannable_turnsAccessDeniedIntoAnErrorSayingWhatToChange() {
        when(s3.listObjectsV2(any(ListObjectsV2Request.class)))
                .thenThrow(S3Exception.builder().statusCode(403).message("Access Denied").build());

        assertThatThrownBy(() -> scannableKeys(source(null, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("access denied listing bucket 'log-archive' (the producer's role may not read it; "
                        + "deploy with ScanBucket=log-archive); nothing was written or sent");
    }

    @Test
    void forEachScannable_rethrowsOtherS3Errors() {
        S3Exception serverError = (S3Exception) S3Exception.builder().statusCode(500).message("InternalError").build();
        when(s3.listObjectsV2(any(ListObjectsV2Request.class))).thenThrow(serverError);

        assertThatThrownBy(() -> scannableKeys(source(null, null))).isSameAs(serverError);
    }
}
