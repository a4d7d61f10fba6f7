package batchpipe.aggregator.report;

import batchpipe.aggregator.Report;
import batchpipe.common.json.Json;
import batchpipe.report.Display;
import batchpipe.report.Html;
import batchpipe.report.MarkdownText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No cost, rate, duration, share or ratio in the pages a person reads (report.md, report.html, the terminal
 * summary, the comparison) shows more than {@value Display#FIGURES} significant figures, on the golden runs:
 * real runs of the local stack. The comparison is the CLI's page: its test (batchpipe.local.report.ComparisonReportTest)
 * uses this scan through the aggregator's test jar. Every number in the text is scanned; the ones allowed more figures are those
 * report.json itself holds exactly as counts (any whole number it holds: tasks, events, bytes, billed ms),
 * GB-s to 3 decimals, and the published unit prices of the price table. Text that comes from the run
 * (run id, label, countBy values, task ids, reasons, the bill's derivations) is taken out first, since
 * its digits are not figures.
 */
public class ShownPrecisionTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden");
    /** A number as the pages write one: digits with optional thousands separators and a fraction. */
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.,-])-?\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?(?![\\w])|(?<![\\w.,-])-?\\d+(?:\\.\\d+)?(?![\\w])");

    @ParameterizedTest
    @ValueSource(strings = {"golden-1", "golden-2"})
    void theMarkdownOfARealRunShowsNoFigureBeyondFourSignificantDigits(String runId) throws IOException {
        Report report = golden(runId);

        assertThat(overPrecise(MarkdownReport.render(report), report)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"golden-1", "golden-2"})
    void theHtmlOfARealRunShowsNoFigureBeyondFourSignificantDigits(String runId) throws IOException {
        Report report = golden(runId);

        assertThat(overPrecise(visibleText(HtmlReport.render(report)), report)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"golden-1", "golden-2"})
    void theTerminalSummaryOfARealRunShowsNoFigureBeyondFourSignificantDigits(String runId) throws IOException {
        Report report = golden(runId);

        assertThat(overPrecise(String.join("\n", TextSummary.lines(report)), report)).isEmpty();
    }

    @Test
    void theScanFindsAFigureWrittenAtFullPrecision() throws IOException {
        Report report = golden("golden-2");
        String fullPrecision = "Per million tasks: " + report.cost().perMillionTasks().toPlainString() + ".";

        assertThat(overPrecise(fullPrecision, report)).containsExactly(report.cost().perMillionTasks().toPlainString());
        assertThat(overPrecise("88982.196 events/s", report)).containsExactly("88982.196");
        assertThat(overPrecise("88,982 events/s", report)).containsExactly("88,982");
    }

    @Test
    void theScanLetsCountsGbSecondsAndPricesThrough() throws IOException {
        Report report = golden("golden-2");

        assertThat(overPrecise("59,974 events, 14,421,678 bytes (14.42 MB), 2.225 GB-s at $0.0000166667, 88,980 events/s", report))
                .isEmpty();
    }

    static Report golden(String runId) throws IOException {
        Path file = GOLDEN.resolve(runId).resolve("expected").resolve("report.json");
        return Report.fromJson(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /** The numbers in {@code text} with more than 4 significant digits that none of the reports hold as an exact figure. */
    public static List<String> overPrecise(String text, Report... reports) {
        Set<BigDecimal> exact = new HashSet<>();
        Set<String> texts = new HashSet<>();
        for (Report report : reports) {
            Object json = Json.parse(Json.write(report));
            collect(json, exact, texts, null);
        }
        String scanned = text;
        // longest first, so that a text holding another is taken out whole
        List<String> byLength = new ArrayList<>(texts);
        byLength.sort((x, y) -> y.length() - x.length());
        for (String t : byLength) {
            scanned = scanned.replace(t, " ").replace(Html.escape(t), " ").replace(MarkdownText.escape(t), " ");
        }
        List<String> found = new ArrayList<>();
        Matcher m = NUMBER.matcher(scanned);
        while (m.find()) {
            String token = m.group();
            BigDecimal value = new BigDecimal(token.replace(",", ""));
            if (significantDigits(token) <= Display.FIGURES) continue;
            if (exact.contains(value.stripTrailingZeros())) continue;
            found.add(token);
        }
        return found;
    }

    /** Digits from the first non-zero one to the last shown, less the trailing zeros of a whole number (1,235,000 has 4). */
    static int significantDigits(String token) {
        String digits = token.replace(",", "").replace("-", "");
        boolean whole = !digits.contains(".");
        digits = digits.replace(".", "").replaceFirst("^0+", "");
        if (whole) digits = digits.replaceFirst("0+$", "");
        return digits.length();
    }

    /**
     * Whole numbers anywhere in report.json, GB-s (to 3 decimals) and prices (exactly) are figures allowed their
     * digits; every string (and every map key, such as a countBy value) is text to take out before the scan.
     */
    @SuppressWarnings("unchecked") // report.json read back as plain JSON values
    private static void collect(Object json, Set<BigDecimal> exact, Set<String> texts, String key) {
        if (json instanceof Map<?, ?> map) {
            for (Map.Entry<String, Object> e : ((Map<String, Object>) map).entrySet()) {
                if (e.getKey().length() >= 5 && e.getKey().matches(".*\\d.*")) texts.add(e.getKey());
                collect(e.getValue(), exact, texts, e.getKey());
            }
        } else if (json instanceof Collection<?> list) {
            for (Object o : list) collect(o, exact, texts, key);
        } else if (json instanceof String s) {
            if (s.matches("(?s).*\\d.*")) texts.add(s);
        } else if (json instanceof Number n) {
            BigDecimal value = new BigDecimal(n.toString());
            if (value.stripTrailingZeros().scale() <= 0) exact.add(value.stripTrailingZeros());
            String k = key == null ? "" : key.toLowerCase();
            if (k.contains("gbseconds")) exact.add(new BigDecimal(Display.gbSeconds(value).replace(",", "")).stripTrailingZeros());
            // published prices (unitPrice, pricePerGbSecond, a volume tier's price), shown as published
            if (k.contains("price")) exact.add(value.stripTrailingZeros());
        }
    }

    /** The page's text with its markup, style and charts' coordinates taken out (chart labels and titles kept). */
    public static String visibleText(String html) {
        String text = html.replaceAll("(?s)<style>.*?</style>", " ").replaceAll("(?s)<head>.*?</head>", " ");
        // attributes hold coordinates and ids, not figures a person reads
        text = text.replaceAll("<[^>]*>", " ");
        return text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'");
    }
}
