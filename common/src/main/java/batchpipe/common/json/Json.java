package batchpipe.common.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Strict JSON (RFC 8259) for control-plane documents: task messages, run specs, reports.
 *
 * <p>Parsing yields {@code Map<String,Object>} (insertion-ordered), {@code List<Object>}, {@code String},
 * {@code Long} for integers that fit, {@code BigDecimal} for other numbers, {@code Boolean} and {@code null}.
 * It rejects duplicate keys, trailing content and nesting deeper than {@link #MAX_DEPTH}, so a hostile
 * message cannot exhaust the stack. The hot path (scanning log lines) does not use this class.
 */
public final class Json {
    public static final int MAX_DEPTH = 64;

    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    public static Object parse(String text) {
        Json parser = new Json(text);
        parser.skipWhitespace();
        Object value = parser.readValue(0);
        parser.skipWhitespace();
        if (parser.pos != text.length()) {
            throw parser.error("unexpected content after the JSON value");
        }
        return value;
    }

    /** Parses a document that must be a JSON object. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) {
        Object value = parse(text);
        if (!(value instanceof Map)) {
            throw new JsonException("expected a JSON object, got " + typeName(value));
        }
        return (Map<String, Object>) value;
    }

    public static String typeName(Object value) {
        if (value == null) return "null";
        if (value instanceof Map) return "an object";
        if (value instanceof List) return "an array";
        if (value instanceof String) return "a string";
        if (value instanceof Boolean) return "a boolean";
        if (value instanceof Number) return "a number";
        return value.getClass().getSimpleName();
    }

    /** {@code depth} = containers already open around this value. */
    private Object readValue(int depth) {
        if (pos >= text.length()) {
            throw error("unexpected end of input");
        }
        char c = text.charAt(pos);
        if ((c == '{' || c == '[') && depth >= MAX_DEPTH) {
            throw error("nesting deeper than " + MAX_DEPTH + " levels");
        }
        switch (c) {
            case '{':
                return readObject(depth);
            case '[':
                return readArray(depth);
            case '"':
                return readString();
            case 't':
                expectWord("true");
                return Boolean.TRUE;
            case 'f':
                expectWord("false");
                return Boolean.FALSE;
            case 'n':
                expectWord("null");
                return null;
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return readNumber();
                }
                throw error("unexpected character '" + c + "'");
        }
    }

    private Map<String, Object> readObject(int depth) {
        pos++; // {
        Map<String, Object> result = new LinkedHashMap<>();
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            return result;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("expected a quoted field name");
            }
            int keyAt = pos;
            String key = readString();
            skipWhitespace();
            expect(':');
            skipWhitespace();
            Object value = readValue(depth + 1);
            if (result.containsKey(key)) {
                pos = keyAt;
                throw error("duplicate field \"" + key + "\"");
            }
            result.put(key, value);
            skipWhitespace();
            char c = peek();
            pos++;
            if (c == '}') {
                return result;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> readArray(int depth) {
        pos++; // [
        List<Object> result = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            return result;
        }
        while (true) {
            skipWhitespace();
            result.add(readValue(depth + 1));
            skipWhitespace();
            char c = peek();
            pos++;
            if (c == ']') {
                return result;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or ']'");
            }
        }
    }

    private String readString() {
        pos++; // opening quote
        StringBuilder out = null;
        int start = pos;
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos);
            if (c == '"') {
                String tail = text.substring(start, pos);
                pos++;
                return out == null ? tail : out.append(tail).toString();
            }
            if (c < 0x20) {
                throw error("unescaped control character in string");
            }
            if (c == '\\') {
                if (out == null) out = new StringBuilder();
                out.append(text, start, pos);
                pos++;
                out.append(readEscape());
                start = pos;
                continue;
            }
            pos++;
        }
    }

    private char readEscape() {
        if (pos >= text.length()) throw error("unterminated escape");
        char c = text.charAt(pos++);
        switch (c) {
            case '"': return '"';
            case '\\': return '\\';
            case '/': return '/';
            case 'b': return '\b';
            case 'f': return '\f';
            case 'n': return '\n';
            case 'r': return '\r';
            case 't': return '\t';
            case 'u':
                if (pos + 4 > text.length()) throw error("truncated \\u escape");
                int code = 0;
                for (int i = 0; i < 4; i++) {
                    char hex = text.charAt(pos++);
                    // RFC 8259 allows ASCII hex digits only (Character.digit would take any script's digits).
                    int digit = hex < 128 ? Character.digit(hex, 16) : -1;
                    if (digit < 0) throw error("invalid \\u escape");
                    code = code * 16 + digit;
                }
                return (char) code;
            default:
                pos--;
                throw error("invalid escape '\\" + c + "'");
        }
    }

    private Number readNumber() {
        int start = pos;
        if (peek() == '-') pos++;
        if (peek() == '0') {
            pos++;
        } else if (isDigit(peek())) {
            while (isDigit(peek())) pos++;
        } else {
            throw error("invalid number");
        }
        boolean integral = true;
        if (peek() == '.') {
            integral = false;
            pos++;
            if (!isDigit(peek())) throw error("invalid number: digits expected after '.'");
            while (isDigit(peek())) pos++;
        }
        if (peek() == 'e' || peek() == 'E') {
            integral = false;
            pos++;
            if (peek() == '+' || peek() == '-') pos++;
            if (!isDigit(peek())) throw error("invalid number: digits expected in exponent");
            while (isDigit(peek())) pos++;
        }
        String literal = text.substring(start, pos);
        if (integral) {
            BigInteger big = new BigInteger(literal);
            if (big.bitLength() < 64) {
                return big.longValue();
            }
        }
        return new BigDecimal(literal);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private void expectWord(String word) {
        if (!text.startsWith(word, pos)) {
            throw error("invalid literal");
        }
        pos += word.length();
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void skipWhitespace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                pos++;
            } else {
                return;
            }
        }
    }

    private JsonException error(String what) {
        return new JsonException("invalid JSON at offset " + pos + ": " + what);
    }

    // ---- writing -------------------------------------------------------------------------

    /** Compact JSON of maps, lists, strings, numbers, booleans, nulls and records of those. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder(256);
        writeTo(out, value);
        return out.toString();
    }

    /** Indented JSON for files people read. */
    public static String writePretty(Object value) {
        StringBuilder out = new StringBuilder(1024);
        writePrettyTo(out, value, 0);
        return out.append('\n').toString();
    }

    public static void writeTo(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String s) {
            quote(out, s);
        } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long
                || value instanceof BigInteger || value instanceof Short || value instanceof Byte) {
            out.append(value);
        } else if (value instanceof BigDecimal d) {
            out.append(d.toPlainString());
        } else if (value instanceof Number n) {
            writeFloating(out, n.doubleValue());
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) out.append(',');
                first = false;
                quote(out, String.valueOf(e.getKey()));
                out.append(':');
                writeTo(out, e.getValue());
            }
            out.append('}');
        } else if (value instanceof Iterable<?> list) {
            out.append('[');
            boolean first = true;
            for (Object item : list) {
                if (!first) out.append(',');
                first = false;
                writeTo(out, item);
            }
            out.append(']');
        } else if (value instanceof JsonWritable w) {
            writeTo(out, w.toJsonValue());
        } else if (value instanceof CharSequence text) {
            quote(out, text.toString());
        } else {
            // A type this writer does not know would come out as its toString(), which no reader can
            // parse back: say so where it is written, not where someone reads a garbled report.
            throw new IllegalArgumentException("Json cannot write a " + value.getClass().getName()
                    + ": give it a String, a number, a boolean, a Map, an Iterable or a JsonWritable");
        }
    }

    private static void writePrettyTo(StringBuilder out, Object value, int indent) {
        // a JsonWritable may answer with another (a record's JsonFields): unwrap to the map or list it stands for
        while (value instanceof JsonWritable w) {
            value = w.toJsonValue();
        }
        if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            out.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.append("  ".repeat(indent + 1));
                quote(out, String.valueOf(e.getKey()));
                out.append(": ");
                writePrettyTo(out, e.getValue(), indent + 1);
                out.append(++i < map.size() ? ",\n" : "\n");
            }
            out.append("  ".repeat(indent)).append('}');
        } else if (value instanceof List<?> list && !list.isEmpty() && !allScalars(list)) {
            out.append("[\n");
            int i = 0;
            for (Object item : list) {
                out.append("  ".repeat(indent + 1));
                writePrettyTo(out, item, indent + 1);
                out.append(++i < list.size() ? ",\n" : "\n");
            }
            out.append("  ".repeat(indent)).append(']');
        } else {
            writeTo(out, value);
        }
    }

    private static boolean allScalars(List<?> list) {
        for (Object o : list) {
            if (o instanceof Map || o instanceof List || o instanceof JsonWritable) return false;
        }
        return true;
    }

    private static void writeFloating(StringBuilder out, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            out.append("null"); // JSON has no NaN; a figure that cannot be computed is absent
        } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            out.append((long) d);
        } else {
            out.append(BigDecimal.valueOf(d).stripTrailingZeros().toPlainString());
        }
    }

    /** {@link #quote(StringBuilder, String)} on its own: the JSON string literal of {@code s}. */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2);
        quote(out, s);
        return out.toString();
    }

    /**
     * Quotes and escapes per RFC 8259: quote, backslash and control characters, and unpaired surrogates
     * too, so that the text stays encodable as UTF-8 (log values can hold any UTF-16 garbage).
     */
    public static void quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (c < 0x20 || Character.isSurrogate(c) || c == '\u2028' || c == '\u2029') {
                        // four hex digits by hand, not String.format: X-Ray subsegments are quoted here on a cold start
                        out.append("\\u");
                        for (int shift = 12; shift >= 0; shift -= 4) out.append(Character.forDigit((c >> shift) & 15, 16));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
