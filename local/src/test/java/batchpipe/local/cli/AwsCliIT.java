package batchpipe.local.cli;

import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.SharedEmulators;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * README says the AWS CLI works against `local up` with the lines it prints: `aws s3 cp` both ways,
 * with exactly those exports (LocalCommand.Up.exports), against the stack's own bucket; and without the
 * two checksum settings it does not, which is why they are printed.
 */
class AwsCliIT {
    private static LocalStack stack;
    private static String bucket;
    private static Path aws;

    @BeforeAll
    static void start() throws Exception {
        aws = onPath("aws");
        assumeTrue(aws != null, "the AWS CLI is not on PATH: `aws s3 cp` against local up not tested (pip install awscli to run it)");
        stack = SharedEmulators.stack(StackTemplate.load(ProjectHome.find().resolve("template.yaml"), Map.of()), "awscliit");
        bucket = stack.ref("DataBucket");
    }

    @AfterAll
    static void stop() throws Exception {
        if (stack != null) stack.close();
    }

    @Test
    void awsS3Cp_uploadsAndDownloads_withTheExportsLocalUpPrints(@TempDir Path dir) throws Exception {
        Map<String, String> exports = LocalCommand.Up.exports(stack);
        String body = "uploaded by the AWS CLI " + UUID.randomUUID() + "\n";
        Path up = Files.writeString(dir.resolve("up.txt"), body);

        Result upload = aws(exports, "s3", "cp", up.toString(), "s3://" + bucket + "/awscli/up.txt");

        assertThat(upload.exit()).as("aws s3 cp to the bucket: %s", upload.output()).isZero();
        assertThat(stack.s3().getObjectAsBytes(b -> b.bucket(bucket).key("awscli/up.txt")).asUtf8String()).isEqualTo(body);

        String stored = "stored by the SDK " + UUID.randomUUID() + "\n";
        stack.s3().putObject(b -> b.bucket(bucket).key("awscli/down.txt"), RequestBody.fromString(stored));
        Path down = dir.resolve("down.txt");

        Result download = aws(exports, "s3", "cp", "s3://" + bucket + "/awscli/down.txt", down.toString());

        assertThat(download.exit()).as("aws s3 cp from the bucket: %s", download.output()).isZero();
        assertThat(Files.readString(down, StandardCharsets.UTF_8)).isEqualTo(stored);
    }

    @Test
    void awsS3Cp_download_failsWithoutTheChecksumSettings_soLocalUpMustPrintThem(@TempDir Path dir) throws Exception {
        stack.s3().putObject(b -> b.bucket(bucket).key("awscli/checksum.txt"), RequestBody.fromString("x"));
        Map<String, String> endpointsOnly = new HashMap<>(stack.endpointSettings());

        Result download = aws(endpointsOnly, "s3", "cp", "s3://" + bucket + "/awscli/checksum.txt", dir.resolve("c.txt").toString());

        assertThat(download.exit()).as("aws s3 cp without AWS_RESPONSE_CHECKSUM_VALIDATION: %s", download.output()).isNotZero();
        assertThat(download.output()).contains("NotImplemented");
    }

    private record Result(int exit, String output) {
    }

    /** The AWS CLI in a shell that has only the given variables of AWS's (no profile, no config file of the user's). */
    private static Result aws(Map<String, String> variables, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(aws.toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("AWS_"));
        builder.environment().put("AWS_CONFIG_FILE", "/dev/null");
        builder.environment().put("AWS_SHARED_CREDENTIALS_FILE", "/dev/null");
        builder.environment().putAll(variables);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("aws finished").isTrue();
        return new Result(process.exitValue(), output);
    }

    private static Path onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) return null;
        return Stream.of(path.split(File.pathSeparator)).filter(d -> !d.isBlank()).map(d -> Path.of(d, program))
                .filter(Files::isExecutable).findFirst().orElse(null);
    }
}
