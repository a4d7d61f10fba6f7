package batchpipe.common.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RunHostTest {

    @Test
    void cpuModel_isTheFirstModelNameOfCpuinfo(@TempDir Path dir) throws IOException {
        Path cpuinfo = Files.writeString(dir.resolve("cpuinfo"), "processor\t: 0\nvendor_id\t: GenuineIntel\n"
                + "model name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n\nprocessor\t: 1\nmodel name\t: Other\n");

        assertThat(RunHost.cpuModel(cpuinfo)).isEqualTo("Intel(R) Xeon(R) CPU @ 2.20GHz");
    }

    @Test
    void cpuModel_namesTheArchitectureWhenThereIsNoCpuinfo(@TempDir Path dir) {
        assertThat(RunHost.cpuModel(dir.resolve("missing"))).startsWith("unknown CPU (").endsWith(")");
    }

    @Test
    void loadAverage_readsTheThreeAveragesOfLoadavg(@TempDir Path dir) throws IOException {
        Path loadavg = Files.writeString(dir.resolve("loadavg"), "0.52 0.61 1.70 2/345 6789\n");

        assertThat(RunHost.loadAverage(loadavg)).containsExactly(0.52, 0.61, 1.70);
    }

    @Test
    void capture_describesThisMachineAtTheGivenTime() {
        RunHost host = RunHost.capture(1_000L);

        assertThat(host.cores()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(host.jdk()).contains(System.getProperty("java.runtime.version"));
        assertThat(host.capturedAt()).isEqualTo(1_000L);
    }

    @Test
    void aRunRecordKeepsItsHostThroughTheTableAndOneWithoutStaysWithout() {
        RunHost host = new RunHost("Test CPU", 2, "Vendor 21.0.5", "Linux 6.1 amd64", List.of(0.5, 0.25, 2.0), 1_000L);
        RunRecord planned = RunRecord.planned("r1", null, "{}", new Planned(1, 0, 1), 0, 1_000L, 1);

        assertThat(RunRecord.fromItem(planned.withHost(host).toItem()).host()).isEqualTo(host);
        assertThat(RunRecord.fromItem(planned.toItem()).host()).isNull();
        assertThat(planned.toItem()).doesNotContainKey("host");
    }
}
