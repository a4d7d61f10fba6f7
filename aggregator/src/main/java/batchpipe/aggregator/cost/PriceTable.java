package batchpipe.aggregator.cost;

import batchpipe.common.json.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The prices the cost model uses: a dated table kept as a resource (region, date and sources named in
 * it), optionally overridden by a file of the same shape. Prices live here and nowhere in code, so a
 * price change is a data change and every report says which table it used.
 *
 * <p>An override is merged field by field over the resource: objects merge, anything else (numbers,
 * strings, the tier lists) is replaced. The merged table is validated as a whole and every problem is
 * reported at once.
 */
public final class PriceTable {
    public static final String DEFAULT_RESOURCE = "batchpipe/aggregator/cost/prices-us-east-1.json";
    public static final List<String> ARCHITECTURES = List.of("arm64", "x86_64");
    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1_000);

    /** One volume tier of Lambda compute: GB-seconds a month up to {@code upTo} (null: no limit) cost {@code price} each. */
    public record Tier(BigDecimal upTo, BigDecimal price) {
    }

    // JSON of unknown shape: the default table merged with a user's price file, which this class checks field by field
    // (every Map<String, Object> below is a part of it) and reports whole in report.json
    private final Map<String, Object> table;
    private final String origin;
    private final Map<String, List<Tier>> lambdaTiers = new LinkedHashMap<>();
    private final BigDecimal lambdaPerMillionRequests;
    private final boolean initBilled;
    private final BigDecimal sqsPerMillionRequests;
    private final long sqsChunkBytes;
    private final BigDecimal perMillionWriteUnits;
    private final BigDecimal perMillionReadUnits;
    private final long writeUnitBytes;
    private final long readUnitBytes;
    private final BigDecimal perThousandGets;
    private final BigDecimal perThousandLists;

    private PriceTable(Map<String, Object> table, String origin) {
        this.table = table;
        this.origin = origin;
        List<String> problems = new ArrayList<>();
        for (String field : List.of("region", "currency", "date")) {
            if (!(table.get(field) instanceof String s) || s.isBlank()) problems.add(field + " must be a non-empty string");
        }
        if (!(table.get("sources") instanceof Map<?, ?> sources) || sources.isEmpty()) {
            problems.add("sources must name where the prices come from");
        }
        Map<String, Object> lambda = section(table, "lambda", problems);
        this.lambdaPerMillionRequests = price(lambda, "lambda.", "perMillionRequests", problems);
        this.initBilled = lambda.get("initBilled") instanceof Boolean b ? b : flag(problems, "lambda.initBilled must be true or false");
        Object increment = lambda.get("billingIncrementMs");
        if (!(increment instanceof Long n) || n != 1) {
            problems.add("lambda.billingIncrementMs must be 1 (Lambda bills per millisecond since December 2020)");
        }
        Map<String, Object> tiers = lambda.get("gbSecondTiers") instanceof Map<?, ?> m ? cast(m) : Map.of();
        for (String architecture : ARCHITECTURES) {
            lambdaTiers.put(architecture, tiers(tiers.get(architecture), "lambda.gbSecondTiers." + architecture, problems));
        }
        Map<String, Object> sqs = section(table, "sqs", problems);
        this.sqsPerMillionRequests = price(sqs, "sqs.", "perMillionRequests", problems);
        this.sqsChunkBytes = positive(sqs, "sqs.", "requestChunkBytes", problems);
        Map<String, Object> dynamoDb = section(table, "dynamoDb", problems);
        this.perMillionWriteUnits = price(dynamoDb, "dynamoDb.", "perMillionWriteRequestUnits", problems);
        this.perMillionReadUnits = price(dynamoDb, "dynamoDb.", "perMillionReadRequestUnits", problems);
        this.writeUnitBytes = positive(dynamoDb, "dynamoDb.", "writeUnitBytes", problems);
        this.readUnitBytes = positive(dynamoDb, "dynamoDb.", "readUnitBytes", problems);
        Map<String, Object> s3 = section(table, "s3", problems);
        this.perThousandGets = price(s3, "s3.", "perThousandGetRequests", problems);
        this.perThousandLists = price(s3, "s3.", "perThousandListRequests", problems);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("price table " + origin + ": " + String.join("; ", problems));
        }
    }

    /** The table kept as a resource. */
    public static PriceTable defaults() {
        return new PriceTable(defaultTable(), "resource " + DEFAULT_RESOURCE);
    }

    /** The resource with {@code file}'s fields laid over it. */
    public static PriceTable withOverride(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the price table override " + file + ": " + e.getMessage(), e);
        }
        Map<String, Object> override;
        try {
            override = Json.parseObject(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("price table override " + file + " is not a JSON object: " + e.getMessage(), e);
        }
        return new PriceTable(merge(defaultTable(), override), "resource " + DEFAULT_RESOURCE + " overridden by file " + file);
    }

    /** The default, or the default overridden by {@code file} when one is given (null or blank: none). */
    public static PriceTable load(String overrideFile) {
        return overrideFile == null || overrideFile.isBlank() ? defaults() : withOverride(Path.of(overrideFile));
    }

    static Map<String, Object> defaultTable() {
        try (InputStream in = PriceTable.class.getClassLoader().getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null) throw new IllegalStateException("price table resource " + DEFAULT_RESOURCE + " is missing from the classpath");
            return Json.parseObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code override} laid over {@code base}: nested objects merge; every other value replaces. */
    static Map<String, Object> merge(Map<String, Object> base, Map<String, Object> override) {
        Map<String, Object> merged = new LinkedHashMap<>(base);
        override.forEach((key, value) -> {
            if (value instanceof Map<?, ?> o && merged.get(key) instanceof Map<?, ?> b) {
                merged.put(key, merge(cast(b), cast(o)));
            } else {
                merged.put(key, value);
            }
        });
        return merged;
    }

    /** The merged table as used, with where it came from: it goes into every report. */
    public Map<String, Object> describe() {
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("origin", origin);
        described.putAll(table);
        return described;
    }

    public String currency() {
        return (String) table.get("currency");
    }

    public String region() {
        return (String) table.get("region");
    }

    public String date() {
        return (String) table.get("date");
    }

    public String origin() {
        return origin;
    }

    public List<Tier> lambdaTiers(String architecture) {
        List<Tier> tiers = lambdaTiers.get(architecture);
        if (tiers == null) throw new IllegalArgumentException("no Lambda prices for architecture '" + architecture + "'");
        return tiers;
    }

    /** The first tier's price: what one run pays, before a month's volume reaches a discount. */
    public BigDecimal gbSecondPrice(String architecture) {
        return lambdaTiers(architecture).get(0).price();
    }

    public BigDecimal lambdaPerMillionRequests() {
        return lambdaPerMillionRequests;
    }

    public BigDecimal lambdaPerRequest() {
        return lambdaPerMillionRequests.divide(MILLION);
    }

    public boolean initBilled() {
        return initBilled;
    }

    public BigDecimal sqsPerMillionRequests() {
        return sqsPerMillionRequests;
    }

    public BigDecimal sqsPerRequest() {
        return sqsPerMillionRequests.divide(MILLION);
    }

    public long sqsChunkBytes() {
        return sqsChunkBytes;
    }

    public BigDecimal perMillionWriteUnits() {
        return perMillionWriteUnits;
    }

    public BigDecimal perWriteUnit() {
        return perMillionWriteUnits.divide(MILLION);
    }

    public BigDecimal perMillionReadUnits() {
        return perMillionReadUnits;
    }

    public BigDecimal perReadUnit() {
        return perMillionReadUnits.divide(MILLION);
    }

    public long writeUnitBytes() {
        return writeUnitBytes;
    }

    public long readUnitBytes() {
        return readUnitBytes;
    }

    public BigDecimal perThousandGets() {
        return perThousandGets;
    }

    public BigDecimal perGet() {
        return perThousandGets.divide(THOUSAND);
    }

    public BigDecimal perThousandLists() {
        return perThousandLists;
    }

    public BigDecimal perList() {
        return perThousandLists.divide(THOUSAND);
    }

    private static List<Tier> tiers(Object value, String name, List<String> problems) {
        if (!(value instanceof List<?> list) || list.isEmpty()) {
            problems.add(name + " must be a non-empty list of {upToGbSecondsPerMonth, pricePerGbSecond}");
            return List.of();
        }
        List<Tier> tiers = new ArrayList<>();
        BigDecimal previous = BigDecimal.ZERO;
        for (int i = 0; i < list.size(); i++) {
            String at = name + "[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> m)) {
                problems.add(at + " must be an object");
                continue;
            }
            Map<String, Object> tier = cast(m);
            BigDecimal price = price(tier, at + ".", "pricePerGbSecond", problems);
            Object upTo = tier.get("upToGbSecondsPerMonth");
            boolean last = i == list.size() - 1;
            BigDecimal limit = null;
            if (last) {
                if (upTo != null) problems.add(at + ".upToGbSecondsPerMonth must be null: the last tier has no upper limit");
            } else if (!(upTo instanceof Number n) || decimal(n).compareTo(previous) <= 0) {
                problems.add(at + ".upToGbSecondsPerMonth must be a number above the previous tier's limit (" + previous.toPlainString() + ")");
            } else {
                limit = decimal(n);
                previous = limit;
            }
            tiers.add(new Tier(limit, price));
        }
        return tiers;
    }

    private static Map<String, Object> section(Map<String, Object> table, String name, List<String> problems) {
        if (table.get(name) instanceof Map<?, ?> m) return cast(m);
        problems.add(name + " must be an object");
        return Map.of();
    }

    private static BigDecimal price(Map<String, Object> section, String prefix, String field, List<String> problems) {
        if (section.get(field) instanceof Number n && decimal(n).signum() >= 0) return decimal(n);
        problems.add(prefix + field + " must be a number >= 0");
        return BigDecimal.ZERO;
    }

    private static long positive(Map<String, Object> section, String prefix, String field, List<String> problems) {
        if (section.get(field) instanceof Long n && n > 0) return n;
        problems.add(prefix + field + " must be a whole number > 0");
        return 1;
    }

    private static boolean flag(List<String> problems, String problem) {
        problems.add(problem);
        return false;
    }

    private static BigDecimal decimal(Number n) {
        return n instanceof BigDecimal d ? d : new BigDecimal(n.toString());
    }

    @SuppressWarnings("unchecked") // Json parses every object of the price file as Map<String, Object>
    private static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }
}
