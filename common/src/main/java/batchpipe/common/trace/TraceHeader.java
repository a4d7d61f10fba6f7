package batchpipe.common.trace;

/**
 * The X-Ray trace header Lambda gives each invocation ({@code Root=1-...;Parent=...;Sampled=1}): the
 * trace, the function's segment that our subsegments hang under, and whether the trace is recorded.
 */
record TraceHeader(String root, String parent, boolean sampled) {
    /** The header, or null when it is missing or names no root and parent. */
    static TraceHeader parse(String header) {
        if (header == null || header.isBlank()) return null;
        String root = null;
        String parent = null;
        boolean sampled = false;
        for (String part : header.split(";")) {
            int eq = part.indexOf('=');
            if (eq < 0) continue;
            String key = part.substring(0, eq).trim();
            String value = part.substring(eq + 1).trim();
            switch (key) {
                case "Root" -> root = value;
                case "Parent" -> parent = value;
                case "Sampled" -> sampled = value.equals("1");
                default -> { }
            }
        }
        return root == null || parent == null ? null : new TraceHeader(root, parent, sampled);
    }
}
