package batchpipe.common.table;

import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

class TableKeysTest {

    @Test
    void keys_followTheSingleTableLayout() {
        assertThat(TableKeys.runPk("20261130T010203Z-3f9a1c")).isEqualTo("run#20261130T010203Z-3f9a1c");
        assertThat(TableKeys.taskSk("hash-000001")).isEqualTo("task#hash-000001");
        assertThat(TableKeys.hashSk("hash-000001", 7)).isEqualTo("hash#hash-000001#000007");
        assertThat(TableKeys.hashSk("hash-000001", 1_234_567)).isEqualTo("hash#hash-000001#1234567");
        assertThat(TableKeys.progressSk(0)).isEqualTo("progress#000");
        assertThat(TableKeys.progressSk(42)).isEqualTo("progress#042");
    }

    @Test
    void keys_areTheSameInEveryLocale() {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("ar-SA"));
            assertThat(TableKeys.hashSk("hash-000001", 7)).isEqualTo("hash#hash-000001#000007");
            assertThat(TableKeys.progressSk(3)).isEqualTo("progress#003");
        } finally {
            Locale.setDefault(saved);
        }
    }
}
