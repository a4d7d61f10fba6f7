package batchpipe.aggregator.cost;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PriceTableTest {
    @TempDir
    Path dir;

    private Path file(String json) throws IOException {
        Path file = dir.resolve("prices.json");
        Files.writeString(file, json);
        return file;
    }

    @Test
    void defaults_nameTheRegionDateAndSourcesAndHoldThePublishedPrices() {
        PriceTable prices = PriceTable.defaults();

        assertThat(prices.region()).isEqualTo("us-east-1");
        assertThat(prices.date()).isEqualTo("2025-08-01");
        assertThat(prices.origin()).isEqualTo("resource batchpipe/aggregator/cost/prices-us-east-1.json");
        assertThat(((Map<?, ?>) prices.describe().get("sources")).keySet()).map(String::valueOf).contains("lambda", "lambdaTiers", "lambdaInit", "sqs", "dynamoDb", "s3");
        assertThat(prices.gbSecondPrice("x86_64")).isEqualByComparingTo("0.0000166667");
        assertThat(prices.gbSecondPrice("arm64")).isEqualByComparingTo("0.0000133334");
        assertThat(prices.lambdaTiers("x86_64")).extracting(PriceTable.Tier::upTo)
                .containsExactly(new BigDecimal("6000000000"), new BigDecimal("15000000000"), null);
        assertThat(prices.lambdaTiers("arm64")).extracting(PriceTable.Tier::upTo)
                .containsExactly(new BigDecimal("7500000000"), new BigDecimal("18750000000"), null);
        assertThat(prices.initBilled()).isTrue();
        // per-unit prices: $0.20 and $0.40 per million requests, $0.625 and $0.125 per million units, per 1,000 for S3
        assertThat(prices.lambdaPerRequest()).isEqualByComparingTo("0.0000002");
        assertThat(prices.sqsPerRequest()).isEqualByComparingTo("0.0000004");
        assertThat(prices.sqsChunkBytes()).isEqualTo(65_536);
        assertThat(prices.perWriteUnit()).isEqualByComparingTo("0.000000625");
        assertThat(prices.perReadUnit()).isEqualByComparingTo("0.000000125");
        assertThat(prices.perGet()).isEqualByComparingTo("0.0000004");
        assertThat(prices.perList()).isEqualByComparingTo("0.000005");
    }

    @Test
    void withOverride_replacesOnlyTheFieldsTheFileNames() throws IOException {
        Path override = file("""
                {"date": "2026-01-01",
                 "lambda": {"initBilled": false,
                            "gbSecondTiers": {"arm64": [{"upToGbSecondsPerMonth": null, "pricePerGbSecond": 0.00001}]}}}
                """);

        PriceTable prices = PriceTable.withOverride(override);

        assertThat(prices.date()).isEqualTo("2026-01-01");
        assertThat(prices.initBilled()).isFalse();
        assertThat(prices.gbSecondPrice("arm64")).isEqualByComparingTo("0.00001");
        assertThat(prices.lambdaTiers("arm64")).hasSize(1);
        // untouched by the file: the other architecture, the request price, the other services, the region
        assertThat(prices.gbSecondPrice("x86_64")).isEqualByComparingTo("0.0000166667");
        assertThat(prices.lambdaPerRequest()).isEqualByComparingTo("0.0000002");
        assertThat(prices.sqsPerRequest()).isEqualByComparingTo("0.0000004");
        assertThat(prices.region()).isEqualTo("us-east-1");
        assertThat(prices.origin()).isEqualTo("resource batchpipe/aggregator/cost/prices-us-east-1.json overridden by file " + override);
        assertThat(prices.describe()).containsEntry("origin", prices.origin()).containsEntry("date", "2026-01-01");
    }

    @Test
    void withOverride_reportsEveryProblemOfTheMergedTableAtOnce() throws IOException {
        Path override = file("""
                {"region": "",
                 "sqs": {"perMillionRequests": -1},
                 "dynamoDb": {"writeUnitBytes": 0},
                 "lambda": {"gbSecondTiers": {"x86_64": [
                    {"upToGbSecondsPerMonth": 5, "pricePerGbSecond": 1},
                    {"upToGbSecondsPerMonth": 3, "pricePerGbSecond": 1},
                    {"upToGbSecondsPerMonth": 10, "pricePerGbSecond": "cheap"}]}}}
                """);

        assertThatThrownBy(() -> PriceTable.withOverride(override))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("price table resource batchpipe/aggregator/cost/prices-us-east-1.json overridden by file " + override + ": ")
                .hasMessageContaining("region must be a non-empty string")
                .hasMessageContaining("lambda.gbSecondTiers.x86_64[1].upToGbSecondsPerMonth must be a number above the previous tier's limit (5)")
                .hasMessageContaining("lambda.gbSecondTiers.x86_64[2].pricePerGbSecond must be a number >= 0")
                .hasMessageContaining("lambda.gbSecondTiers.x86_64[2].upToGbSecondsPerMonth must be null: the last tier has no upper limit")
                .hasMessageContaining("sqs.perMillionRequests must be a number >= 0")
                .hasMessageContaining("dynamoDb.writeUnitBytes must be a whole number > 0");
    }

    @Test
    void withOverride_saysWhichFileCannotBeRead() {
        Path missing = dir.resolve("nope.json");

        assertThatThrownBy(() -> PriceTable.withOverride(missing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot read the price table override " + missing);
    }

    @Test
    void withOverride_refusesAFileThatIsNotAJsonObject() throws IOException {
        Path notJson = file("[1, 2]");

        assertThatThrownBy(() -> PriceTable.withOverride(notJson))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("price table override " + notJson + " is not a JSON object");
    }

    @Test
    void load_withoutAFileIsTheDefault() {
        assertThat(PriceTable.load(null).origin()).isEqualTo(PriceTable.defaults().origin());
        assertThat(PriceTable.load(" ").origin()).isEqualTo(PriceTable.defaults().origin());
    }
}
