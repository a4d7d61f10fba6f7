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
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 10,000 tasks through the local stack with nothing lost or doubled. Slow (minutes), so tagged "load"
 * and left out of the default run: BATCHPIPE_LOAD_TESTS=1 ./batchpipe test runs it.
 */
@Tag("load")
class LoadIT {
    @TempDir
    Path out;

    @Test
    void tenThousandTasks_eachRecordedAndCountedOnce() throws Exception {
        StackTemplate template = StackTemplate.load(ProjectHome.find().resolve("template.yaml"),
                Map.of("WorkerBatchSize", "50", "WorkerBatchingWindowSeconds", "1", "WorkerMaxConcurrency", "8"));
        try (LocalStack stack = SharedEmulators.stack(template, "load")) {
            stack.useForThisProcess();
            PrintStream stdout = System.out;
            System.setOut(new PrintStream(OutputStream.nullOutputStream()));
            Demo.Outcome outcome;
            try (LocalPipeline pipeline = LocalPipeline.start(stack, new PrintStream(OutputStream.nullOutputStream()), true)) {
                // 400 small objects to scan and 9,600 hash batches of one cost-4 password.
                outcome = new Demo(pipeline).run(Demo.Settings.builder().objects(400).linesPerObject(200).hashBatches(9_600)
                        .hashBatchSize(1).hashCost(4).seed(9).outDir(out).timeout(Duration.ofMinutes(30)).build(),
                        (done, total) -> { });
            } finally {
                System.setOut(stdout);
            }
            Books.Audit audit = Books.audit(stack, outcome.runId());
            System.out.println("load: " + audit.summary());
            assertThat(audit.problems()).isEmpty();
            assertThat(audit.planned()).isEqualTo(10_000);
            assertThat(audit.recordsByStatus()).isEqualTo(Map.of("done", 10_000L));
            assertThat(audit.hashItems()).isEqualTo(9_600);
        }
    }
}
