package batchpipe.local.cli;

import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Options every command that builds a local stack shares. */
final class StackOptions {
    @Option(names = "--local-stack-name", paramLabel = "NAME", defaultValue = "batchpipe",
            description = "The local stack's name; its resources are named <name>-<LogicalId> (default: ${DEFAULT-VALUE}).")
    String stackName;

    @Option(names = "--parameter-overrides", split = ",", paramLabel = "KEY=VALUE",
            description = "Template parameters, like sam deploy --parameter-overrides (e.g. WorkerBatchSize=20,TasksVisibilityTimeout=30).")
    Map<String, String> parameterOverrides = new LinkedHashMap<>();

    @Option(names = "--template", description = "The SAM template (default: template.yaml at the repository root).")
    Path template;

    StackTemplate loadTemplate() throws Exception {
        Path file = template != null ? template : ProjectHome.find().resolve("template.yaml");
        return StackTemplate.load(file, parameterOverrides);
    }

    LocalStack start(LocalStack.Ports ports) throws Exception {
        return LocalStack.start(ProjectHome.find(), loadTemplate(), stackName, ports);
    }
}
