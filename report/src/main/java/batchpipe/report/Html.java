package batchpipe.report;

/** HTML text escaping: every value a report prints (run labels, log field values) is untrusted text. */
public final class Html {
    private Html() {
    }

    public static String escape(Object value) {
        String s = String.valueOf(value);
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<', '>', '&' -> out.append(markupEntity(c));
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * The entity for {@code <}, {@code >} or {@code &}: the characters that open a tag, a comment or an
     * entity, in HTML and in the HTML that Markdown passes through alike ({@link MarkdownText} escapes them
     * with this too, so both write them the same way).
     */
    static String markupEntity(char c) {
        return switch (c) {
            case '<' -> "&lt;";
            case '>' -> "&gt;";
            case '&' -> "&amp;";
            default -> throw new IllegalArgumentException("not a markup character: " + c);
        };
    }

    /**
     * The page's head: a Content-Security-Policy that allows no script and no load from anywhere, so the
     * file is self-contained by construction (a stray external reference would show as a console error).
     */
    public static String head(String title) {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<title>" + escape(title) + "</title>\n<style>\n" + STYLE + "</style>\n</head>\n<body>\n";
    }

    static final String STYLE = """
            body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 24px auto; max-width: 1100px; color: #111827; padding: 0 16px; }
            h1 { font-size: 26px; margin-bottom: 4px; } h2 { font-size: 20px; margin-top: 32px; border-bottom: 1px solid #e5e7eb; padding-bottom: 4px; }
            .sub { color: #4b5563; margin-top: 0; }
            .cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
            .card { border: 1px solid #e5e7eb; border-radius: 8px; padding: 10px 14px; min-width: 150px; }
            .card .v { font-size: 20px; font-weight: 600; } .card .k { color: #6b7280; font-size: 13px; }
            .charts { display: grid; grid-template-columns: minmax(0, 1fr); gap: 18px; }
            svg.chart { width: 100%; height: auto; box-sizing: border-box; border: 1px solid #e5e7eb; border-radius: 8px; background: #fff; }
            svg.chart text { font-size: 13px; fill: #374151; } svg.chart .chart-title { font-size: 15px; font-weight: 600; fill: #111827; }
            svg.chart .curve { stroke-linejoin: round; }
            svg.chart .grid { stroke: #e5e7eb; stroke-width: 1; } svg.chart .axis { stroke: #6b7280; stroke-width: 1.2; }
            table { border-collapse: collapse; margin: 10px 0; font-size: 14px; display: block; max-width: 100%; overflow-x: auto; }
            th, td { border: 1px solid #e5e7eb; padding: 4px 8px; text-align: left; vertical-align: top; }
            td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; } td.n { white-space: nowrap; }
            td code { white-space: normal; overflow-wrap: break-word; }
            th { background: #f9fafb; } .note { color: #4b5563; font-size: 13px; } code { font-size: 13px; }
            .projected { color: #b45309; font-weight: 600; } .measured { color: #15803d; font-weight: 600; }
            .projected-note { color: #b45309; font-size: 12px; white-space: normal; }
            .local-run { border-left: 4px solid #b45309; background: #fffbeb; padding: 8px 12px; margin: 8px 0 12px; }
            .scale-toggle > input { margin-left: 0; } .scale-toggle > label { margin-right: 14px; font-size: 14px; color: #374151; }
            .scale-toggle .cdf-log { display: none; }
            #cdf-scale-log:checked ~ .cdf-log { display: block; } #cdf-scale-log:checked ~ .cdf-linear { display: none; }
            @media (max-width: 900px) { body { margin: 12px auto; padding: 0 8px; } table { font-size: 13px; } th, td { padding: 3px 4px; } }
            """;
}
