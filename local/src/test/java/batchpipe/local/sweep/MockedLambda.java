package batchpipe.local.sweep;

import org.mockito.Mockito;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.CreateAliasRequest;
import software.amazon.awssdk.services.lambda.model.CreateAliasResponse;
import software.amazon.awssdk.services.lambda.model.DeleteAliasRequest;
import software.amazon.awssdk.services.lambda.model.DeleteAliasResponse;
import software.amazon.awssdk.services.lambda.model.DeleteFunctionRequest;
import software.amazon.awssdk.services.lambda.model.DeleteFunctionResponse;
import software.amazon.awssdk.services.lambda.model.GetFunctionConfigurationRequest;
import software.amazon.awssdk.services.lambda.model.GetFunctionConfigurationResponse;
import software.amazon.awssdk.services.lambda.model.LastUpdateStatus;
import software.amazon.awssdk.services.lambda.model.PublishVersionRequest;
import software.amazon.awssdk.services.lambda.model.PublishVersionResponse;
import software.amazon.awssdk.services.lambda.model.State;
import software.amazon.awssdk.services.lambda.model.UpdateFunctionConfigurationRequest;
import software.amazon.awssdk.services.lambda.model.UpdateFunctionConfigurationResponse;

import java.util.concurrent.atomic.AtomicInteger;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doReturn;

/** The Lambda client the AWS sweep tests start from: every control call succeeds; each test stubs invoke itself. */
final class MockedLambda {
    private MockedLambda() {
    }

    /**
     * A mock whose functions are active at 1,769 MB, whose configuration updates, alias and function
     * changes succeed, and whose published versions count up in {@code versions}.
     */
    static LambdaClient healthy(AtomicInteger versions) {
        // The SDK's Consumer<Builder> overloads are default methods that build the request: keep them real.
        LambdaClient lambda = Mockito.mock(LambdaClient.class, Mockito.CALLS_REAL_METHODS);
        doAnswer(call -> {
            GetFunctionConfigurationRequest r = call.getArgument(0);
            return GetFunctionConfigurationResponse.builder().functionName(r.functionName()).memorySize(1769)
                    .lastUpdateStatus(LastUpdateStatus.SUCCESSFUL).state(State.ACTIVE).build();
        }).when(lambda).getFunctionConfiguration(any(GetFunctionConfigurationRequest.class));
        doReturn(UpdateFunctionConfigurationResponse.builder().build()).when(lambda).updateFunctionConfiguration(any(UpdateFunctionConfigurationRequest.class));
        doAnswer(call -> PublishVersionResponse.builder().version(Integer.toString(versions.incrementAndGet())).build())
                .when(lambda).publishVersion(any(PublishVersionRequest.class));
        doReturn(CreateAliasResponse.builder().build()).when(lambda).createAlias(any(CreateAliasRequest.class));
        doReturn(DeleteAliasResponse.builder().build()).when(lambda).deleteAlias(any(DeleteAliasRequest.class));
        doReturn(DeleteFunctionResponse.builder().build()).when(lambda).deleteFunction(any(DeleteFunctionRequest.class));
        return lambda;
    }
}
