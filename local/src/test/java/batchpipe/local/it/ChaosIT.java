package batchpipe.local.it;

import batchpipe.local.chaos.Books;
import batchpipe.local.chaos.Chaos;
import batchpipe.local.chaos.ChaosProfile;
import batchpipe.local.chaos.ChaosStackSettings;
import batchpipe.local.demo.Demo;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.SharedEmulators;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every fault profile against a real local run: the faults are injected (each at least once) and the
 * books balance afterwards: one final record per planned task, counters equal to the records, whole
 * hash batches, a dead-letter queue holding exactly the failed tasks, and a report.
 */
class ChaosIT {
    @TempDir
    Path out;

    @AfterEach
    void calmDown() {
        Chaos.deactivate();
    }

    /**
     * Every fault profile in one run, each injected at least once: until December 2026 this was one run per
     * profile and one of all of them (eight stacks, four minutes of the suite). The all-profiles run makes
     * the same checks for every profile (its faults were injected; the books balance; every planned task has
     * one final record), so the single-profile runs added time, not checks (docs/TESTS.md).
     */
    @Test
    void everyProfileAtOnce_injectsEachProfilesFaultsAndTheBooksBalance() throws Exception {
        String profiles = "all";
        // The chaos demo's rule-keeping settings (visibility timeout 6 x the worker's timeout, never
        // shorter), with a 2 s worker timeout for this small workload so that failed messages return within 12 s.
        StackTemplate template = StackTemplate.load(ProjectHome.find().resolve("template.yaml"),
                ChaosStackSettings.parameterOverrides(Map.of("WorkerTimeout", "2"), false));
        Set<ChaosProfile> chosen = ChaosProfile.parse(profiles);
        try (LocalStack stack = SharedEmulators.stack(template, "chaosall")) {
            stack.useForThisProcess();
            Chaos chaos = Chaos.activate(chosen, 0.1, 7, true);
            Demo.Outcome outcome;
            PrintStream stdout = System.out;
            System.setOut(new PrintStream(OutputStream.nullOutputStream()));
            try (LocalPipeline pipeline = LocalPipeline.start(stack, new PrintStream(OutputStream.nullOutputStream()), true)) {
                outcome = new Demo(pipeline).run(Demo.Settings.builder().objects(6).linesPerObject(2_000).hashBatches(6)
                        .hashBatchSize(8).hashCost(4).seed(3).outDir(out).timeout(Duration.ofMinutes(4)).build(),
                        (done, total) -> { });
            } finally {
                System.setOut(stdout);
            }
            Map<String, Long> injected = chaos.injected();
            Books.Audit audit = Books.audit(stack, outcome.runId());
            System.out.println("chaos " + profiles + ": injected " + injected + "; " + audit.summary());

            for (ChaosProfile profile : chosen) {
                assertThat(injected.keySet()).as("a fault of " + profile + " was injected")
                        .anyMatch(fault -> matches(profile, fault));
            }
            assertThat(audit.problems()).isEmpty();
            assertThat(audit.planned()).isEqualTo(12);
            assertThat(audit.recordsByStatus().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(12);
        }
    }

    /**
     * The chaos demo's faults at its rate of 0.3 on a run whose items are spread over several partition keys: a run
     * with enough hash write units that the producer gives it 4 keys (16 batches of 200 hashes, 16 x 211 write
     * units, and 6 scans of 13: 3,454 units, docs/SCALE.md), so that records, hash items and attempt errors are
     * written to and read from several keys, and the aggregator merges its keys' Queries, while workers crash,
     * time out and are throttled.
     */
    @Test
    void allProfilesAtRate03_onARunOverSeveralPartitionKeys_theBooksBalance() throws Exception {
        // The 2 s worker timeout of the run above (visibility 12 s): with the demo's 5 s (30 s) the run's ~19
        // dead-lettered messages made this test 155 s of waiting for five receives each.
        StackTemplate template = StackTemplate.load(ProjectHome.find().resolve("template.yaml"),
                ChaosStackSettings.parameterOverrides(Map.of("WorkerTimeout", "2"), false));
        Set<ChaosProfile> chosen = ChaosProfile.parse("all");
        try (LocalStack stack = SharedEmulators.stack(template, "chaospartitioned")) {
            stack.useForThisProcess();
            Chaos chaos = Chaos.activate(chosen, 0.3, 7, true);
            Demo.Outcome outcome;
            Books.Audit audit;
            PrintStream stdout = System.out;
            System.setOut(new PrintStream(OutputStream.nullOutputStream()));
            try (LocalPipeline pipeline = LocalPipeline.start(stack, new PrintStream(OutputStream.nullOutputStream()), true)) {
                outcome = new Demo(pipeline).run(Demo.Settings.builder().objects(6).linesPerObject(2_000).hashBatches(16)
                        .hashBatchSize(200).hashCost(4).seed(3).outDir(out).timeout(Duration.ofMinutes(8)).build(),
                        (done, total) -> { });
                // as the chaos demo does: at this rate done tasks' messages may still be returning, to be closed by the recorder
                Books.settle(pipeline);
                audit = Books.audit(stack, outcome.runId());
            } finally {
                System.setOut(stdout);
            }
            Map<String, Long> injected = chaos.injected();
            System.out.println("chaos all at 0.3 over several keys: injected " + injected + "; " + audit.summary());

            assertThat(audit.partitionKeys()).as("the run's partition keys").isEqualTo(4);
            assertThat(audit.keysHoldingTasks()).as("keys holding task records").isGreaterThan(1);
            assertThat(injected.values().stream().mapToLong(Long::longValue).sum()).as("faults injected").isGreaterThan(0);
            assertThat(audit.problems()).isEmpty();
            assertThat(audit.planned()).isEqualTo(22);
            assertThat(audit.recordsByStatus().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(22);
            assertThat(audit.counted()).isEqualTo(22);
            assertThat(outcome.report().figures().overall().tasks()).as("the report counts every task once").isEqualTo(22);
        }
    }

    private static boolean matches(ChaosProfile profile, String fault) {
        return switch (profile) {
            case CRASH -> fault.contains("crashed");
            case ABORT -> fault.contains("aborted");
            case THROTTLE -> fault.contains("throttled") || fault.contains("UnprocessedItems");
            case S3_BREAK -> fault.contains("S3 read");
            case SQS_FAIL -> fault.startsWith("sqs");
            case TIMEOUT -> fault.contains("deadline");
            case DUPLICATE -> fault.contains("twice");
        };
    }
}
