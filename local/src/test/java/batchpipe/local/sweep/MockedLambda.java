package batchpipe.local.sweep;

import org.mockito.Mockito;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.CreateAliasRequest;
import software.amazon.awssdk.services.lambda.model.CreateAliasResponse;
import software.amazon.awssdk.services.lambda.model.DeleteAliasRequest;
import software.amazon.awssdk.services.lambda.model.DeleteAliasResponse;
import software.amazon.awssdk.services.lambda.model.DeleteFunctionRequest;
import software.amazon.awssdk.services.lambda.model.DeleteFunctionResponse;
import software.amazon.awssdk.services.lambda.model.EnvironmentResponse;
import software.amazon.awssdk.services.lambda.model.GetFunctionConfigurationRequest;
import software.amazon.awssdk.services.lambda.model.GetFunctionConfigurationResponse;
import software.amazon.awssdk.services.lambda.model.InvokeRequest;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.lambda.model.LastUpdateStatus;
import software.amazon.awssdk.services.lambda.model.PublishVersionRequest;
import software.amazon.awssdk.services.lambda.model.PublishVersionResponse;
import software.amazon.awssdk.services.lambda.model.ResourceConflictException;
import software.amazon.awssdk.services.lambda.model.ResourceNotFoundException;
import software.amazon.awssdk.services.lambda.model.State;
import software.amazon.awssdk.services.lambda.model.UpdateFunctionConfigurationRequest;
import software.amazon.awssdk.services.lambda.model.UpdateFunctionConfigurationResponse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doReturn;

/** The Lambda client the AWS sweep tests start from: every control call succeeds; each test stubs invoke itself. */
public final class MockedLambda {
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
        doAnswer(call -> {
            PublishVersionRequest r = call.getArgument(0);
            return PublishVersionResponse.builder().version(Integer.toString(versions.incrementAndGet())).description(r.description()).build();
        }).when(lambda).publishVersion(any(PublishVersionRequest.class));
        doReturn(CreateAliasResponse.builder().build()).when(lambda).createAlias(any(CreateAliasRequest.class));
        doReturn(DeleteAliasResponse.builder().build()).when(lambda).deleteAlias(any(DeleteAliasRequest.class));
        doReturn(DeleteFunctionResponse.builder().build()).when(lambda).deleteFunction(any(DeleteFunctionRequest.class));
        return lambda;
    }

    /** Matches the update that sets {@code function}'s memory to {@code memoryMb} (whatever else it sets). */
    static UpdateFunctionConfigurationRequest setsMemory(String function, int memoryMb) {
        return Mockito.argThat(u -> function.equals(u.functionName()) && Integer.valueOf(memoryMb).equals(u.memorySize()));
    }

    /**
     * One deployed function as Lambda keeps it: {@code $LATEST}'s memory and description, the versions
     * published from it, and its aliases, {@code live} on version 1 as {@code sam deploy} leaves it.
     * PublishVersion answers the last version when {@code $LATEST} has not changed since; a version an alias
     * points at cannot be deleted; after a configuration update GetFunctionConfiguration says
     * {@code InProgress} for {@link #pollsWhileUpdating} calls. Invocations answer an empty batch response and
     * are noted with the version they ran.
     */
    public static final class Deployed {
        /** A version's (or $LATEST's) configuration. */
        public record Configuration(int memoryMb, String description) {
        }

        public final LambdaClient lambda = Mockito.mock(LambdaClient.class, Mockito.CALLS_REAL_METHODS);
        private final String function;
        private final String architecture;
        private final Map<String, String> environment;
        private Configuration latest;
        private int lastVersion = 1;
        private Configuration lastPublished;
        private final Map<String, Configuration> versions = new LinkedHashMap<>();
        private final Map<String, String> aliases = new LinkedHashMap<>();
        private final List<String> invokedVersions = Collections.synchronizedList(new ArrayList<>());
        /** GetFunctionConfiguration calls that still say InProgress after each update. */
        public int pollsWhileUpdating;
        private int updatingPollsLeft;
        /** When set, every update ends Failed with this reason. */
        public String updateFailsWith;

        public Deployed(String function, String architecture, int memoryMb, Map<String, String> environment) {
            this.function = function;
            this.architecture = architecture;
            this.environment = Map.copyOf(environment);
            this.latest = new Configuration(memoryMb, "Runs task batches from TasksQueue and reports finished runs on CompletionsQueue.");
            versions.put("1", latest);
            lastPublished = latest;
            aliases.put("live", "1");
            doAnswer(call -> configuration(call.getArgument(0))).when(lambda).getFunctionConfiguration(any(GetFunctionConfigurationRequest.class));
            doAnswer(call -> update(call.getArgument(0))).when(lambda).updateFunctionConfiguration(any(UpdateFunctionConfigurationRequest.class));
            doAnswer(call -> publish(call.getArgument(0))).when(lambda).publishVersion(any(PublishVersionRequest.class));
            doAnswer(call -> createAlias(call.getArgument(0))).when(lambda).createAlias(any(CreateAliasRequest.class));
            doAnswer(call -> deleteAlias(call.getArgument(0))).when(lambda).deleteAlias(any(DeleteAliasRequest.class));
            doAnswer(call -> deleteVersion(call.getArgument(0))).when(lambda).deleteFunction(any(DeleteFunctionRequest.class));
            doAnswer(call -> invoke(call.getArgument(0))).when(lambda).invoke(any(InvokeRequest.class));
        }

        private synchronized GetFunctionConfigurationResponse configuration(GetFunctionConfigurationRequest r) {
            check(r.functionName());
            Configuration c = r.qualifier() == null ? latest : versions.get(resolve(r.qualifier()));
            LastUpdateStatus status = LastUpdateStatus.SUCCESSFUL;
            if (r.qualifier() == null && updatingPollsLeft > 0) {
                updatingPollsLeft--;
                status = LastUpdateStatus.IN_PROGRESS;
            } else if (r.qualifier() == null && updateFailsWith != null) {
                status = LastUpdateStatus.FAILED;
            }
            return GetFunctionConfigurationResponse.builder().functionName(function).memorySize(c.memoryMb()).description(c.description())
                    .architecturesWithStrings(architecture).environment(EnvironmentResponse.builder().variables(environment).build())
                    .lastUpdateStatus(status).lastUpdateStatusReason(status == LastUpdateStatus.FAILED ? updateFailsWith : null)
                    .state(State.ACTIVE).version(r.qualifier() == null ? "$LATEST" : resolve(r.qualifier())).build();
        }

        private synchronized UpdateFunctionConfigurationResponse update(UpdateFunctionConfigurationRequest r) {
            check(r.functionName());
            latest = new Configuration(r.memorySize() != null ? r.memorySize() : latest.memoryMb(),
                    r.description() != null ? r.description() : latest.description());
            updatingPollsLeft = pollsWhileUpdating;
            return UpdateFunctionConfigurationResponse.builder().functionName(function).memorySize(latest.memoryMb()).build();
        }

        private synchronized PublishVersionResponse publish(PublishVersionRequest r) {
            check(r.functionName());
            // Lambda publishes nothing new when $LATEST is as the last version left it: it answers that version.
            if (lastPublished.equals(latest) && versions.containsKey(Integer.toString(lastVersion))) {
                String last = Integer.toString(lastVersion);
                return PublishVersionResponse.builder().version(last).memorySize(lastPublished.memoryMb()).description(lastPublished.description()).build();
            }
            String version = Integer.toString(++lastVersion);
            versions.put(version, latest);
            lastPublished = latest;
            return PublishVersionResponse.builder().version(version).memorySize(latest.memoryMb())
                    .description(r.description() != null ? r.description() : latest.description()).build();
        }

        private synchronized CreateAliasResponse createAlias(CreateAliasRequest r) {
            check(r.functionName());
            if (aliases.containsKey(r.name())) throw ResourceConflictException.builder().message("Alias already exists: " + r.name()).build();
            aliases.put(r.name(), r.functionVersion());
            return CreateAliasResponse.builder().name(r.name()).functionVersion(r.functionVersion()).build();
        }

        private synchronized DeleteAliasResponse deleteAlias(DeleteAliasRequest r) {
            check(r.functionName());
            aliases.remove(r.name());
            return DeleteAliasResponse.builder().build();
        }

        private synchronized DeleteFunctionResponse deleteVersion(DeleteFunctionRequest r) {
            check(r.functionName());
            List<String> referencing = aliases.entrySet().stream().filter(a -> a.getValue().equals(r.qualifier())).map(Map.Entry::getKey).toList();
            if (!referencing.isEmpty()) {
                throw ResourceConflictException.builder().message("Unable to delete version because the following aliases reference it: "
                        + referencing).build();
            }
            versions.remove(r.qualifier());
            return DeleteFunctionResponse.builder().build();
        }

        private InvokeResponse invoke(InvokeRequest r) {
            String version;
            synchronized (this) {
                check(r.functionName());
                version = resolve(r.qualifier());
            }
            invokedVersions.add(version);
            return InvokeResponse.builder().statusCode(200).executedVersion(version)
                    .payload(SdkBytes.fromUtf8String("{\"batchItemFailures\":[]}")).build();
        }

        private String resolve(String qualifier) {
            String version = aliases.getOrDefault(qualifier, qualifier);
            if (!versions.containsKey(version)) {
                throw ResourceNotFoundException.builder().message("Function not found: " + function + ":" + qualifier).build();
            }
            return version;
        }

        private void check(String name) {
            if (!function.equals(name)) throw ResourceNotFoundException.builder().message("Function not found: " + name).build();
        }

        public synchronized Configuration latest() {
            return latest;
        }

        /** Version → configuration of every version that exists now. */
        public synchronized Map<String, Configuration> versions() {
            return Map.copyOf(versions);
        }

        /** Alias → version of every alias that exists now. */
        public synchronized Map<String, String> aliases() {
            return Map.copyOf(aliases);
        }

        /** The version each invocation ran, in order. */
        public List<String> invokedVersions() {
            return List.copyOf(invokedVersions);
        }
    }
}
