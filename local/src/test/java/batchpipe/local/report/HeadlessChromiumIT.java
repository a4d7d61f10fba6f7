package batchpipe.local.report;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The rendering check itself must be able to fail: pages with console errors are caught. */
class HeadlessChromiumIT {
    private static HeadlessChromium chromium;

    @TempDir
    Path dir;

    @BeforeAll
    static void findChromium() {
        chromium = HeadlessChromium.find().orElse(null);
        assumeTrue(chromium != null, HeadlessChromium.MISSING);
    }

    @Test
    void render_catchesAConsoleErrorAndAnUncaughtException() throws Exception {
        Path page = dir.resolve("errors.html");
        Files.writeString(page, "<!DOCTYPE html><html><body><p>hi</p><script>console.error('boom'); notDefined();</script></body></html>");

        HeadlessChromium.Page rendered = chromium.render(page, dir, 400, 300);

        assertThat(rendered.consoleMessages()).anySatisfy(m -> assertThat(m).contains("\"boom\""))
                .anySatisfy(m -> assertThat(m).contains("Uncaught ReferenceError"));
        assertThat(rendered.dom()).contains("<p>hi</p>");
    }

    @Test
    void render_catchesALoadThatTheReportsContentSecurityPolicyBlocks() throws Exception {
        Path page = dir.resolve("external.html");
        Files.writeString(page, "<!DOCTYPE html><html><head><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"
                + " style-src 'unsafe-inline'; img-src data:\"></head><body><img src=\"https://cdn.example.invalid/chart.png\"></body></html>");

        HeadlessChromium.Page rendered = chromium.render(page, dir, 400, 300);

        assertThat(rendered.consoleMessages()).anySatisfy(m -> assertThat(m).contains("violates the following Content Security Policy"));
    }

    @Test
    void render_ofAQuietPageHasNoConsoleMessagesAndAScreenshotOfItsSize() throws Exception {
        Path page = dir.resolve("quiet.html");
        Files.writeString(page, "<!DOCTYPE html><html><body style=\"background:#2563eb\"><p>quiet</p></body></html>");

        HeadlessChromium.Page rendered = chromium.render(page, dir, 400, 300);

        assertThat(rendered.consoleMessages()).isEmpty();
        assertThat(rendered.screenshot().getWidth()).isEqualTo(400);
        assertThat(HeadlessChromium.pixelsNear(rendered.screenshot(), 0x2563eb)).isGreaterThan(400L * 300 / 2);
    }
}
