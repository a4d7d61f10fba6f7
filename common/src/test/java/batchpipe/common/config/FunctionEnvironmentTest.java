package batchpipe.common.config;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FunctionEnvironmentTest {
    private static final String VAR = "BATCHPIPE_TEST_ONLY_VARIABLE";

    @Test
    void withVariables_laysVariablesOverTheProcessEnvironment() {
        Map<String, String> seen = FunctionEnvironment.withVariables(Map.of(VAR, "overlaid"), FunctionEnvironment::current);

        assertThat(seen).containsEntry(VAR, "overlaid");
        assertThat(seen).containsAllEntriesOf(withoutKey(System.getenv(), VAR));
    }

    @Test
    void withVariables_winsOverAProcessVariableOfTheSameName() {
        String name = System.getenv().keySet().iterator().next();

        String seen = FunctionEnvironment.withVariables(Map.of(name, "overlaid"), () -> FunctionEnvironment.current().get(name));

        assertThat(seen).isEqualTo("overlaid");
        assertThat(FunctionEnvironment.current().get(name)).isEqualTo(System.getenv(name));
    }

    @Test
    void withVariables_restoresTheEnvironmentAfterwards() {
        FunctionEnvironment.withVariables(Map.of(VAR, "1"), () -> null);

        assertThat(FunctionEnvironment.current()).doesNotContainKey(VAR);
        assertThat(FunctionEnvironment.current()).isEqualTo(System.getenv());
    }

    @Test
    void withVariables_restoresTheEnvironmentWhenInitThrows() {
        assertThatThrownBy(() -> FunctionEnvironment.withVariables(Map.of(VAR, "1"), () -> {
            throw new IllegalStateException("init failed");
        })).hasMessage("init failed");

        assertThat(FunctionEnvironment.current()).doesNotContainKey(VAR);
    }

    @Test
    void withVariables_restoresTheOuterOverlayAfterANestedOne() {
        String[] seen = new String[3];

        FunctionEnvironment.withVariables(Map.of(VAR, "outer"), () -> {
            seen[0] = FunctionEnvironment.current().get(VAR);
            seen[1] = FunctionEnvironment.withVariables(Map.of(VAR, "inner"), () -> FunctionEnvironment.current().get(VAR));
            seen[2] = FunctionEnvironment.current().get(VAR);
            return null;
        });

        assertThat(seen).containsExactly("outer", "inner", "outer");
        assertThat(FunctionEnvironment.current()).doesNotContainKey(VAR);
    }

    @Test
    void withVariables_isPerThread() throws Exception {
        String[] otherThreadSaw = new String[1];

        FunctionEnvironment.withVariables(Map.of(VAR, "mine"), () -> {
            Thread other = new Thread(() -> otherThreadSaw[0] = FunctionEnvironment.current().get(VAR));
            other.start();
            try {
                other.join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return null;
        });

        assertThat(otherThreadSaw[0]).isNull();
    }

    @Test
    void intValue_returnsTheDefaultWhenUnsetOrBlank() {
        assertThat(FunctionEnvironment.intValue(Map.of(), "N", 8, 1, 64)).isEqualTo(8);
        assertThat(FunctionEnvironment.intValue(Map.of("N", "  "), "N", 8, 1, 64)).isEqualTo(8);
    }

    @Test
    void intValue_parsesTrimmedNumbersInRange() {
        assertThat(FunctionEnvironment.intValue(Map.of("N", " 64 "), "N", 8, 1, 64)).isEqualTo(64);
        assertThat(FunctionEnvironment.intValue(Map.of("N", "1"), "N", 8, 1, 64)).isEqualTo(1);
    }

    @Test
    void intValue_rangeErrorNamesTheVariableAndTheBounds() {
        assertThatThrownBy(() -> FunctionEnvironment.intValue(Map.of("SEND_CALLS_IN_FLIGHT", "65"), "SEND_CALLS_IN_FLIGHT", 8, 1, 64))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("environment variable SEND_CALLS_IN_FLIGHT is 65; it must be between 1 and 64");
        assertThatThrownBy(() -> FunctionEnvironment.intValue(Map.of("WORKER_COUNT", "0"), "WORKER_COUNT", 1, 1, 256))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("environment variable WORKER_COUNT is 0; it must be between 1 and 256");
    }

    @Test
    void intValue_nonNumberErrorNamesTheVariable() {
        assertThatThrownBy(() -> FunctionEnvironment.intValue(Map.of("MAX_HASH_COST", "ten"), "MAX_HASH_COST", 14, 4, 31))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("environment variable MAX_HASH_COST must be a whole number, got 'ten'");
        assertThatThrownBy(() -> FunctionEnvironment.intValue(Map.of("N", "99999999999"), "N", 1, 1, 2))
                .hasMessage("environment variable N must be a whole number, got '99999999999'");
    }

    @Test
    void require_namesAMissingVariable() {
        assertThatThrownBy(() -> FunctionEnvironment.require(Map.of("TABLE_NAME", " "), "TABLE_NAME"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("environment variable TABLE_NAME is not set;");
        assertThat(FunctionEnvironment.require(Map.of("TABLE_NAME", "t"), "TABLE_NAME")).isEqualTo("t");
    }

    private static Map<String, String> withoutKey(Map<String, String> map, String key) {
        Map<String, String> copy = new HashMap<>(map);
        copy.remove(key);
        return copy;
    }
}
