package batchpipe.aggregator.cost;

import batchpipe.aggregator.report.ReportJson;
import batchpipe.common.json.JsonFields;
import batchpipe.common.json.JsonWritable;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Lambda's monthly volume tiers: the GB-seconds of a month are priced tier by tier, each tier's share
 * at its own price (x86_64: the first 6 billion at the full price, the next 9 billion 10% less, the
 * rest 20% less; arm64 the same at 7.5 and 18.75 billion).
 */
public final class VolumeTiers {
    private VolumeTiers() {
    }

    /** How much of {@code gbSeconds} falls in one tier and what it costs. */
    public record TierUse(BigDecimal from, BigDecimal upTo, BigDecimal gbSeconds, BigDecimal price, BigDecimal cost)
            implements JsonWritable {
        /** As the report keeps it: the GB-seconds without trailing zeros, the cost rounded once ({@link Numbers#written}). */
        public TierUse written() {
            return new TierUse(from, upTo, writtenGbSeconds(), price, Numbers.written(cost));
        }

        /** The GB-seconds as every report shows them: without trailing zeros. */
        public BigDecimal writtenGbSeconds() {
            return gbSeconds.stripTrailingZeros();
        }

        /** As report.json writes it: GB-seconds without trailing zeros, the cost rounded ({@link Numbers#written}). */
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("fromGbSeconds", from).put("upToGbSeconds", upTo).put("gbSeconds", writtenGbSeconds())
                    .put("pricePerGbSecond", price).put("cost", Numbers.written(cost));
        }

        static TierUse fromJson(ReportJson json) {
            return new TierUse(json.decimal("fromGbSeconds"), json.optDecimal("upToGbSeconds"), json.decimal("gbSeconds"),
                    json.decimal("pricePerGbSecond"), json.decimal("cost"));
        }
    }

    public static List<TierUse> split(BigDecimal gbSeconds, List<PriceTable.Tier> tiers) {
        List<TierUse> uses = new ArrayList<>();
        BigDecimal from = BigDecimal.ZERO;
        for (PriceTable.Tier tier : tiers) {
            BigDecimal inTier;
            if (gbSeconds.compareTo(from) <= 0) {
                inTier = BigDecimal.ZERO;
            } else if (tier.upTo() == null || gbSeconds.compareTo(tier.upTo()) <= 0) {
                inTier = gbSeconds.subtract(from);
            } else {
                inTier = tier.upTo().subtract(from);
            }
            uses.add(new TierUse(from, tier.upTo(), inTier, tier.price(), inTier.multiply(tier.price())));
            if (tier.upTo() == null) break;
            from = tier.upTo();
        }
        return uses;
    }

    public static BigDecimal cost(BigDecimal gbSeconds, List<PriceTable.Tier> tiers) {
        return split(gbSeconds, tiers).stream().map(TierUse::cost).reduce(BigDecimal.ZERO, BigDecimal::add);
    }
}
