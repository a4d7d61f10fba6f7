package batchpipe.local.report;

import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.delivery.ReportLocation;
import batchpipe.aggregator.delivery.ReportStore;
import batchpipe.common.run.ScanOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.run.WorkerInvocation;
import batchpipe.common.run.WriteTimes;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.SharedEmulators;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * tasks.csv larger than one part goes to the local stack's S3 (S3Proxy) as a multipart upload, and reads
 * back byte for byte as the rows rendered in memory; the other files still go whole.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TasksCsvMultipartIT {
    private LocalStack stack;

    @BeforeAll
    void startTheStack() throws Exception {
        StackTemplate template = StackTemplate.load(ProjectHome.find().resolve("template.yaml"), Map.of());
        stack = SharedEmulators.stack(template, "multipartit");
    }

    @AfterAll
    void stopTheStack() {
        if (stack != null) stack.close();
    }

    @Test
    void store_uploadsATasksCsvOfSeveralPartsThatReadsBackWhole() {
        List<TaskRecord> tasks = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) {
            Map<String, Long> status = new TreeMap<>();
            for (int v = 0; v < 30; v++) status.put("status-" + (i * 7 + v) % 100, 1L + v);
            WorkerInvocation worker = new WorkerInvocation("req-" + i / 10, "worker", "1", 1769, "x86_64", 2, 1.0, false, null);
            tasks.add(TaskRecord.builder().runId("mp-run").taskId(String.format("t%06d", i)).kind("scan").status(TaskStatus.DONE)
                    .enqueuedAt(1_000L).startedAt(2_000 + i).finishedAt(2_500 + i).attempt(1).invocation(worker)
                    .writes(new WriteTimes(3, 9.5, 4.0)).scan(new ScanOutcome("bkt", "logs/" + i + ".zst", 10, 0, List.of(), 0, 1_000, 100,
                            Map.of("status", status), Map.of("status", 30L), null, null, null)).sentAt(1_500L).build());
        }
        String bucket = stack.ref("DataBucket");
        try (RunReport report = RunReport.of("mp-run", null, tasks, PriceTable.defaults(), ReportInputs.withoutReportLines(CostAssumptions.defaults()))) {
            String expected = report.tasksCsv().render();
            assertThat(expected.length()).as("more than one 8 MiB part").isGreaterThan(9 << 20);

            ReportLocation location = new ReportStore(stack.s3(), bucket, "reports/").store("mp-run", report);

            String stored = stack.s3().getObjectAsBytes(b -> b.bucket(bucket).key(location.key("tasks.csv"))).asString(StandardCharsets.UTF_8);
            assertThat(stored).isEqualTo(expected);
            assertThat(stack.s3().headObject(b -> b.bucket(bucket).key(location.key("tasks.csv"))).eTag()).as("a multipart ETag").contains("-");
            // countby.csv, a row per task, path and value, streams the same way
            String expectedCountBy = report.tasksCsv().renderCountBy();
            assertThat(expectedCountBy.length()).as("more than one 8 MiB part").isGreaterThan(9 << 20);
            assertThat(stack.s3().getObjectAsBytes(b -> b.bucket(bucket).key(location.key("countby.csv"))).asString(StandardCharsets.UTF_8))
                    .isEqualTo(expectedCountBy);
            assertThat(stack.s3().headObject(b -> b.bucket(bucket).key(location.key("countby.csv"))).eTag()).as("a multipart ETag").contains("-");
            assertThat(stack.s3().headObject(b -> b.bucket(bucket).key(location.key("report.json"))).contentLength()).isPositive();
        }
    }
}
