package batchpipe.bench;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MarkdownReportTest {
    @Test
    void rendersMachineTargetsFiguresCommandsAndNotes() {
        Map<String, String> machine = new LinkedHashMap<>();
        machine.put("CPUs (nproc)", "2");
        machine.put("CPU model", "Some CPU");
        String md = MarkdownReport.render("Batchpipe benchmarks", machine,
                List.of(Target.atLeast("Scan vs node", "300 vs 100 MB/s", 3.0, 2.5),
                        Target.atMost("Hash vs C", "70 vs 58 ms", 1.2, 1.15)),
                List.of(new MarkdownReport.Figure("scan, java", "1.00 s", "1.00, 1.10, 0.90 s")),
                List.of("./batchpipe scan f --workers 2"), List.of("JMH is out of scope."));
        assertThat(md).startsWith("# Batchpipe benchmarks\n")
                .contains("- **CPUs (nproc)**: 2\n")
                .contains("| Scan vs node | 300 vs 100 MB/s | 3.00x | >= 2.50x | PASS | +20% |\n")
                .contains("| Hash vs C | 70 vs 58 ms | 1.20x | <= 1.15x | MISS | -4% |\n")
                .contains("| scan, java | 1.00 s | 1.00, 1.10, 0.90 s |\n")
                .contains("```\n./batchpipe scan f --workers 2\n```\n")
                .contains("- JMH is out of scope.\n");
    }

    @Test
    void pipesAndLineBreaksStayInTheirCell() {
        assertThat(MarkdownReport.escape("a | b\nc")).isEqualTo("a \\| b c");
    }
}
