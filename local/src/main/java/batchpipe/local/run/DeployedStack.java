package batchpipe.local.run;

import batchpipe.common.task.TaskLimits;
import batchpipe.producer.RunPlanner;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.CloudFormationException;
import software.amazon.awssdk.services.cloudformation.model.Output;
import software.amazon.awssdk.services.cloudformation.model.Parameter;
import software.amazon.awssdk.services.cloudformation.model.Stack;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A Batchpipe stack deployed with sam deploy, found by name: the queue, table and bucket come from its
 * CloudFormation outputs (TasksQueueUrl, RunsTableName, DataBucketName, CompletionsQueueUrl, ...), the
 * settings a run is planned with from its template parameters as deployed (MaxHashCost,
 * WorkerMaxConcurrency). The queues other than the tasks queue are null for a stack deployed before they
 * were outputs.
 */
public record DeployedStack(String name, String tasksQueueUrl, String tableName, String dataBucket, List<String> workerLogGroups,
                            String reportsLocation, String completionsQueueUrl, String tasksDeadLetterQueueUrl, Map<String, String> parameters) {

    public DeployedStack {
        workerLogGroups = List.copyOf(workerLogGroups);
        parameters = Map.copyOf(parameters);
    }

    /** A stack whose parameters are not known. */
    public DeployedStack(String name, String tasksQueueUrl, String tableName, String dataBucket, List<String> workerLogGroups,
                         String reportsLocation, String completionsQueueUrl, String tasksDeadLetterQueueUrl) {
        this(name, tasksQueueUrl, tableName, dataBucket, workerLogGroups, reportsLocation, completionsQueueUrl, tasksDeadLetterQueueUrl, Map.of());
    }

    /** A stack whose queues besides the tasks queue are not known. */
    public DeployedStack(String name, String tasksQueueUrl, String tableName, String dataBucket, List<String> workerLogGroups,
                         String reportsLocation) {
        this(name, tasksQueueUrl, tableName, dataBucket, workerLogGroups, reportsLocation, null, null);
    }

    /** A stack that does not say where its reports land (deployed before reports went to S3). */
    public DeployedStack(String name, String tasksQueueUrl, String tableName, String dataBucket, List<String> workerLogGroups) {
        this(name, tasksQueueUrl, tableName, dataBucket, workerLogGroups, null);
    }

    /** A stack whose worker log groups are not known (deployed before they were outputs). */
    public DeployedStack(String name, String tasksQueueUrl, String tableName, String dataBucket) {
        this(name, tasksQueueUrl, tableName, dataBucket, List.of());
    }

    public static DeployedStack describe(CloudFormationClient cloudFormation, String stackName) {
        Stack stack = find(cloudFormation, stackName);
        Map<String, String> outputs = outputsOf(stack);
        List<String> logGroups = new java.util.ArrayList<>();
        for (String key : List.of("WorkerLogGroupName", "WorkerTwinLogGroupName")) {
            if (outputs.get(key) != null && !outputs.get(key).isBlank()) logGroups.add(outputs.get(key));
        }
        return new DeployedStack(stackName, required(outputs, stackName, "TasksQueueUrl"), required(outputs, stackName, "RunsTableName"),
                outputs.get("DataBucketName"), logGroups, outputs.get("ReportsLocation"), blankAsNull(outputs.get("CompletionsQueueUrl")),
                blankAsNull(outputs.get("TasksDeadLetterQueueUrl")), parametersOf(stack));
    }

    /**
     * The highest bcrypt cost its producer accepts and its worker runs: its MaxHashCost parameter, or the
     * template's default for a stack that does not say.
     */
    public int maxHashCost() {
        return parameter("MaxHashCost", TaskLimits.DEFAULT_MAX_HASH_COST);
    }

    /** Most worker invocations at once on its tasks queue: its WorkerMaxConcurrency parameter, or the template's default. */
    public int workerMaxConcurrency() {
        return parameter("WorkerMaxConcurrency", RunPlanner.Settings.DEFAULT_WORKER_MAX_CONCURRENCY);
    }

    private int parameter(String key, int byDefault) {
        String value = parameters.get(key);
        if (value == null || value.isBlank()) return byDefault;
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("stack '" + name + "' has parameter " + key + " = '" + value + "', not a whole number", e);
        }
    }

    private static String blankAsNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    /** The stack's outputs by key (the sweep reads the worker's and its twin's function names there). */
    public static Map<String, String> outputs(CloudFormationClient cloudFormation, String stackName) {
        return outputsOf(find(cloudFormation, stackName));
    }

    /**
     * A stack that could not be found or read by name: the caller says where it looked (region, account),
     * which this class does not know.
     */
    public static final class StackLookupException extends IllegalArgumentException {
        StackLookupException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static Stack find(CloudFormationClient cloudFormation, String stackName) {
        List<Stack> stacks;
        try {
            stacks = cloudFormation.describeStacks(b -> b.stackName(stackName)).stacks();
        } catch (CloudFormationException e) {
            String reason = e.awsErrorDetails() != null ? e.awsErrorDetails().errorMessage() : e.getMessage();
            throw new StackLookupException("stack '" + stackName + "' not found or not readable: " + reason, e);
        } catch (SdkClientException e) {
            throw new StackLookupException("stack '" + stackName + "' could not be looked up: " + e.getMessage(), e);
        }
        if (stacks.isEmpty()) {
            throw new StackLookupException("stack '" + stackName + "' not found", null);
        }
        return stacks.get(0);
    }

    private static Map<String, String> outputsOf(Stack stack) {
        Map<String, String> outputs = new HashMap<>();
        for (Output output : stack.outputs()) {
            outputs.put(output.outputKey(), output.outputValue());
        }
        return outputs;
    }

    /** Its template parameters as deployed; a NoEcho parameter's value is masked, and none Batchpipe plans with is NoEcho. */
    private static Map<String, String> parametersOf(Stack stack) {
        Map<String, String> parameters = new HashMap<>();
        for (Parameter parameter : stack.parameters()) {
            if (parameter.parameterValue() != null) parameters.put(parameter.parameterKey(), parameter.parameterValue());
        }
        return parameters;
    }

    public static String required(Map<String, String> outputs, String stackName, String key) {
        String value = outputs.get(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("stack '" + stackName + "' has no output " + key + "; is it a Batchpipe stack? (outputs: "
                    + String.join(", ", outputs.keySet()) + ")");
        }
        return value;
    }
}
