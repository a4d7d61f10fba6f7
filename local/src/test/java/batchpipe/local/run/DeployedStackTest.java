package batchpipe.local.run;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.CloudFormationException;
import software.amazon.awssdk.services.cloudformation.model.DescribeStacksRequest;
import software.amazon.awssdk.services.cloudformation.model.DescribeStacksResponse;
import software.amazon.awssdk.services.cloudformation.model.Output;
import software.amazon.awssdk.services.cloudformation.model.Parameter;
import software.amazon.awssdk.services.cloudformation.model.Stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.withSettings;

class DeployedStackTest {
    private final CloudFormationClient cloudFormation = mock(CloudFormationClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));

    private static Output output(String key, String value) {
        return Output.builder().outputKey(key).outputValue(value).build();
    }

    @Test
    void describe_readsQueueTableAndBucketFromTheStacksOutputs() {
        doReturn(DescribeStacksResponse.builder().stacks(Stack.builder().stackName("bp").outputs(
                output("TasksQueueUrl", "https://sqs.us-east-1.amazonaws.com/1/bp-TasksQueue-X"),
                output("RunsTableName", "bp-RunsTable-Y"),
                output("DataBucketName", "bp-databucket-z")).build()).build())
                .when(cloudFormation).describeStacks(any(DescribeStacksRequest.class));

        assertThat(DeployedStack.describe(cloudFormation, "bp")).isEqualTo(new DeployedStack("bp",
                "https://sqs.us-east-1.amazonaws.com/1/bp-TasksQueue-X", "bp-RunsTable-Y", "bp-databucket-z"));
    }

    @Test
    void describe_readsWhereTheStacksReportsLand() {
        doReturn(DescribeStacksResponse.builder().stacks(Stack.builder().stackName("bp").outputs(
                output("TasksQueueUrl", "q"), output("RunsTableName", "t"), output("ReportsLocation", "s3://bp-databucket-z/reports/")).build()).build())
                .when(cloudFormation).describeStacks(any(DescribeStacksRequest.class));

        assertThat(DeployedStack.describe(cloudFormation, "bp").reportsLocation()).isEqualTo("s3://bp-databucket-z/reports/");
    }

    @Test
    void describe_readsTheCompletionsAndDeadLetterQueuesARunOnTheStackIsPlannedAndWatchedWith() {
        doReturn(DescribeStacksResponse.builder().stacks(Stack.builder().stackName("bp").outputs(
                output("TasksQueueUrl", "q"), output("RunsTableName", "t"),
                output("CompletionsQueueUrl", "https://sqs/bp-CompletionsQueue-C"),
                output("TasksDeadLetterQueueUrl", "https://sqs/bp-TasksDeadLetterQueue-D")).build()).build())
                .when(cloudFormation).describeStacks(any(DescribeStacksRequest.class));

        DeployedStack stack = DeployedStack.describe(cloudFormation, "bp");

        assertThat(stack.completionsQueueUrl()).isEqualTo("https://sqs/bp-CompletionsQueue-C");
        assertThat(stack.tasksDeadLetterQueueUrl()).isEqualTo("https://sqs/bp-TasksDeadLetterQueue-D");
    }

    @Test
    void describe_ofAStackWithoutTheQueueOutputsLeavesThemUnknown() {
        doReturn(DescribeStacksResponse.builder().stacks(Stack.builder().stackName("bp").outputs(
                output("TasksQueueUrl", "q"), output("RunsTableName", "t")).build()).build())
                .when(cloudFormation).describeStacks(any(DescribeStacksRequest.class));

        assertThat(DeployedStack.describe(cloudFormation, "bp").completionsQueueUrl()).isNull();
    }

    @Test
    void describe_readsTheWorkerLogGroupsWhereTheStackHasThem() {
        doReturn(DescribeStacksResponse.builder().stacks(Stack.builder().stackName("bp").outputs(
                output("TasksQueueUrl", "q"), output("RunsTableName", "t"),
                output("WorkerLogGroupName", "bp-WorkerLogGroup-A1"), output("WorkerTwinLogGroupName", "bp-WorkerTwinLogGroup-B2")).build()).build())
                .when(cloudFormation).describeStacks(any(DescribeStacksRequest.class));

        assertThat(DeployedStack.describe(cloudFormation, "bp").workerLogGroups())
                .containsExactly("bp-WorkerLogGroup-A1", "bp-WorkerTwinLogGroup-B2");
    }

    @Test
    void describe_readsTheSettingsARunIsPlannedWith_fromTheStacksParameters() {
        doReturn(DescribeStacksResponse.builder().stacks(Stack.builder().stackName("bp").outputs(output("TasksQueueUrl", "q"), output("RunsTableName", "t"))
                .parameters(Parameter.builder().parameterKey("MaxHashCost").parameterValue("16").build(),
                        Parameter.builder().parameterKey("WorkerMaxConcurrency").parameterValue("200").build()).build()).build())
                .when(cloudFormation).describeStacks(any(DescribeStacksRequest.class));

        DeployedStack stack = DeployedStack.describe(cloudFormation, "bp");

        assertThat(stack.maxHashCost()).isEqualTo(16);
        assertThat(stack.workerMaxConcurrency()).isEqualTo(200);
    }

    @Test
    void describe_ofAStackWithoutThoseParameters_plansWithTheTemplatesDefaults() {
        doReturn(DescribeStacksResponse.builder().stacks(Stack.builder().stackName("bp").outputs(output("TasksQueueUrl", "q"), output("RunsTableName", "t"))
                .build()).build()).when(cloudFormation).describeStacks(any(DescribeStacksRequest.class));

        DeployedStack stack = DeployedStack.describe(cloudFormation, "bp");

        assertThat(stack.maxHashCost()).isEqualTo(14);
        assertThat(stack.workerMaxConcurrency()).isEqualTo(5);
    }

    @Test
    void describe_namesTheMissingOutputOfAStackThatIsNotBatchpipe() {
        doReturn(DescribeStacksResponse.builder().stacks(Stack.builder().stackName("other").outputs(output("ApiUrl", "x")).build()).build())
                .when(cloudFormation).describeStacks(any(DescribeStacksRequest.class));

        assertThatThrownBy(() -> DeployedStack.describe(cloudFormation, "other"))
                .hasMessageContaining("stack 'other' has no output TasksQueueUrl").hasMessageContaining("ApiUrl");
    }

    @Test
    void describe_reportsAStackThatDoesNotExist() {
        doThrow(CloudFormationException.builder().awsErrorDetails(AwsErrorDetails.builder()
                .errorMessage("Stack with id nope does not exist").build()).build())
                .when(cloudFormation).describeStacks(any(DescribeStacksRequest.class));

        assertThatThrownBy(() -> DeployedStack.describe(cloudFormation, "nope"))
                .hasMessageContaining("stack 'nope' not found or not readable: Stack with id nope does not exist");
    }
}
