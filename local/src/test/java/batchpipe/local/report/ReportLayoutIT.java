package batchpipe.local.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.report.HtmlReport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * report.html of both golden runs (real runs of the local stack) and their compare.html, opened in
 * headless Chromium at 1,400 px by {@code bin/check-report-layout.mjs}, which measures every table, chart
 * and the page itself (scrollWidth against clientWidth): no column is clipped or scrolled away. Also
 * measured at 800 px and printed, not asserted. Skipped, saying why, without Chromium or Node.
 * The pages and their screenshots stay in {@code target/report-layout/} to look at.
 */
class ReportLayoutIT {
    private static final Path GOLDEN = Path.of("../aggregator/src/test/resources/golden");
    private static final Path SCRIPT = Path.of("../bin/check-report-layout.mjs");
    private static final Path OUT = Path.of("target/report-layout");

    @Test
    void reportAndComparePagesFitA1400PixelWindow() throws Exception {
        Assumptions.assumeTrue(HeadlessChromium.find().isPresent(), HeadlessChromium.MISSING);
        Assumptions.assumeTrue(nodeRuns(), "node (20.10+) is not on PATH; the layout check is skipped");
        Files.createDirectories(OUT);
        Report a = golden("golden-1"), b = golden("golden-2");
        List<String> pages = new ArrayList<>();
        for (Report report : List.of(a, b)) {
            Path page = OUT.resolve(report.runId() + "-report.html");
            Files.writeString(page, HtmlReport.render(report), StandardCharsets.UTF_8);
            pages.add(page.toString());
        }
        Path compare = OUT.resolve("compare.html");
        Files.writeString(compare, ComparisonReport.html(a, b), StandardCharsets.UTF_8);
        pages.add(compare.toString());

        List<String> command = new ArrayList<>(List.of("node", "--experimental-websocket", SCRIPT.toString(), "--widths", "1400,800",
                "--must-fit", "1400", "--screenshots", OUT.resolve("screenshots").toString()));
        HeadlessChromium.find().ifPresent(c -> command.addAll(List.of("--chromium", c.executable().toString())));
        command.addAll(pages);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the layout check finished").isTrue();
        System.out.println(output);

        assertThat(output).contains("report.html at 1400 px", "compare.html at 1400 px");
        assertThat(process.exitValue()).as(output).isZero();
    }

    private static Report golden(String runId) throws IOException {
        Path file = GOLDEN.resolve(runId).resolve("expected/report.json");
        return Report.fromJson(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    private static boolean nodeRuns() {
        try {
            Process p = new ProcessBuilder("node", "--experimental-websocket", "-e", "process.exit(typeof WebSocket === 'function' ? 0 : 1)")
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
