package batchpipe.aggregator.cost;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lambda's monthly volume tiers: the GB-seconds of a month are priced tier by tier, each tier's share
 * at its own price (x86_64: the first 6 billion at the full price, the next 9 billion 10% less, the
 * rest 20% less; arm64 the same at 7.5 and 18.75 billion).
 */
public final class VolumeTiers {
    private VolumeTiers() {
    }

    /** How much of {@code gbSeconds} falls in one tier and what it costs. */
    public record TierUse(BigDecimal from, BigDecimal upTo, BigDecimal gbSeconds, BigDecimal price, BigDecimal cost) {
        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("fromGbSeconds", from);
            json.put("upToGbSeconds", upTo);
            json.put("gbSeconds", gbSeconds.stripTrailingZeros());
            json.put("pricePerGbSecond", price);
            json.put("cost", Numbers.written(cost));
            return json;
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
