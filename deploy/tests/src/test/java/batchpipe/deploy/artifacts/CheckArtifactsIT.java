package batchpipe.deploy.artifacts;

import batchpipe.local.stack.ProjectHome;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * bin/check-artifacts, as CI and `make check-artifacts` run it, on the function folders this build laid
 * out (deploy/functions/&lt;module&gt;/target/function, what sam build ships): they pass, and the
 * checks that guard against drift fail when they should: a class defined in two jars, a jar the
 * module's jars.allowed does not name, and a class of the CLI's report pages in the aggregator.
 */
class CheckArtifactsIT {
    private static final Map<String, String> FUNCTIONS = Map.of("ProducerFunction", "producer", "WorkerFunction", "worker",
            "AggregatorFunction", "aggregator", "DeadLetterRecorderFunction", "worker");

    private static Path home;
    private static Path functionsDir;

    @BeforeAll
    static void locate() throws IOException {
        home = ProjectHome.find();
        functionsDir = Path.of(System.getProperty("batchpipe.functions.dir", home.resolve("deploy/functions").toString()));
    }

    @Test
    void builtFunctions_passEveryCheck_andTheirZippedSizesArePrinted(@TempDir Path dir) throws Exception {
        FUNCTIONS.forEach((id, module) -> link(dir.resolve(id), functionsDir.resolve(module).resolve("target/function")));

        Result result = checkArtifacts(dir);

        assertThat(result.exit()).as("bin/check-artifacts exit code; output:\n%s", result.output()).isZero();
        assertThat(result.output().lines().filter(l -> l.matches("check-artifacts: \\w+ ok \\(.* MB zipped\\)"))).hasSize(FUNCTIONS.size());
    }

    @Test
    void aClassDefinedInTwoJars_failsTheCheckNamingBothJars(@TempDir Path dir) throws Exception {
        Path producer = copyOfFunction(dir, "ProducerFunction", "producer");
        // A second copy of the CRaC API, as powertools-metrics' org.crac:crac once was next to org-crac.
        jar(producer.resolve("lib/crac-1.5.0.jar"), "org/crac/Core.class");

        Result result = checkArtifacts(dir);

        assertThat(result.exit()).isNotZero();
        assertThat(result.output()).contains("ProducerFunction: 1 class(es) defined in more than one jar of lib/")
                .contains("crac-1.5.0.jar").contains("org-crac-").contains("org/crac/Core.class");
    }

    @Test
    void aJarTheAllowListDoesNotName_failsTheCheckNamingIt(@TempDir Path dir) throws Exception {
        Path producer = copyOfFunction(dir, "ProducerFunction", "producer");
        jar(producer.resolve("lib/HdrHistogram-2.2.2.jar"), "org/HdrHistogram/Histogram.class");

        Result result = checkArtifacts(dir);

        assertThat(result.exit()).isNotZero();
        assertThat(result.output()).contains("ProducerFunction: lib/ has jars").contains("HdrHistogram")
                .contains("deploy/functions/producer/jars.allowed");
    }

    @Test
    void aClassOfTheCliReportPagesInTheAggregator_failsTheCheckNamingIt(@TempDir Path dir) throws Exception {
        Path aggregator = copyOfFunction(dir, "AggregatorFunction", "aggregator");
        // Where the sweep and trend code sat before it moved to local: the aggregator's classes, and the report library.
        Path sweep = aggregator.resolve("batchpipe/aggregator/report/SweepReport.class");
        Files.write(sweep, new byte[]{(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE});
        Path reportJar;
        try (Stream<Path> jars = Files.list(aggregator.resolve("lib"))) {
            reportJar = jars.filter(j -> j.getFileName().toString().matches("report-\\d.*\\.jar")).findFirst().orElseThrow();
        }
        Files.delete(reportJar);
        jar(reportJar, "batchpipe/report/Html.class", "batchpipe/report/TrendCharts$Line.class");

        Result result = checkArtifacts(dir);

        assertThat(result.exit()).isNotZero();
        assertThat(result.output()).contains("AggregatorFunction: holds 2 class(es) of the CLI's report pages")
                .contains("batchpipe/aggregator/report/SweepReport.class")
                .contains("batchpipe/report/TrendCharts$Line.class in lib/" + reportJar.getFileName())
                .doesNotContain("Html.class");
    }

    /** The function folder as {@code id}, its files linked, its folders (lib/ too) real ones that a test may add to. */
    private static Path copyOfFunction(Path dir, String id, String module) throws IOException {
        Path built = functionsDir.resolve(module).resolve("target/function");
        Path copy = dir.resolve(id);
        try (Stream<Path> files = Files.walk(built)) {
            for (Path file : files.toList()) {
                Path target = copy.resolve(built.relativize(file).toString());
                if (Files.isDirectory(file)) Files.createDirectories(target);
                else Files.createSymbolicLink(target, file);
            }
        }
        return copy;
    }

    private static void link(Path link, Path target) {
        try {
            assertThat(target.resolve("lib")).as("built function folder").isDirectory();
            Files.createSymbolicLink(link, target);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void jar(Path file, String... entries) throws IOException {
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out)) {
            for (String entry : entries) {
                jar.putNextEntry(new JarEntry(entry));
                jar.write(new byte[]{(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE});
                jar.closeEntry();
            }
        }
    }

    private record Result(int exit, String output) {
    }

    private static Result checkArtifacts(Path dir) throws Exception {
        Process process = new ProcessBuilder(List.of("bash", home.resolve("bin/check-artifacts").toString(), dir.toString()))
                .directory(home.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("bin/check-artifacts finished").isTrue();
        return new Result(process.exitValue(), output);
    }
}
