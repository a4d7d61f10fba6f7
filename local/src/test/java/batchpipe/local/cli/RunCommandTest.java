package batchpipe.local.cli;

import batchpipe.local.run.MockedStack;
import batchpipe.producer.plan.PartitionSizing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mockito.ArgumentCaptor;
import org.mockito.Mockito;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.cloudformation.model.CloudFormationException;
import software.amazon.awssdk.services.cloudformation.model.DescribeStacksRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.verify;

/** `run --stack` through the real command line, with Mockito clients in place of the deployed stack's. */
class RunCommandTest {
    @TempDir
    Path dir;

    /** {@code run --spec SPEC --stack bp --region REGION}, the mocked stack's clients in place of AWS's. */
    private static InProcessCli.Result runOnStack(MockedStack stack, Path spec, String region) {
        return InProcessCli.run(InProcessCli.stackClients(stack::clients), "run", "--spec", spec.toString(), "--stack", MockedStack.NAME,
                "--region", region);
    }


    @Test
    void onAStack_acceptsTheHashCostTheStacksMaxHashCostAllows() throws Exception {
        // Deployed with MaxHashCost=16: its producer and worker accept cost 16, above the template's default of 14.
        MockedStack stack = new MockedStack("arm64", Map.of("MaxHashCost", "16"));
        Path spec = Files.writeString(dir.resolve("dear.json"), "{\"hash\": {\"batches\": 2, \"batchSize\": 2, \"cost\": 16}}");

        InProcessCli.Result r = runOnStack(stack, spec, "eu-west-1");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"enqueued\":2");
    }

    @Test
    void onAStack_spreadsTheRunOverThePartitionsTheStacksWorkerConcurrencyNeeds() throws Exception {
        // 5,000 tasks of ten cheap hashes: their write rate at 200 workers needs more partitions than at the default 5.
        MockedStack stack = new MockedStack("arm64", Map.of("WorkerMaxConcurrency", "200"));
        Path spec = Files.writeString(dir.resolve("cheap.json"), "{\"hash\": {\"batches\": 5000, \"batchSize\": 10, \"cost\": 4}}");
        PartitionSizing.Load load = new PartitionSizing.Load(0, false, 5000, 50_000, 4);
        assertThat(PartitionSizing.partitions(load, 200)).isGreaterThan(PartitionSizing.partitions(load, 5));

        InProcessCli.Result r = runOnStack(stack, spec, "eu-west-1");

        assertThat(r.exitCode()).as(r.err()).isZero();
        ArgumentCaptor<PutItemRequest> puts = ArgumentCaptor.forClass(PutItemRequest.class);
        verify(stack.dynamoDb, atLeastOnce()).putItem(puts.capture());
        PutItemRequest runRecord = puts.getAllValues().stream().filter(p -> p.item().containsKey("partitions")).findFirst().orElseThrow();
        assertThat(runRecord.item().get("partitions").n()).isEqualTo(Integer.toString(PartitionSizing.partitions(load, 200)));
    }

    @Test
    void onAStackNotFound_theErrorNamesTheRegionAndAccountItLookedIn() throws Exception {
        MockedStack stack = new MockedStack("arm64", Map.of());
        Mockito.doThrow(CloudFormationException.builder().awsErrorDetails(AwsErrorDetails.builder().errorCode("ValidationError")
                .errorMessage("Stack with id bp does not exist").build()).statusCode(400).build())
                .when(stack.cloudFormation).describeStacks(any(DescribeStacksRequest.class));
        Path spec = Files.writeString(dir.resolve("s.json"), "{\"hash\": {\"batches\": 2, \"batchSize\": 2, \"cost\": 4}}");

        InProcessCli.Result r = runOnStack(stack, spec, "eu-central-1");

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("stack 'bp' not found or not readable: Stack with id bp does not exist (looked in region eu-central-1"
                + " (from --region), profile default, account 123456789012; --region and --profile look elsewhere)");
    }

    @Test
    void regionOrProfileWithoutAStack_isRefused() throws Exception {
        Path spec = Files.writeString(dir.resolve("s.json"), "{\"hash\": {\"batches\": 2, \"batchSize\": 2, \"cost\": 4}}");

        InProcessCli.Result r = InProcessCli.run("run", "--spec", spec.toString(), "--region", "eu-central-1");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--region applies to a deployed stack: add --stack NAME, or leave it out for the local stack");
    }
}
