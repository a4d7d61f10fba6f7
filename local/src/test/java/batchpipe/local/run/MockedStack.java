package batchpipe.local.run;

import batchpipe.local.sweep.MockedLambda;
import org.mockito.Mockito;
import org.mockito.invocation.InvocationOnMock;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.DescribeStacksRequest;
import software.amazon.awssdk.services.cloudformation.model.DescribeStacksResponse;
import software.amazon.awssdk.services.cloudformation.model.Output;
import software.amazon.awssdk.services.cloudformation.model.Parameter;
import software.amazon.awssdk.services.cloudformation.model.Stack;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesRequest;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesResponse;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResultEntry;

import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doReturn;

/**
 * A deployed Batchpipe stack as the commands see it through Mockito clients: DescribeStacks answers its
 * outputs and parameters, the worker is a {@link MockedLambda.Deployed} function, the queues take every
 * message, the bucket is empty and the table takes every write and reads as empty (so no run completes).
 */
public final class MockedStack {
    public static final String NAME = "bp";
    public static final String WORKER = "bp-WorkerFunction-A1";
    public static final String TABLE = "bp-RunsTable-B2";
    public static final String TASKS_QUEUE = "https://sqs.eu-west-1.amazonaws.com/123456789012/bp-TasksQueue-C3";

    public final MockedLambda.Deployed worker;
    public final CloudFormationClient cloudFormation = Mockito.mock(CloudFormationClient.class, Mockito.CALLS_REAL_METHODS);
    public final SqsClient sqs = Mockito.mock(SqsClient.class, Mockito.CALLS_REAL_METHODS);
    public final S3Client s3 = emptyAnswers(S3Client.class);
    public final DynamoDbClient dynamoDb = emptyAnswers(DynamoDbClient.class);

    /** A stack whose worker runs on {@code architecture} at 1,769 MB, deployed with these template parameters. */
    public MockedStack(String architecture, Map<String, String> parameters) {
        worker = new MockedLambda.Deployed(WORKER, architecture, 1769, Map.of("MAX_RECEIVE_COUNT", "3",
                "MAX_HASH_COST", parameters.getOrDefault("MaxHashCost", "14")));
        Map<String, String> outputs = new LinkedHashMap<>();
        outputs.put("TasksQueueUrl", TASKS_QUEUE);
        outputs.put("RunsTableName", TABLE);
        outputs.put("WorkerFunctionName", WORKER);
        outputs.put("DataBucketName", "bp-databucket-d4");
        doReturn(DescribeStacksResponse.builder().stacks(Stack.builder().stackName(NAME)
                .outputs(outputs.entrySet().stream().map(e -> Output.builder().outputKey(e.getKey()).outputValue(e.getValue()).build()).toList())
                .parameters(parameters.entrySet().stream().map(e -> Parameter.builder().parameterKey(e.getKey()).parameterValue(e.getValue()).build())
                        .toList()).build()).build())
                .when(cloudFormation).describeStacks(any(DescribeStacksRequest.class));
        doReturn(GetQueueAttributesResponse.builder().attributes(Map.of(QueueAttributeName.QUEUE_ARN,
                "arn:aws:sqs:eu-west-1:123456789012:bp-TasksQueue-C3")).build()).when(sqs).getQueueAttributes(any(GetQueueAttributesRequest.class));
        doAnswer(call -> {
            SendMessageBatchRequest r = call.getArgument(0);
            List<SendMessageBatchResultEntry> sent = r.entries().stream()
                    .map(e -> SendMessageBatchResultEntry.builder().id(e.id()).messageId(UUID.randomUUID().toString()).build()).toList();
            return SendMessageBatchResponse.builder().successful(sent).build();
        }).when(sqs).sendMessageBatch(any(SendMessageBatchRequest.class));
    }

    /** The account the mocked credentials belong to. */
    public static final String ACCOUNT = "123456789012";

    /** The stack's clients, as a command's factory would make them for {@code target}. */
    public StackClients clients(AwsTarget target) {
        return StackClients.of(target, ACCOUNT, cloudFormation, worker.lambda, s3, sqs, dynamoDb);
    }

    /**
     * A mock of an SDK client whose every call succeeds with an empty response: the SDK's Consumer overloads
     * stay real (they build the request and call the other overload), the rest answer {@code builder().build()}.
     */
    public static <T> T emptyAnswers(Class<T> client) {
        return Mockito.mock(client, (InvocationOnMock call) -> {
            Method method = call.getMethod();
            if (method.isDefault() && method.getParameterCount() == 1 && Consumer.class.isAssignableFrom(method.getParameterTypes()[0])) {
                return call.callRealMethod();
            }
            try {
                Method builder = method.getReturnType().getMethod("builder");
                return builder.getReturnType().getMethod("build").invoke(builder.invoke(null));
            } catch (NoSuchMethodException notAResponse) {
                return Mockito.RETURNS_DEFAULTS.answer(call);
            }
        });
    }
}
