package batchpipe.local.it;

import batchpipe.local.chaos.Books;
import batchpipe.local.demo.Demo;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.SharedEmulators;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 100,000 small tasks through the full local pipeline (producer, workers, dead-letter recorder,
 * aggregator) with every task recorded and counted once: issue 17's local load run. Tagged "load", so
 * it runs only when asked ({@code BATCHPIPE_LOAD_TESTS=1 ./batchpipe test}, or alone with
 * {@code -Dit.test=HundredThousandTaskLoadIT -Dit.excludedGroups=none}). It prints the tasks per second
 * of the running phase (the first task sent to the last one counted, {@link Demo.Phases#running}) and
 * where the CPU went: dynalite's (a process of its own) and this JVM's share of the CPU time of every process of
 * the run (ElasticMQ and S3Proxy run inside this JVM, so their share is not told apart from what else runs here).
 */
@Tag("load")
class HundredThousandTaskLoadIT {
    private static final int SCAN_OBJECTS = 4_000;
    private static final int HASH_BATCHES = 96_000;

    @TempDir
    Path out;

    @Test
    void aHundredThousandTasks_eachRecordedAndCountedOnce() throws Exception {
        StackTemplate template = StackTemplate.load(ProjectHome.find().resolve("template.yaml"),
                Map.of("WorkerBatchSize", "100", "WorkerBatchingWindowSeconds", "1", "WorkerMaxConcurrency", "8"));
        try (LocalStack stack = SharedEmulators.stack(template, "load100k")) {
            stack.useForThisProcess();
            PrintStream stdout = System.out;
            System.setOut(new PrintStream(OutputStream.nullOutputStream()));
            Demo.Outcome outcome;
            CpuSplit before;
            CpuSplit after;
            try (LocalPipeline pipeline = LocalPipeline.start(stack, new PrintStream(OutputStream.nullOutputStream()), true)) {
                before = CpuSplit.now();
                // 4,000 small objects to scan and 96,000 hash batches of one cost-4 password.
                outcome = new Demo(pipeline).run(Demo.Settings.builder().objects(SCAN_OBJECTS).linesPerObject(50)
                        .hashBatches(HASH_BATCHES).hashBatchSize(1).hashCost(4).seed(17).outDir(out).writeReports(false)
                        .timeout(Duration.ofMinutes(45)).build(), (done, total) -> { });
                after = CpuSplit.now(); // before the function processes stop, so their CPU time is still there to read
            } finally {
                System.setOut(stdout);
            }
            Books.Audit audit = Books.audit(stack, outcome.runId());
            CpuSplit used = after.minus(before);
            Demo.Phases phases = outcome.phases();
            System.out.println("load100k: " + audit.summary());
            System.out.printf(Locale.ROOT, "load100k: wall %.0f s; planning %.0f s, running %.0f s, aggregating %.0f s; %.0f tasks/s while"
                            + " running; CPU s: dynalite %.0f, this JVM (ElasticMQ, S3Proxy, the event source mappings, and the"
                            + " functions when the local runtime runs them in-process) %.0f, function processes %.0f; dynalite's share %.0f%%%n",
                    outcome.wallSeconds(), phases.planning(), phases.running(), phases.aggregating(),
                    (SCAN_OBJECTS + HASH_BATCHES) / phases.running(), used.dynalite(), used.harness(), used.functions(),
                    100 * used.dynalite() / used.total());
            assertThat(audit.problems()).isEmpty();
            assertThat(audit.planned()).isEqualTo(SCAN_OBJECTS + HASH_BATCHES);
            assertThat(audit.recordsByStatus()).isEqualTo(Map.of("done", (long) SCAN_OBJECTS + HASH_BATCHES));
            assertThat(audit.hashItems()).isEqualTo(HASH_BATCHES);
        }
    }

    /**
     * CPU seconds so far of dynalite (a Node.js child), of this JVM (which hosts ElasticMQ and S3Proxy
     * beside the event source mappings and the Runtime API), and of the function processes (other children).
     */
    private record CpuSplit(double dynalite, double harness, double functions) {
        static CpuSplit now() {
            double dynalite = 0;
            double functions = 0;
            for (ProcessHandle child : ProcessHandle.current().descendants().toList()) {
                double cpu = seconds(child.info().totalCpuDuration());
                String command = child.info().commandLine().orElse("");
                if (command.contains("dynalite")) dynalite += cpu;
                else functions += cpu;
            }
            return new CpuSplit(dynalite, seconds(ProcessHandle.current().info().totalCpuDuration()), functions);
        }

        CpuSplit minus(CpuSplit earlier) {
            return new CpuSplit(dynalite - earlier.dynalite, harness - earlier.harness, functions - earlier.functions);
        }

        double total() {
            return dynalite + harness + functions;
        }

        private static double seconds(Optional<Duration> cpu) {
            return cpu.map(d -> d.toMillis() / 1000.0).orElse(0.0);
        }
    }
}
