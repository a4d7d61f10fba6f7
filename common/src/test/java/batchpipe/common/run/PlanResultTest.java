package batchpipe.common.run;

import batchpipe.common.json.Json;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlanResultTest {
    @Test
    void toJson_hasTheDocumentedShape() {
        String json = new PlanResult("r1", 2540, 40, 2580, 1.25).toJson();

        assertThat(json).isEqualTo("{\"runId\":\"r1\",\"planned\":{\"scan\":2540,\"hash\":40},\"enqueued\":2580,\"seconds\":1.25}");
        assertThat(Json.parseObject(json)).containsExactly(
                Map.entry("runId", "r1"),
                Map.entry("planned", Map.of("scan", 2540L, "hash", 40L)),
                Map.entry("enqueued", 2580L),
                Map.entry("seconds", new java.math.BigDecimal("1.25")));
    }

    @Test
    void toJson_saysContinuedOnlyWhenPlanningGoesOn() {
        assertThat(new PlanResult("r1", 1000, 0, 1000, 14.5, true).toJson()).endsWith(",\"continued\":true}");
        assertThat(new PlanResult("r1", 1000, 0, 1000, 14.5, false).toJson()).doesNotContain("continued");
    }

    @Test
    void fromJson_readsWhatToJsonWrites() {
        for (PlanResult result : new PlanResult[] {new PlanResult("r1", 2540, 40, 2580, 1.25), new PlanResult("r2", 0, 3, 3, 0),
                new PlanResult("r3", 1000, 0, 1000, 14.5, true)}) {
            assertThat(PlanResult.fromJson(result.toJson())).isEqualTo(result);
        }
    }

    @Test
    void fromJson_namesEveryFieldThatIsMissingOrOfTheWrongType() {
        assertThatThrownBy(() -> PlanResult.fromJson("{\"runId\":7,\"planned\":{\"scan\":1},\"seconds\":\"1\",\"continued\":\"yes\"}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'runId' must be a string")
                .hasMessageContaining("'planned.hash' is required")
                .hasMessageContaining("'enqueued' is required")
                .hasMessageContaining("'seconds' must be a number")
                .hasMessageContaining("'continued' must be a boolean");
    }
}
