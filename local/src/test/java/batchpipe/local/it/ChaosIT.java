package batchpipe.local.it;

import batchpipe.local.chaos.Books;
import batchpipe.local.chaos.Chaos;
import batchpipe.local.chaos.ChaosProfile;
import batchpipe.local.chaos.ChaosStackSettings;
import batchpipe.local.demo.Demo;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"crash", "abort", "throttle", "s3-break", "sqs-fail", "timeout", "duplicate", "all"})
    void profile_injectsItsFaultsAndTheBooksBalance(String profiles) throws Exception {
        // The chaos demo's rule-keeping settings (visibility timeout 6 x the worker's timeout, never
        // shorter), with a 2 s worker timeout for this small workload so that failed messages return within 12 s.
        StackTemplate template = StackTemplate.load(ProjectHome.find().resolve("template.yaml"),
                ChaosStackSettings.parameterOverrides(Map.of("WorkerTimeout", "2"), false));
        Set<ChaosProfile> chosen = ChaosProfile.parse(profiles);
        try (LocalStack stack = LocalStack.start(ProjectHome.find(), template, "chaos" + profiles.replace("-", ""), LocalStack.Ports.free())) {
            stack.useForThisProcess();
            Chaos chaos = Chaos.activate(chosen, 0.1, 7, true);
            Demo.Outcome outcome;
            PrintStream stdout = System.out;
            System.setOut(new PrintStream(OutputStream.nullOutputStream()));
            try (LocalPipeline pipeline = LocalPipeline.start(stack, new PrintStream(OutputStream.nullOutputStream()), true)) {
                outcome = new Demo(pipeline).run(new Demo.Settings(6, 2_000, 6, 8, 4, 3, null, out, true, Duration.ofMinutes(4)),
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
