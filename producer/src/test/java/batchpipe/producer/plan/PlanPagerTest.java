package batchpipe.producer.plan;

import batchpipe.common.run.PlanCursor;
import batchpipe.common.spec.RunSpec;
import batchpipe.common.task.Task;
import batchpipe.producer.listing.ObjectLister;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

class PlanPagerTest {
    private static final Instant NOW = Instant.parse("2026-11-30T01:02:03Z");
    private final ObjectLister lister = mock(ObjectLister.class);
    private final PlanPager pager = new PlanPager(lister);

    private static ObjectLister.ListedPage listed(boolean truncated, String... keys) {
        List<S3Object> objects = new ArrayList<>();
        for (String key : keys) objects.add(S3Object.builder().key(key).size(key.endsWith("/") ? 0L : 10L).build());
        return new ObjectLister.ListedPage(objects, truncated);
    }

    @Test
    void aSourceStopsAtItsMaxObjectsAcrossPagesAndALaterOverlappingSourcePlansTheKeysAfterThatOnly() {
        RunSpec.ScanSource capped = new RunSpec.ScanSource("b", "logs/", null, 3L, List.of("level"), null);
        RunSpec.ScanSource wider = new RunSpec.ScanSource("b", "logs/", null, null, List.of("level"), null);
        RunSpec spec = new RunSpec("r1", null, List.of(capped, wider), null);
        when(lister.page(capped, null)).thenReturn(listed(true, "logs/a", "logs/b"));
        when(lister.page(capped, "logs/b")).thenReturn(listed(true, "logs/c", "logs/d"));
        when(lister.page(wider, null)).thenReturn(listed(false, "logs/a", "logs/b", "logs/c", "logs/d", "logs/e"));

        PlanPager.Page first = pager.page("r1", spec, PlanCursor.START, NOW);
        PlanPager.Page second = pager.page("r1", spec, first.next(), NOW);
        PlanPager.Page third = pager.page("r1", spec, second.next(), NOW);

        assertThat(first.tasks()).hasSize(2);
        assertThat(first.next()).isEqualTo(new PlanCursor(1, 0, "logs/b", 2, 2, 0, 1, Map.of()));
        assertThat(second.tasks()).hasSize(1);
        assertThat(second.next()).isEqualTo(new PlanCursor(2, 1, null, 0, 3, 0, 2, Map.of(0, "logs/c")));
        assertThat(third.tasks()).extracting(t -> ((batchpipe.common.task.ScanTask) t).key()).containsExactly("logs/d", "logs/e");
        assertThat(PlanPager.done(spec, third.next())).isTrue();
        assertThat(third.next().scan()).isEqualTo(5);
    }

    @Test
    void hashBatchesComeAThousandAPageWithTheirShardsNumberedOnFromTheScans() {
        RunSpec spec = new RunSpec("r1", null, List.of(), new RunSpec.HashSpec(2_500, 2, 4, "pw_"));

        PlanPager.Page first = pager.page("r1", spec, PlanCursor.START, NOW);
        PlanPager.Page second = pager.page("r1", spec, first.next(), NOW);
        PlanPager.Page third = pager.page("r1", spec, second.next(), NOW);

        assertThat(List.of(first, second, third)).extracting(p -> p.tasks().size()).containsExactly(1_000, 1_000, 500);
        assertThat(first.tasks().get(0).taskId()).isEqualTo("hash-000001");
        assertThat(third.tasks().get(499).taskId()).isEqualTo("hash-002500");
        assertThat(first.shards().count()).isEqualTo(2);
        assertThat(second.shards().firstShard()).isEqualTo(2);
        assertThat(third.shards()).isEqualTo(new batchpipe.common.table.ProgressShards.PageShards(4, 1));
        assertThat(third.next()).isEqualTo(new PlanCursor(3, 1, null, 0, 0, 2_500, 5, Map.of()));
        assertThat(PlanPager.done(spec, third.next())).isTrue();
        assertThat(third.tasks()).extracting(Task::runId).containsOnly("r1");
    }

    @Test
    void s3sOrderIsTheBinaryOrderOfUtf8NotJavasOrder() {
        // U+FF5E (UTF-8 EF BD 9E) sorts before U+1F600 (F0 9F 98 80) in S3, after it in UTF-16 (FF5E > D83D)
        assertThat(PlanPager.compareAsS3Does("\uFF5E", "\uD83D\uDE00")).isNegative();
        assertThat("\uFF5E".compareTo("\uD83D\uDE00")).isPositive();
    }
}
