package batchpipe.local.cli;

import batchpipe.common.text.ControlCharacters;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A bucket and a key prefix, from {@code s3://bucket/prefix/} as a stack's ReportsLocation output writes it. */
record ReportsAt(String bucket, String prefix) {
    private static final Pattern S3_URI = Pattern.compile("s3://([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:/(.*))?");

    static ReportsAt parse(String uri) {
        Matcher m = S3_URI.matcher(uri.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + ControlCharacters.escape(uri) + "' is not s3://bucket/prefix/ (the stack's ReportsLocation output)");
        }
        return new ReportsAt(m.group(1), m.group(2) == null ? "" : m.group(2));
    }
}
