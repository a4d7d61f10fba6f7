package batchpipe.aggregator.report;

import batchpipe.aggregator.stats.RunStatistics;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MarkdownReportTest {

    private static Map<String, Object> task(String taskId, String status, long started, long finished, long hashes, String reason) {
        Map<String, Object> t = new HashMap<>(Map.of("taskId", taskId, "kind", "hash", "status", status,
                "enqueuedAt", 0L, "startedAt", started, "finishedAt", finished, "durationMs", finished - started,
                "hashes", hashes, "architecture", "arm64", "memoryMb", 1769L));
        if (reason != null) t.put("reason", reason);
        return t;
    }

    private static String render() {
        Map<String, Object> run = Map.of("label", "demo", "createdAt", 0L, "planned", Map.of("total", 2L));
        Map<String, Object> report = RunStatistics.compute("r1", run, List.of(
                task("hash-000001", "done", 0, 1_000, 10, null),
                task("hash-000002", "rejected", 1_000, 2_000, 0, "bad | input")));
        return MarkdownReport.render(report);
    }

    @Test
    void render_startsWithTheRunLabelAndStatus() {
        assertThat(render()).startsWith("# Batchpipe run r1\n\nLabel: demo\n\n"
                + "Status: **complete**, 2 tasks {done=1, rejected=1} in 2.0 s (last finishedAt - run createdAt).\n\n");
    }

    @Test
    void render_writesARowPerGroupWithThroughputAndDurations() {
        // 2 tasks and 10 hashes in 2 s; durations 1000 and 1000
        assertThat(render())
                .contains("| all | 2 | 1.0 | 0.0 | 0.0 | 5.0 | 1000 | 1000 | 1000 | 1000 |\n")
                .contains("| hash | 2 | 1.0 | 0.0 | 0.0 | 5.0 | 1000 | 1000 | 1000 | 1000 |\n")
                .contains("| arm64/1769MB | 2 | 1.0 | 0.0 | 0.0 | 5.0 | 1000 | 1000 | 1000 | 1000 |\n");
    }

    @Test
    void render_escapesPipesInProblemReasons() {
        assertThat(render()).contains("| hash-000002 | rejected | bad \\| input |\n");
    }
}
