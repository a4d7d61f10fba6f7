package batchpipe.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Charts as inline SVG: no script, no library, no network, so a report is one file that renders the
 * same anywhere, and the page can forbid every external load.
 */
public final class SvgCharts {
    public static final String[] PALETTE = {"#2563eb", "#ea580c", "#16a34a", "#9333ea", "#dc2626", "#0891b2", "#ca8a04", "#4b5563"};
    private static final int WIDTH = 760;
    private static final int HEIGHT = 340;
    private static final int LEFT = 72;
    private static final int RIGHT = 40;
    private static final int TOP = 40;
    private static final int BOTTOM = 56;

    /**
     * A cumulative distribution: {@code values[i]} is the value at percentile {@code percentiles[i]}.
     *
     * @param dashed drawn dashed, to tell apart two curves of one colour (one run's two measures)
     */
    public record Curve(String name, String color, List<Double> percentiles, List<Double> values, boolean dashed) {
        public Curve(String name, String color, List<Double> percentiles, List<Double> values) {
            this(name, color, percentiles, values, false);
        }
    }

    /** A named series of one value per category. */
    public record Series(String name, String color, List<Double> values) {
    }

    /**
     * Points joined in x order: {@code dashed} for a reference (an ideal line), {@code markersOnly} for a
     * scatter; a point's label, when given, is written next to it.
     */
    public record XySeries(String name, String color, List<double[]> points, List<String> labels, boolean dashed, boolean markersOnly) {
        public XySeries(String name, String color, List<double[]> points) {
            this(name, color, points, List.of(), false, false);
        }
    }

    private SvgCharts() {
    }

    /** Lines or points on linear axes from 0, the legend at the top left. */
    public static String xy(String id, String title, String xLabel, String yLabel, List<XySeries> series) {
        double xMax = 0, yMax = 0;
        for (XySeries s : series) {
            for (double[] p : s.points()) {
                xMax = Math.max(xMax, p[0]);
                yMax = Math.max(yMax, p[1]);
            }
        }
        double[] xTicks = ticks(Math.max(xMax * 1.08, 1e-12));
        double[] yTicks = ticks(Math.max(yMax * 1.15, 1e-12));
        double xTop = xTicks[xTicks.length - 1], yTop = yTicks[yTicks.length - 1];
        StringBuilder svg = open(id, title);
        int plotW = WIDTH - LEFT - RIGHT, plotH = HEIGHT - TOP - BOTTOM;
        yGrid(svg, yTicks, yTop);
        for (double t : xTicks) {
            double x = LEFT + plotW * t / xTop;
            svg.append(gridLine(x, TOP, x, TOP + plotH));
            svg.append(text(x, TOP + plotH + 18, "middle", number(t)));
        }
        svg.append(axes(plotW, plotH));
        svg.append(text(LEFT + plotW / 2.0, HEIGHT - 12, "middle", xLabel));
        svg.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">%s</text>",
                TOP + plotH / 2.0, TOP + plotH / 2.0, Html.escape(yLabel)));
        int legendY = TOP + 14;
        for (XySeries s : series) {
            if (s.points().isEmpty()) continue;
            List<double[]> sorted = new ArrayList<>(s.points());
            List<String> labels = s.labels();
            if (!s.markersOnly() && labels.isEmpty()) sorted.sort((a, b) -> Double.compare(a[0], b[0]));
            if (!s.markersOnly()) {
                StringBuilder path = new StringBuilder();
                for (int i = 0; i < sorted.size(); i++) {
                    path.append(i == 0 ? "M" : " L").append(fmt(LEFT + plotW * sorted.get(i)[0] / xTop)).append(',')
                            .append(fmt(TOP + plotH - plotH * sorted.get(i)[1] / yTop));
                }
                svg.append("<path class=\"curve\" fill=\"none\" stroke-width=\"2.5\" stroke=\"").append(s.color()).append('"')
                        .append(s.dashed() ? " stroke-dasharray=\"6 4\"" : "").append(" d=\"").append(path).append("\"><title>")
                        .append(Html.escape(s.name())).append("</title></path>");
            }
            if (!s.dashed()) {
                for (int i = 0; i < sorted.size(); i++) {
                    double x = LEFT + plotW * sorted.get(i)[0] / xTop, y = TOP + plotH - plotH * sorted.get(i)[1] / yTop;
                    String label = i < labels.size() ? labels.get(i) : null;
                    svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s: %s, %s</title></circle>",
                            x, y, s.color(), Html.escape(label == null ? s.name() : label), number(sorted.get(i)[0]), number(sorted.get(i)[1])));
                    if (label != null) svg.append(text(x + 7, y - 7, "start", label));
                }
            }
            legendY = legend(svg, LEFT + 14, legendY, s.color(), s.name());
        }
        return svg.append("</svg>").toString();
    }

    /** Percent of tasks (y) at or below a latency (x), as steps through the nearest-rank values, on a linear x axis. */
    public static String cdf(String id, String title, String xLabel, List<Curve> curves) {
        return cdf(id, title, xLabel, curves, false);
    }

    /**
     * Percent of tasks (y) at or below a latency (x), as steps through the nearest-rank values. On a log
     * axis the ticks are powers of ten from below the smallest value to above the largest, and a value
     * below 1 (0 ms) sits on the axis's left edge.
     */
    public static String cdf(String id, String title, String xLabel, List<Curve> curves, boolean logScale) {
        double xMax = 1, xMinPositive = Double.MAX_VALUE;
        for (Curve c : curves) {
            for (double v : c.values()) {
                xMax = Math.max(xMax, v);
                if (v >= 1) xMinPositive = Math.min(xMinPositive, v);
            }
        }
        StringBuilder svg = open(id, title);
        int plotW = WIDTH - LEFT - RIGHT, plotH = HEIGHT - TOP - BOTTOM;
        java.util.function.DoubleUnaryOperator toX;
        double[] xTicks;
        if (logScale) {
            int lo = (int) Math.floor(Math.log10(xMinPositive == Double.MAX_VALUE ? 1 : xMinPositive));
            int hi = Math.max(lo + 1, (int) Math.ceil(Math.log10(xMax)));
            xTicks = new double[hi - lo + 1];
            for (int i = 0; i < xTicks.length; i++) xTicks[i] = Math.pow(10, lo + i);
            double span = hi - lo;
            toX = v -> LEFT + plotW * (Math.log10(Math.max(v, Math.pow(10, lo))) - lo) / span;
        } else {
            xTicks = ticks(xMax);
            double xTop = xTicks[xTicks.length - 1];
            toX = v -> LEFT + plotW * v / xTop;
        }
        for (int p = 0; p <= 100; p += 25) {
            double y = TOP + plotH - plotH * p / 100.0;
            svg.append(gridLine(LEFT, y, LEFT + plotW, y));
            svg.append(text(LEFT - 8, y + 4, "end", p + "%"));
        }
        for (double t : xTicks) {
            double x = toX.applyAsDouble(t);
            svg.append(gridLine(x, TOP, x, TOP + plotH));
            svg.append(text(x, TOP + plotH + 18, "middle", number(t)));
        }
        svg.append(axes(plotW, plotH));
        svg.append(text(LEFT + plotW / 2.0, HEIGHT - 12, "middle", xLabel));
        svg.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">tasks at or below</text>",
                TOP + plotH / 2.0, TOP + plotH / 2.0));
        // CDF curves rise from left to right, so the bottom right of the plot is where they are not.
        int drawn = (int) curves.stream().filter(c -> !c.values().isEmpty()).count();
        int legendY = TOP + plotH - 10 - 20 * (drawn - 1);
        for (Curve c : curves) {
            if (c.values().isEmpty()) continue;
            StringBuilder path = new StringBuilder();
            double previousY = TOP + plotH;
            for (int i = 0; i < c.values().size(); i++) {
                double x = toX.applyAsDouble(c.values().get(i));
                double y = TOP + plotH - plotH * c.percentiles().get(i) / 100.0;
                path.append(i == 0 ? "M" : " L").append(fmt(x)).append(',').append(fmt(previousY));
                path.append(" L").append(fmt(x)).append(',').append(fmt(y));
                previousY = y;
            }
            svg.append("<path class=\"curve\" fill=\"none\" stroke-width=\"2.5\" stroke=\"").append(c.color())
                    .append(c.dashed() ? "\" stroke-dasharray=\"7 4" : "").append("\" d=\"")
                    .append(path).append("\"><title>").append(Html.escape(c.name())).append("</title></path>");
            legendY = c.dashed() ? dashedLegend(svg, LEFT + plotW - 190, legendY, c.color(), c.name())
                    : legend(svg, LEFT + plotW - 190, legendY, c.color(), c.name());
        }
        return svg.append("</svg>").toString();
    }

    /** Vertical bars per category, the series stacked. */
    public static String stackedBars(String id, String title, String xLabel, String yLabel, List<String> categories, List<Series> series) {
        return stackedBars(id, title, xLabel, yLabel, categories, series, null);
    }

    /**
     * A span of the x axis shaded behind the bars, in bar slots (0 is the left edge of the first bar's slot, n the
     * right edge of the last): a phase of the run, such as its planning.
     */
    public record Band(double fromSlot, double toSlot, String label) {
    }

    /** {@link #stackedBars(String, String, String, String, List, List)} with {@code band} (null: none) shaded behind the bars. */
    public static String stackedBars(String id, String title, String xLabel, String yLabel, List<String> categories, List<Series> series,
                                     Band band) {
        int n = categories.size();
        double yMax = 0;
        for (int i = 0; i < n; i++) {
            double sum = 0;
            for (Series s : series) sum += s.values().get(i);
            yMax = Math.max(yMax, sum);
        }
        // Headroom above the tallest bar keeps the legend (top right) clear of the bars.
        double[] yTicks = ticks(Math.max(yMax * 1.25, 1e-9));
        double yTop = yTicks[yTicks.length - 1];
        StringBuilder svg = open(id, title);
        int plotW = WIDTH - LEFT - RIGHT, plotH = HEIGHT - TOP - BOTTOM;
        yGrid(svg, yTicks, yTop);
        double slot = plotW / (double) Math.max(1, n);
        double barW = Math.max(1, slot * 0.8);
        int labelEvery = Math.max(1, (int) Math.ceil(n / 12.0));
        if (band != null && n > 0) {
            double from = LEFT + slot * Math.max(0, Math.min(n, band.fromSlot()));
            double to = LEFT + slot * Math.max(0, Math.min(n, band.toSlot()));
            if (to > from) {
                svg.append(String.format(Locale.ROOT, "<rect class=\"band\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#9ca3af\""
                        + " fill-opacity=\"0.18\"><title>%s</title></rect>", from, TOP, Math.max(1.5, to - from), plotH, Html.escape(band.label())));
                svg.append(text(from + 4, TOP + 14, "start", band.label()));
            }
        }
        for (int i = 0; i < n; i++) {
            double x = LEFT + slot * i + (slot - barW) / 2;
            double base = TOP + plotH;
            for (Series s : series) {
                double v = s.values().get(i);
                if (v <= 0) continue;
                double h = plotH * v / yTop;
                base -= h;
                svg.append(String.format(Locale.ROOT, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s, %s: %s</title></rect>",
                        x, base, barW, h, s.color(), Html.escape(categories.get(i)), Html.escape(s.name()), number(v)));
            }
            if (i % labelEvery == 0) svg.append(text(x + barW / 2, TOP + plotH + 18, "middle", categories.get(i)));
        }
        svg.append(axes(plotW, plotH));
        svg.append(text(LEFT + plotW / 2.0, HEIGHT - 12, "middle", xLabel));
        svg.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">%s</text>",
                TOP + plotH / 2.0, TOP + plotH / 2.0, Html.escape(yLabel)));
        int legendY = TOP + 14;
        for (Series s : series) legendY = legend(svg, LEFT + plotW - 170, legendY, s.color(), s.name());
        return svg.append("</svg>").toString();
    }

    /** One horizontal bar per row, the series stacked, the row's total written after it. */
    public static String horizontalStackedBars(String id, String title, String valueLabel, List<String> rows, List<Series> series,
                                               List<String> totals) {
        double xMax = 0;
        for (int r = 0; r < rows.size(); r++) {
            double sum = 0;
            for (Series s : series) sum += s.values().get(r);
            xMax = Math.max(xMax, sum);
        }
        double[] xTicks = ticks(Math.max(xMax, 1e-12));
        double xTop = xTicks[xTicks.length - 1];
        int left = 230, right = 150;
        int rowH = 46;
        int legendH = 22 * ((series.size() + 2) / 3);
        int height = TOP + rows.size() * rowH + 40 + legendH;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg id=\"%s\" class=\"chart\" role=\"img\" viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\">",
                id, WIDTH, height));
        svg.append("<title>").append(Html.escape(title)).append("</title>");
        svg.append(text(WIDTH / 2.0, 22, "middle", title, "chart-title"));
        int plotW = WIDTH - left - right;
        int plotBottom = TOP + rows.size() * rowH;
        for (double t : xTicks) {
            double x = left + plotW * t / xTop;
            svg.append(gridLine(x, TOP, x, plotBottom));
            svg.append(text(x, plotBottom + 16, "middle", number(t)));
        }
        svg.append(text(left + plotW / 2.0, plotBottom + 34, "middle", valueLabel));
        for (int r = 0; r < rows.size(); r++) {
            double y = TOP + r * rowH + 8;
            double x = left;
            for (Series s : series) {
                double v = s.values().get(r);
                if (v <= 0) continue;
                double w = plotW * v / xTop;
                svg.append(String.format(Locale.ROOT, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s, %s: %s</title></rect>",
                        x, y, w, rowH - 16, s.color(), Html.escape(rows.get(r)), Html.escape(s.name()), number(v)));
                x += w;
            }
            svg.append(text(left - 8, y + (rowH - 16) / 2.0 + 4, "end", rows.get(r)));
            svg.append(text(x + 6, y + (rowH - 16) / 2.0 + 4, "start", totals.get(r)));
        }
        svg.append(String.format(Locale.ROOT, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", left, TOP, left, plotBottom));
        for (int i = 0; i < series.size(); i++) {
            int lx = 40 + (i % 3) * 240, ly = plotBottom + 56 + (i / 3) * 22;
            legend(svg, lx, ly, series.get(i).color(), series.get(i).name());
        }
        return svg.append("</svg>").toString();
    }

    /** Round tick values from 0 to at least {@code max}: steps of 1, 2 or 5 times a power of ten, 4 to 8 of them. */
    public static double[] ticks(double max) {
        double raw = max / 5;
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = magnitude;
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * magnitude >= raw) {
                step = m * magnitude;
                break;
            }
        }
        int count = (int) Math.ceil(max / step - 1e-9);
        double[] ticks = new double[count + 1];
        for (int i = 0; i <= count; i++) ticks[i] = step * i;
        return ticks;
    }

    /** A tick or bar value: integers plainly, small amounts to 3 significant figures. */
    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return String.format(Locale.ROOT, "%,d", (long) v);
        if (Math.abs(v) >= 100) return String.format(Locale.ROOT, "%,.0f", v);
        return new java.math.BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** The value axis: a grid line and a label at each tick, from the plot's bottom (0) to {@code yTop}. */
    private static void yGrid(StringBuilder svg, double[] yTicks, double yTop) {
        int plotW = WIDTH - LEFT - RIGHT, plotH = HEIGHT - TOP - BOTTOM;
        for (double t : yTicks) {
            double y = TOP + plotH - plotH * t / yTop;
            svg.append(gridLine(LEFT, y, LEFT + plotW, y));
            svg.append(text(LEFT - 8, y + 4, "end", number(t)));
        }
    }

    private static StringBuilder open(String id, String title) {
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg id=\"%s\" class=\"chart\" role=\"img\" viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\">",
                id, WIDTH, HEIGHT));
        svg.append("<title>").append(Html.escape(title)).append("</title>");
        svg.append(text(WIDTH / 2.0, 22, "middle", title, "chart-title"));
        return svg;
    }

    private static String axes(int plotW, int plotH) {
        return String.format(Locale.ROOT, "<path class=\"axis\" fill=\"none\" d=\"M%d,%d V%d H%d\"/>", LEFT, TOP, TOP + plotH, LEFT + plotW);
    }

    private static int legend(StringBuilder svg, double x, int y, String color, String name) {
        svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>", x, y - 11, color));
        svg.append(text(x + 20, y, "start", name));
        return y + 20;
    }

    private static int dashedLegend(StringBuilder svg, double x, int y, String color, String name) {
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2.5\" stroke-dasharray=\"5 3\"/>",
                x, y - 4, x + 14, y - 4, color));
        svg.append(text(x + 20, y, "start", name));
        return y + 20;
    }

    private static String gridLine(double x1, double y1, double x2, double y2) {
        return String.format(Locale.ROOT, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x1, y1, x2, y2);
    }

    private static String text(double x, double y, String anchor, String content) {
        return text(x, y, anchor, content, null);
    }

    private static String text(double x, double y, String anchor, String content, String cssClass) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>%s</text>", x, y, anchor,
                cssClass == null ? "" : " class=\"" + cssClass + "\"", Html.escape(content));
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    public static List<Double> doubles(List<?> values) {
        List<Double> out = new ArrayList<>();
        for (Object v : values) out.add(v instanceof Number n ? n.doubleValue() : 0.0);
        return out;
    }
}
