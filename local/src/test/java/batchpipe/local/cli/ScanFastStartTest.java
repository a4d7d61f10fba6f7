package batchpipe.local.cli;

import com.github.luben.zstd.Zstd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class ScanFastStartTest {

    /** What a parsed scan command holds, to compare the two readings. */
    private record Reading(List<String> inputs, List<String> countBy, String contains, String field, String equals, Integer workers) {
        static Reading of(ScanArguments c) {
            return new Reading(c.inputs, List.copyOf(c.countBy), c.contains, c.field, c.equals, c.workers);
        }
    }

    private static Reading picocli(String... args) {
        ScanCommand command = new ScanCommand();
        new CommandLine(command).parseArgs(Arrays.copyOfRange(args, 1, args.length));
        return Reading.of(command.arguments());
    }

    @Test
    void readsEveryShapeItAcceptsExactlyAsPicocliDoes() {
        String[][] options = {
                {"--count-by", "level,status"}, {"--count-by=level"}, {"--count-by", "http.status,level,user.id"},
                {"--contains", "timeout"}, {"--contains=\"level\":\"error\""}, {"--contains", "a b=c"},
                {"--field", "status", "--equals", "500"}, {"--field=http.status", "--equals=\"x\""},
                {"--workers", "2"}, {"--workers=17"}, {"--workers", "0"}, {"--workers", "007"},
        };
        Random random = new Random(19);
        int compared = 0;
        for (int round = 0; round < 2_000; round++) {
            List<String[]> chosen = new ArrayList<>();
            for (String[] option : options) {
                if (random.nextInt(3) == 0) chosen.add(option);
            }
            List<String> inputs = new ArrayList<>(List.of("a.jsonl.zst", "s3://b/k", "dir/c=d.log", "x").subList(0, 1 + random.nextInt(4)));
            List<List<String>> pieces = new ArrayList<>();
            chosen.forEach(o -> pieces.add(List.of(o)));
            inputs.forEach(i -> pieces.add(List.of(i)));
            Collections.shuffle(pieces, random);
            List<String> args = new ArrayList<>(List.of("scan"));
            pieces.forEach(args::addAll);
            String[] argv = args.toArray(String[]::new);
            ScanArguments fast = ScanFastStart.parse(argv);
            Reading expected;
            try {
                expected = picocli(argv);
            } catch (CommandLine.ParameterException e) {
                assertThat(fast).as("picocli refuses %s (%s)", args, e.getMessage()).isNull();
                continue;
            }
            if (fast != null) {
                assertThat(Reading.of(fast)).as(String.join(" ", args)).isEqualTo(expected);
                compared++;
            }
        }
        assertThat(compared).as("argument vectors read by both").isGreaterThan(500);
    }

    @Test
    void declinesWhatItDoesNotReadExactlyAsPicocli() {
        String[][] declined = {
                {"scan"}, {"scan", "--help"}, {"scan", "-h"}, {"scan", "--version"}, {"scan", "--", "-odd-name"},
                {"scan", "@args.txt"}, {"scan", "f", "--workers"}, {"scan", "f", "--wrokers", "2"},
                {"scan", "f", "--contains", "a", "--contains", "b"}, {"scan", "f", "--equals", "-1", "--field", "x"},
                {"scan", "f", "--count-by", "a,,b"}, {"scan", "f", "--count-by", "\"a,b\",c"}, {"scan", "f", "--count-by="},
                {"scan", "f", "--workers", "-1"}, {"scan", "f", "--workers", "two"}, {"scan", "f", "--workers", "99999999999"},
                {"scan", ""}, {"scan", "f", "-"}, {"hash", "f"},
        };
        for (String[] args : declined) {
            assertThat(ScanFastStart.parse(args)).as(String.join(" ", args)).isNull();
        }
    }

    @Test
    void knowsEveryOptionOfTheScanCommandSoNoneIsReadOnlyByPicocli() {
        Set<String> picocliOptions = new CommandLine(new ScanCommand()).getCommandSpec().options().stream()
                .filter(o -> !o.usageHelp() && !o.versionHelp())
                .flatMap(o -> Arrays.stream(o.names()))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(picocliOptions).isEqualTo(new TreeSet<>(ScanFastStart.OPTIONS));
    }

    @Test
    void theScansPathReferencesNoPicocliTypeSoTheStartUpCacheNeverLoadsPicocli() throws Exception {
        for (Class<?> type : List.of(CliMain.class, ScanFastStart.class, ScanArguments.class, ScanArguments.Plan.class,
                ScanArguments.UsageError.class)) {
            String resource = type.getName().replace('.', '/') + ".class";
            try (var in = type.getClassLoader().getResourceAsStream(resource)) {
                assertThat(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1)).as(resource).doesNotContain("picocli/");
            }
        }
    }

    @Test
    void printsTheSameStatsAsThePicocliPathAndLeavesUsageErrorsToIt(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("app.jsonl.zst");
        String lines = "{\"level\":\"info\",\"status\":200}\n{\"level\":\"error\",\"status\":500}\nnot json\n";
        Files.write(log, Zstd.compress(lines.getBytes(StandardCharsets.UTF_8)));
        String[] args = {"scan", log.toString(), "--workers", "2", "--count-by", "level,status", "--contains", "error"};

        InProcessCli.Result viaPicocli = InProcessCli.run(args);
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Integer exitCode;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            exitCode = ScanFastStart.run(args);
        } finally {
            System.setOut(original);
        }
        assertThat(viaPicocli.exitCode()).isZero();
        assertThat(exitCode).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(viaPicocli.out()).contains("\"events\":2");

        // read, but out of its limits: nothing is run here, and picocli reports it as before
        assertThat(ScanFastStart.run(new String[] {"scan", log.toString(), "--workers", "0"})).isNull();
        assertThat(ScanFastStart.run(new String[] {"scan", dir.resolve("missing.zst").toString()})).isNull();
        assertThat(ScanFastStart.run(new String[] {"scan", "s3://bucket-only"})).isNull();
        assertThat(InProcessCli.run("scan", "s3://bucket-only").err()).contains("expected s3://bucket/key, got s3://bucket-only");
        assertThat(ScanFastStart.run(new String[] {"scan", dir.toString()})).isNull();
        InProcessCli.Result folder = InProcessCli.run("scan", dir.toString());
        assertThat(folder.exitCode()).isEqualTo(2);
        assertThat(folder.err()).contains("input is a folder, not a file: " + dir);
    }
}
