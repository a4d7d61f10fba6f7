package batchpipe.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MachineInfoTest {
    @Test
    void cpuModel_isTheFirstModelNameOrUnknown() {
        assertThat(MachineInfo.cpuModel(List.of("processor\t: 0", "model name\t: Some CPU @ 2.0GHz", "model name\t: Other")))
                .isEqualTo("Some CPU @ 2.0GHz");
        assertThat(MachineInfo.cpuModel(List.of("processor\t: 0"))).isEqualTo("unknown");
    }
}
