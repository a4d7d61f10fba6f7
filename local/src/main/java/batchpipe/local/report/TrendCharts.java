package batchpipe.local.report;

import batchpipe.report.Html;
import batchpipe.report.SvgCharts;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A figure over a sequence of runs, as inline SVG like {@link SvgCharts} (whose tick and number rules it
 * shares): one point per run joined by a line, the runs that a regression flag names drawn as larger red
 * points, so the trend and the flagged run are seen together.
 */
final class TrendCharts {
    static final String FLAG_COLOUR = "#dc2626";
    private static final int WIDTH = 760;
    private static final int HEIGHT = 320;
    private static final int LEFT = 84;
    private static final int RIGHT = 32;
    private static final int TOP = 40;
    private static final int BOTTOM = 56;

    /** A named line: one value per run, null where the run has none (the line breaks there). */
    record Line(String name, String color, List<Double> values) {
    }

    private TrendCharts() {
    }

    /**
     * @param runs    the x axis: one label per run, oldest first
     * @param flagged indexes of runs whose point on the first line a flag names
     * @param format  how a value is written on the y axis and in each point's tooltip
     */
    static String trend(String id, String title, String yLabel, List<String> runs, List<Line> lines, Set<Integer> flagged,
                        java.util.function.DoubleFunction<String> format) {
        double yMax = 0;
        for (Line line : lines) for (Double v : line.values()) if (v != null) yMax = Math.max(yMax, v);
        // Headroom above the highest point keeps the legend (top left) clear of the lines.
        double[] yTicks = SvgCharts.ticks(Math.max(yMax * 1.2, 1e-9));
        double yTop = yTicks[yTicks.length - 1];
        int plotW = WIDTH - LEFT - RIGHT, plotH = HEIGHT - TOP - BOTTOM;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg id=\"%s\" class=\"chart\" role=\"img\" viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\">",
                id, WIDTH, HEIGHT));
        svg.append("<title>").append(Html.escape(title)).append("</title>");
        svg.append(text(WIDTH / 2.0, 22, "middle", title, " class=\"chart-title\""));
        for (double t : yTicks) {
            double y = TOP + plotH - plotH * t / yTop;
            svg.append(String.format(Locale.ROOT, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>", LEFT, y, LEFT + plotW, y));
            svg.append(text(LEFT - 8, y + 4, "end", format.apply(t), ""));
        }
        int n = runs.size();
        double slot = plotW / (double) Math.max(1, n);
        int labelEvery = Math.max(1, (int) Math.ceil(n / 15.0));
        for (int i = 0; i < n; i++) {
            if (i % labelEvery == 0 || i == n - 1) svg.append(text(x(i, slot), TOP + plotH + 18, "middle", runs.get(i), ""));
        }
        svg.append(String.format(Locale.ROOT, "<path class=\"axis\" fill=\"none\" d=\"M%d,%d V%d H%d\"/>", LEFT, TOP, TOP + plotH, LEFT + plotW));
        svg.append(text(LEFT + plotW / 2.0, HEIGHT - 12, "middle", "runs, oldest first", ""));
        svg.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">%s</text>",
                TOP + plotH / 2.0, TOP + plotH / 2.0, Html.escape(yLabel)));
        int legendY = TOP + 14;
        for (int l = 0; l < lines.size(); l++) {
            Line line = lines.get(l);
            StringBuilder path = new StringBuilder();
            boolean penDown = false;
            for (int i = 0; i < n; i++) {
                Double v = line.values().get(i);
                if (v == null) {
                    penDown = false;
                    continue;
                }
                path.append(penDown ? " L" : (path.isEmpty() ? "M" : " M")).append(fmt(x(i, slot))).append(',').append(fmt(y(v, yTop, plotH)));
                penDown = true;
            }
            if (!path.isEmpty()) {
                svg.append("<path class=\"curve\" fill=\"none\" stroke-width=\"2\" stroke=\"").append(line.color()).append("\" d=\"")
                        .append(path).append("\"/>");
            }
            for (int i = 0; i < n; i++) {
                Double v = line.values().get(i);
                if (v == null) continue;
                boolean flag = l == 0 && flagged.contains(i);
                svg.append(String.format(Locale.ROOT, "<circle class=\"%s\" cx=\"%s\" cy=\"%s\" r=\"%d\" fill=\"%s\"><title>%s, %s: %s%s</title></circle>",
                        flag ? "point flagged" : "point", fmt(x(i, slot)), fmt(y(v, yTop, plotH)), flag ? 7 : 4, flag ? FLAG_COLOUR : line.color(),
                        Html.escape(runs.get(i)), Html.escape(line.name()), Html.escape(format.apply(v)), flag ? " (flagged)" : ""));
            }
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>", LEFT + 12, legendY - 11, line.color()));
            svg.append(text(LEFT + 32, legendY, "start", line.name(), ""));
            legendY += 20;
        }
        if (!flagged.isEmpty()) {
            svg.append(String.format(Locale.ROOT, "<circle cx=\"%d\" cy=\"%d\" r=\"7\" fill=\"%s\"/>", LEFT + 19, legendY - 4, FLAG_COLOUR));
            svg.append(text(LEFT + 32, legendY, "start", "flagged run", ""));
        }
        return svg.append("</svg>").toString();
    }

    private static double x(int i, double slot) {
        return LEFT + slot * i + slot / 2;
    }

    private static double y(double v, double yTop, int plotH) {
        return TOP + plotH - plotH * v / yTop;
    }

    private static String text(double x, double y, String anchor, String content, String attributes) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>%s</text>", x, y, anchor, attributes,
                Html.escape(content));
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
