package batchpipe.local.report;

import batchpipe.local.report.RunHistory.RunPoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * history.html in headless Chromium at the two widths people read it at: nothing the page's
 * Content-Security-Policy blocks (it loads nothing), its charts drawn, and the flagged run's red point on
 * screen. (Whether a column is clipped was measured by hand with element widths, see the issue 15 report.)
 */
class HistoryPageIT {
    @TempDir
    Path work;

    @Test
    void historyHtml_rendersWithoutConsoleMessagesAndShowsTheFlaggedRunAt1400And800Pixels() throws Exception {
        HeadlessChromium chromium = HeadlessChromium.find().orElse(null);
        assumeTrue(chromium != null, HeadlessChromium.MISSING);
        List<RunPoint> runs = new ArrayList<>();
        long[] p99s = {1_726, 2_012, 2_073, 4_293, 2_382, 6_433};
        for (int i = 0; i < p99s.length; i++) {
            runs.add(new RunPoint("20261201T17%02dZ-run%d".formatted(i, i), i % 2 == 0 ? "history-acceptance" : "a-much-longer-label-of-runs",
                    1_764_547_200_000L + i * 60_000L, BigDecimal.valueOf(p99s[i] / 30.0), p99s[i] - 60, p99s[i], 2.0, 6, 0, 0.833, true));
        }
        RunHistory history = RunHistory.judge(runs, 2, new BigDecimal("20"), 20, null, "out/");
        assertThat(history.flagged()).isNotEmpty();
        Path dir = work.resolve("history");
        ReportFiles.writeHistory(dir, history);

        for (int width : new int[] {1400, 800}) {
            HeadlessChromium.Page page = chromium.render(dir.resolve("history.html"), Files.createDirectories(work.resolve("chromium-" + width)),
                    width, 2600);

            assertThat(page.consoleMessages()).as("console messages at %d px", width).isEmpty();
            assertThat(page.dom()).contains("id=\"history-cost\"", "id=\"history-duration\"", "id=\"history-throughput\"", "id=\"history\"");
            assertThat(page.screenshot().getWidth()).isEqualTo(width);
            assertThat(HeadlessChromium.pixelsNear(page.screenshot(), 0xdc2626)).as("the flagged points' red at %d px", width).isGreaterThan(100);
            assertThat(HeadlessChromium.pixelsNear(page.screenshot(), 0x2563eb)).as("the cost line's blue at %d px", width).isGreaterThan(300);
        }
    }
}
