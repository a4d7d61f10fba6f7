package batchpipe.local.cli;

import batchpipe.worker.scan.LogScanner;
import batchpipe.worker.scan.ScanOptions;
import batchpipe.worker.scan.ScanResult;
import com.github.luben.zstd.ZstdInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ForkJoinPool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The mix the run that records scan's start-up cache scans ({@link ScanTraining}). */
class ScanTrainingTest {

    private static byte[] mix() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ScanTraining.writeMix(out);
        return out.toByteArray();
    }

    @Test
    void theMixIsTheSameOnEveryCall_wholeLines_aboutFourMibOfEachShape() throws Exception {
        byte[] mix = mix();
        assertThat(mix).isEqualTo(mix());
        assertThat(mix[mix.length - 1]).as("the last byte ends a line").isEqualTo((byte) '\n');
        // three shapes, each cut at the first line end after its share; a long-values line is at most ~100 KB
        assertThat(mix.length).isBetween(3 * ScanTraining.BYTES_PER_SHAPE, 3 * ScanTraining.BYTES_PER_SHAPE + 3 * 110_000);
    }

    @Test
    void everyShapeComesEarlyAndAgainLater_longLinesNarrowLinesAndMalformedOnesAmongThem() throws Exception {
        byte[] mix = mix();
        String text = new String(mix, StandardCharsets.UTF_8);
        // SampleLogs writes "ts" as an ISO string, LongValueLogs as a number, NarrowLogs writes "t"
        String firstBlocks = text.substring(0, 4 * ScanTraining.BLOCK);
        String lastBlocks = text.substring(text.length() - 8 * ScanTraining.BLOCK);
        for (String part : List.of(firstBlocks, lastBlocks)) {
            assertThat(part).contains("\n{\"ts\":\"2026-").containsPattern("\n\\{\"ts\":[0-9]").contains("\n{\"t\":");
        }
        int longest = 0, narrow = 0, start = 0;
        for (int i = 0; i < mix.length; i++) {
            if (mix[i] == '\n') {
                longest = Math.max(longest, i - start);
                if (i - start < 100) narrow++;
                start = i + 1;
            }
        }
        assertThat(longest).as("the longest line").isGreaterThanOrEqualTo(10_000);
        assertThat(narrow).as("lines under 100 bytes").isGreaterThan(50_000);

        ForkJoinPool pool = ScanArguments.parsingPool(2);
        try {
            ScanResult result = new LogScanner(pool, LogScanner.CLI_CHUNKS_PER_TASK)
                    .scan(new ByteArrayInputStream(mix), ScanOptions.defaults());
            assertThat(result.malformed()).as("malformed lines in the mix").isGreaterThan(10);
            assertThat(result.events()).isGreaterThan(100_000);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void main_writesTheMixZstdCompressed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("mix.jsonl.zst");
        ScanTraining.main(new String[] {file.toString()});
        try (InputStream in = new ZstdInputStream(Files.newInputStream(file))) {
            assertThat(in.readAllBytes()).isEqualTo(mix());
        }
    }

    @Test
    void withThePropertySet_theScanPlansTheMixInPlaceOfItsInputs_severalTimes_withItsOptions(@TempDir Path dir) throws Exception {
        ScanArguments arguments = new ScanArguments();
        arguments.inputs = List.of(dir.resolve("moved-away.jsonl").toString(), "s3://bucket/key");
        arguments.countBy = List.of("level");
        arguments.workers = 3;
        String mix = dir.resolve("mix.jsonl.zst").toString();
        System.setProperty(ScanTraining.PROPERTY, mix);
        ScanArguments.Plan plan;
        try {
            plan = arguments.plan();
        } finally {
            System.clearProperty(ScanTraining.PROPERTY);
        }
        assertThat(plan.inputs()).hasSize(ScanTraining.PASSES).containsOnly(mix);
        assertThat(plan.threads()).isEqualTo(3);
        assertThat(plan.options().countBy()).containsExactly("level");
        assertThatThrownBy(arguments::plan).as("without the property").hasMessageContaining("input file not found");
    }
}
