package batchpipe.local.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads tasks.csv back as RFC 4180 defines it, one map per row: records end in CRLF; a field is either
 * plain (no quote, comma, CR or LF) or quoted, where commas and line breaks are data and a quote is
 * doubled. Anything else (a quote inside a plain field, text after a closing quote, a bare CR or LF, a
 * row whose field count differs from the header's) is an error, so a file that only looks right fails.
 */
public final class CsvRows {
    private CsvRows() {
    }

    public static List<Map<String, String>> parse(String csv) {
        List<List<String>> records = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        int i = 0;
        while (i < csv.length()) {
            if (csv.charAt(i) == '"') {
                i++;
                while (true) {
                    if (i >= csv.length()) throw new IllegalArgumentException("quoted field not closed before the end");
                    char c = csv.charAt(i++);
                    if (c != '"') {
                        field.append(c);
                    } else if (i < csv.length() && csv.charAt(i) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        break;
                    }
                }
            } else {
                while (i < csv.length() && csv.charAt(i) != ',' && csv.charAt(i) != '\r') {
                    char c = csv.charAt(i++);
                    if (c == '"' || c == '\n') {
                        throw new IllegalArgumentException("unquoted field holds " + (c == '"' ? "a quote" : "LF") + " at offset " + (i - 1));
                    }
                    field.append(c);
                }
            }
            record.add(field.toString());
            field.setLength(0);
            if (i >= csv.length()) throw new IllegalArgumentException("the last record does not end in CRLF");
            char after = csv.charAt(i);
            if (after == ',') {
                i++;
            } else if (after == '\r' && i + 1 < csv.length() && csv.charAt(i + 1) == '\n') {
                records.add(record);
                record = new ArrayList<>();
                i += 2;
            } else {
                throw new IllegalArgumentException("expected a comma or CRLF after a field at offset " + i);
            }
        }
        List<String> header = records.get(0);
        List<Map<String, String>> rows = new ArrayList<>();
        for (List<String> r : records.subList(1, records.size())) {
            if (r.size() != header.size()) throw new IllegalStateException("row of " + r.size() + " fields, header has " + header.size());
            Map<String, String> row = new LinkedHashMap<>();
            for (int f = 0; f < header.size(); f++) row.put(header.get(f), r.get(f));
            rows.add(row);
        }
        return rows;
    }
}
