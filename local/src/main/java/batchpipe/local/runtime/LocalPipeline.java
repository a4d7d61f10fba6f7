package batchpipe.local.runtime;

import batchpipe.local.esm.SqsEventSourceMapping;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.template.FunctionDefinition;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The deployed stack, locally: the in-process Lambda runtime plus one event source mapping for every
 * SQS event a function declares in template.yaml (the worker on the tasks queue, the aggregator on the
 * completions queue).
 */
public final class LocalPipeline implements AutoCloseable {
    private final LocalStack stack;
    private final LocalLambdaRuntime runtime;
    private final Map<String, SqsEventSourceMapping> mappings = new LinkedHashMap<>();

    private LocalPipeline(LocalStack stack, LocalLambdaRuntime runtime) {
        this.stack = stack;
        this.runtime = runtime;
    }

    /** Starts the runtime and, when {@code withMappings}, every SQS event source mapping. */
    public static LocalPipeline start(LocalStack stack, PrintStream functionLog, boolean withMappings) {
        return start(stack, functionLog, withMappings, java.util.Set.of());
    }

    /**
     * {@link #start(LocalStack, PrintStream, boolean)} with no mapping for the functions {@code runElsewhere}
     * (the sweep drives the worker's queue itself, into worker processes it runs under a CPU cap).
     */
    public static LocalPipeline start(LocalStack stack, PrintStream functionLog, boolean withMappings, java.util.Set<String> runElsewhere) {
        LocalPipeline pipeline = new LocalPipeline(stack, new LocalLambdaRuntime(stack, functionLog));
        if (withMappings) {
            for (String id : stack.template().createdFunctionIds()) {
                if (runElsewhere.contains(id)) continue;
                FunctionDefinition function = pipeline.runtime.definition(id);
                for (FunctionDefinition.SqsEventSource event : function.sqsEvents()) {
                    String url = stack.ref(event.queueLogicalId());
                    String arn = stack.physicalResources().get(event.queueLogicalId()).attributes().get("Arn");
                    SqsEventSourceMapping mapping = new SqsEventSourceMapping(stack.sqs(), url, arn, id, event,
                            pipeline.runtime::invoke, functionLog, 1);
                    pipeline.mappings.put(id + "." + event.name(), mapping);
                    mapping.start();
                }
            }
        }
        return pipeline;
    }

    public LocalStack stack() {
        return stack;
    }

    public LocalLambdaRuntime runtime() {
        return runtime;
    }

    public Map<String, SqsEventSourceMapping.Stats> mappingStats() {
        Map<String, SqsEventSourceMapping.Stats> stats = new LinkedHashMap<>();
        mappings.forEach((name, mapping) -> stats.put(name, mapping.stats()));
        return stats;
    }

    @Override
    public void close() {
        List<SqsEventSourceMapping> all = new ArrayList<>(mappings.values());
        all.forEach(SqsEventSourceMapping::close);
        runtime.close();
    }
}
