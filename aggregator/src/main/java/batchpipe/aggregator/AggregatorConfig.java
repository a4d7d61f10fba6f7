package batchpipe.aggregator;

import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.common.config.FunctionEnvironment;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The aggregator's settings, read once at init.
 *
 * @param table           {@code TABLE_NAME}
 * @param priceTableFile  {@code PRICE_TABLE_FILE}: a price table laid over the bundled one, or null
 * @param runsPerMonth    {@code RUNS_PER_MONTH}: for the monthly projection, default 30
 * @param reportLines     {@code REPORT_LINES}: where the workers' REPORT lines come from
 * @param workerLogGroups {@code WORKER_LOG_GROUPS}: the worker's log group and its twin's, comma-separated;
 *                        read only when {@code reportLines} is {@link ReportLines#LOGS_INSIGHTS}
 * @param reportBucket    {@code REPORT_BUCKET}: the bucket the report files go to
 * @param reportPrefix    {@code REPORT_PREFIX}: the key prefix they go under, default {@value #DEFAULT_REPORT_PREFIX}
 * @param runEventsFile   {@code RUN_EVENTS_FILE}: a JSON-lines file for the Run Completed events, or null for
 *                        EventBridge's default bus. Only the local stack sets it: it has no EventBridge.
 */
public record AggregatorConfig(String table, String priceTableFile, int runsPerMonth, ReportLines reportLines,
                               List<String> workerLogGroups, String reportBucket, String reportPrefix, String runEventsFile) {
    public static final String DEFAULT_REPORT_PREFIX = "reports/";


    /** Where the REPORT lines come from. */
    public enum ReportLines {
        /** A Logs Insights query of the workers' log groups ($0.005 per GB scanned, see docs/COST.md). */
        LOGS_INSIGHTS("logs-insights"),
        /** None: Lambda durations are measured from the task records. */
        NONE("none");

        private final String value;

        ReportLines(String value) {
            this.value = value;
        }

        public String value() {
            return value;
        }

        /** The mode named {@code value}, or an error that names the setting and the values it takes. */
        public static ReportLines parse(String setting, String value) {
            for (ReportLines mode : values()) {
                if (mode.value.equals(value.trim())) return mode;
            }
            throw new IllegalArgumentException(setting + " is '" + value + "'; it must be one of "
                    + Arrays.stream(values()).map(ReportLines::value).toList());
        }
    }

    public AggregatorConfig {
        workerLogGroups = List.copyOf(workerLogGroups);
    }

    /**
     * Without {@code REPORT_LINES} there are none: a function deployed from this template always has it
     * (the template's ReportLines parameter, logs-insights by default), so an unset variable means a
     * hand-made setup (sam local invoke, a test) that has no worker log groups to query.
     */
    public static AggregatorConfig from(Map<String, String> env) {
        String table = FunctionEnvironment.require(env, "TABLE_NAME");
        int runsPerMonth = FunctionEnvironment.intValue(env, "RUNS_PER_MONTH", CostAssumptions.DEFAULT_RUNS_PER_MONTH, 1, 1_000_000_000);
        ReportLines mode;
        try {
            mode = ReportLines.parse("environment variable REPORT_LINES", env.getOrDefault("REPORT_LINES", ReportLines.NONE.value()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        List<String> logGroups = List.of();
        if (mode == ReportLines.LOGS_INSIGHTS) {
            try {
                logGroups = logGroups(FunctionEnvironment.require(env, "WORKER_LOG_GROUPS"));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("environment variable WORKER_LOG_GROUPS: " + e.getMessage(), e);
            }
        }
        String reportBucket = FunctionEnvironment.require(env, "REPORT_BUCKET");
        String prefix = env.getOrDefault("REPORT_PREFIX", DEFAULT_REPORT_PREFIX);
        String runEventsFile = env.getOrDefault("RUN_EVENTS_FILE", "");
        return new AggregatorConfig(table, env.get("PRICE_TABLE_FILE"), runsPerMonth, mode, logGroups, reportBucket, prefix,
                runEventsFile.isBlank() ? null : runEventsFile);
    }

    /** A log group name as CloudWatch Logs allows it. */
    private static final Pattern LOG_GROUP_NAME = Pattern.compile("[A-Za-z0-9_./#-]{1,512}");
    /** StartQuery names at most 50 log groups. */
    static final int MAX_LOG_GROUPS = 50;

    /** Log group names from a comma-separated list (blanks between commas dropped), or an error naming the bad one. */
    public static List<String> logGroups(String commaSeparated) {
        List<String> names = Arrays.stream(commaSeparated.split(",")).map(String::trim).filter(s -> !s.isEmpty()).distinct().toList();
        if (names.isEmpty()) throw new IllegalArgumentException("no worker log group given (got '" + commaSeparated + "')");
        for (String name : names) {
            if (!LOG_GROUP_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("'" + name + "' is not a log group name: 1 to 512 letters, digits and _ . / # -");
            }
        }
        if (names.size() > MAX_LOG_GROUPS) {
            throw new IllegalArgumentException(names.size() + " log groups given; one Logs Insights query takes at most " + MAX_LOG_GROUPS);
        }
        return names;
    }
}
