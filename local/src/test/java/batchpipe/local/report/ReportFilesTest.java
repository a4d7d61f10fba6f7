package batchpipe.local.report;

import batchpipe.common.run.HashOutcome;
import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.run.WorkerInvocation;
import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.delivery.ReportLocation;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.withSettings;

class ReportFilesTest {
    @TempDir
    Path tmp;

    private static RunReport report() {
        TaskRecord task = TaskRecord.builder().runId("r1").taskId("hash-000001").kind("hash").status(TaskStatus.DONE).enqueuedAt(0L)
                .startedAt(10).finishedAt(1_010)
                .invocation(new WorkerInvocation("req-1", "worker", null, 1024, "arm64", null, null, null, null))
                .hash(new HashOutcome(10, 4)).build();
        RunRecord run = new RunRecord("r1", "files", null, new Planned(0, 1, 1), 0, 0, "running", 1, null, null, List.of(), null, null);
        return RunReport.of("r1", run, List.of(task), PriceTable.defaults(), ReportInputs.withoutReportLines(CostAssumptions.defaults()));
    }

    @Test
    void write_replacesALinkNamedLikeAReportFileAndLeavesItsTargetAlone() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("out/r1"));
        Path elsewhere = Files.writeString(tmp.resolve("elsewhere.txt"), "not yours");
        Path dangling = tmp.resolve("does-not-exist-yet");
        Files.createSymbolicLink(dir.resolve("report.md"), elsewhere);
        Files.createSymbolicLink(dir.resolve("tasks.csv"), dangling);

        List<Path> files = ReportFiles.write(dir, report());

        assertThat(Files.readString(elsewhere)).isEqualTo("not yours");
        assertThat(dangling).doesNotExist();
        for (Path file : files) {
            assertThat(Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)).as(file.toString()).isTrue();
        }
        assertThat(Files.readString(dir.resolve("report.md"))).startsWith("# Batchpipe run r1\n");
        assertThat(Files.readString(dir.resolve("tasks.csv"))).startsWith("runId,taskId,");
    }

    @Test
    void write_leavesOnlyTheReportFilesInTheFolder() throws IOException {
        Path dir = tmp.resolve("out/r1");

        ReportFiles.write(dir, report());
        ReportFiles.write(dir, report());

        try (var names = Files.list(dir)) {
            assertThat(names.map(p -> p.getFileName().toString())).containsExactlyInAnyOrderElementsOf(ReportFiles.RUN_FILES);
        }
    }

    @Test
    void write_refusesAFolderThatIsAFileAndNamesIt() throws IOException {
        Path file = Files.writeString(tmp.resolve("report-here"), "a file");

        assertThatThrownBy(() -> ReportFiles.write(file, report())).isInstanceOf(IOException.class)
                .hasMessage(file + " is a file; give a folder");
        assertThat(Files.readString(file)).isEqualTo("a file");
    }

    @Test
    void whyNotAFolder_acceptsAFolderALinkToOneAndNothingYet() throws IOException {
        Path folder = Files.createDirectories(tmp.resolve("folder"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), folder);
        Path dangling = Files.createSymbolicLink(tmp.resolve("dangling"), tmp.resolve("nowhere"));

        assertThat(ReportFiles.whyNotAFolder(folder)).isNull();
        assertThat(ReportFiles.whyNotAFolder(link)).isNull();
        assertThat(ReportFiles.whyNotAFolder(tmp.resolve("new"))).isNull();
        assertThat(ReportFiles.whyNotAFolder(dangling)).isEqualTo("is not a folder; give a folder");
    }

    @Test
    void copy_ofAReportStoredBeforeCountbyCsvCopiesTheOthersAndGoesOn() throws IOException {
        S3Client s3 = mock(S3Client.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        doAnswer(call -> {
            GetObjectRequest request = call.getArgument(0);
            if (request.key().endsWith("countby.csv")) throw NoSuchKeyException.builder().message("no such key").build();
            return ResponseBytes.fromByteArray(GetObjectResponse.builder().build(), ("content of " + request.key()).getBytes());
        }).when(s3).getObjectAsBytes(any(GetObjectRequest.class));
        ReportLocation location = StoredReports.runFolder("bucket", "reports/", "r1");

        List<Path> copied = ReportFiles.copy(s3, location, tmp.resolve("copy"));

        assertThat(copied).extracting(p -> p.getFileName().toString()).containsExactly("report.json", "report.md", "tasks.csv", "report.html");
        assertThat(Files.readString(tmp.resolve("copy/tasks.csv"))).isEqualTo("content of reports/r1/tasks.csv");
    }

    @Test
    void copy_stillFailsWhenAFileEveryReportHasIsMissing() {
        S3Client s3 = mock(S3Client.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        doAnswer(call -> {
            throw NoSuchKeyException.builder().message("no such key").build();
        }).when(s3).getObjectAsBytes(any(GetObjectRequest.class));

        assertThatThrownBy(() -> ReportFiles.copy(s3, StoredReports.runFolder("bucket", "reports/", "r1"), tmp.resolve("copy")))
                .isInstanceOf(NoSuchKeyException.class);
    }

}
