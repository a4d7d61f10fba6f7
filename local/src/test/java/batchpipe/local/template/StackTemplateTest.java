package batchpipe.local.template;

import batchpipe.local.stack.ProjectHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The real template.yaml, read the way the local stack reads it. */
class StackTemplateTest {
    private static final Path TEMPLATE = ProjectHome.find().resolve("template.yaml");

    private static TemplateResolver resolverFor(StackTemplate template) {
        Map<String, TemplateResolver.Physical> physical = new HashMap<>();
        for (String id : template.logicalIdsOfType("AWS::SQS::Queue")) {
            physical.put(id, new TemplateResolver.Physical("http://127.0.0.1:9324/000000000000/batchpipe-" + id,
                    Map.of("Arn", "arn:aws:sqs:us-east-1:000000000000:batchpipe-" + id, "QueueName", "batchpipe-" + id)));
        }
        physical.put("RunsTable", new TemplateResolver.Physical("batchpipe-RunsTable", Map.of("Arn", "arn:table")));
        physical.put("DataBucket", new TemplateResolver.Physical("batchpipe-databucket", Map.of("Arn", "arn:aws:s3:::batchpipe-databucket")));
        for (String id : template.logicalIdsOfType("AWS::Logs::LogGroup")) {
            physical.put(id, new TemplateResolver.Physical("batchpipe-" + id, Map.of("Arn", "arn:aws:logs:us-east-1:000000000000:log-group:batchpipe-" + id + ":*")));
        }
        return template.resolver("batchpipe", "us-east-1", "000000000000", physical);
    }

    @Test
    void load_turnsShortFormTagsIntoLongFormIntrinsics(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("template.yaml");
        Files.writeString(file, """
                Parameters:
                  Name: {Type: String, Default: jobs}
                Resources:
                  Queue:
                    Type: AWS::SQS::Queue
                    Properties:
                      A: !Ref Name
                      B: !GetAtt Other.Arn
                      C: !Sub "${Name}-x"
                      D: !If [Cond, 1, 2]
                      E: !Join ["-", [a, !Ref Name]]
                """);
        Map<String, Object> root = CloudFormationYaml.load(file);
        @SuppressWarnings("unchecked")
        Map<String, Object> properties = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) root.get("Resources")).get("Queue")).get("Properties");
        assertThat(properties.get("A")).isEqualTo(Map.of("Ref", "Name"));
        assertThat(properties.get("B")).isEqualTo(Map.of("Fn::GetAtt", List.of("Other", "Arn")));
        assertThat(properties.get("C")).isEqualTo(Map.of("Fn::Sub", "${Name}-x"));
        assertThat(properties.get("D")).isEqualTo(Map.of("Fn::If", List.of("Cond", 1, 2)));
        assertThat(properties.get("E")).isEqualTo(Map.of("Fn::Join", List.of("-", List.of("a", Map.of("Ref", "Name")))));
    }

    @Test
    void workerFunction_resolvesHandlerSettingsEnvironmentAndSqsEvent() throws Exception {
        StackTemplate template = StackTemplate.load(TEMPLATE, Map.of());
        FunctionDefinition worker = template.function("WorkerFunction", "batchpipe", resolverFor(template));

        assertThat(worker.handlerClass()).isEqualTo("batchpipe.worker.WorkerHandler");
        assertThat(worker.handlerMethod()).isEqualTo("handleRequest");
        assertThat(worker.runtime()).isEqualTo("java21");
        assertThat(worker.memoryMb()).isEqualTo(1769);
        assertThat(worker.timeoutSeconds()).isEqualTo(120);
        assertThat(worker.architectures()).containsExactly("arm64");
        // Globals merged with the function's own variables, references resolved to local names.
        assertThat(worker.environment())
                .containsEntry("TABLE_NAME", "batchpipe-RunsTable")
                .containsEntry("COMPLETIONS_QUEUE_URL", "http://127.0.0.1:9324/000000000000/batchpipe-CompletionsQueue")
                .containsEntry("MAX_RECEIVE_COUNT", "3")
                .doesNotContainKey("AWS_ENDPOINT_URL_SQS"); // AWS::NoValue removes it
        assertThat(worker.sqsEvents()).containsExactly(
                new FunctionDefinition.SqsEventSource("Tasks", "TasksQueue", 10, 0, 5, true));
    }

    @Test
    void parameterOverrides_changeResolvedValues() throws Exception {
        StackTemplate template = StackTemplate.load(TEMPLATE, Map.of("WorkerBatchSize", "20", "WorkerBatchingWindowSeconds", "2",
                "Architecture", "x86_64"));
        FunctionDefinition worker = template.function("WorkerFunction", "batchpipe", resolverFor(template));
        assertThat(worker.sqsEvents().get(0).batchSize()).isEqualTo(20);
        assertThat(worker.sqsEvents().get(0).maximumBatchingWindowSeconds()).isEqualTo(2);
        assertThat(worker.architectures()).containsExactly("x86_64");
    }

    @Test
    void load_rejectsAnOverrideThatIsNotAParameter() {
        assertThatThrownBy(() -> StackTemplate.load(TEMPLATE, Map.of("WorkerBatchSise", "20")))
                .hasMessageContaining("'WorkerBatchSise' is not a parameter");
    }

    @Test
    void function_rejectsAnUnknownLogicalIdNamingTheKnownOnes() throws Exception {
        StackTemplate template = StackTemplate.load(TEMPLATE, Map.of());
        assertThatThrownBy(() -> template.function("WorkerFunctoin", "batchpipe", resolverFor(template)))
                .hasMessageContaining("unknown function 'WorkerFunctoin'")
                .hasMessageContaining("WorkerFunction");
    }

    @Test
    void queues_carryRedrivePolicyAndAVisibilityTimeoutOfAtLeastSixWorkerTimeouts() throws Exception {
        StackTemplate template = StackTemplate.load(TEMPLATE, Map.of());
        TemplateResolver resolver = resolverFor(template);
        QueueDefinition tasks = template.queues(resolver).stream().filter(q -> q.logicalId().equals("TasksQueue")).findFirst().orElseThrow();
        FunctionDefinition worker = template.function("WorkerFunction", "batchpipe", resolver);

        assertThat(tasks.deadLetterLogicalId()).isEqualTo("TasksDeadLetterQueue");
        assertThat(tasks.maxReceiveCount()).isEqualTo(3);
        assertThat(tasks.visibilityTimeoutSeconds()).isGreaterThanOrEqualTo(6 * worker.timeoutSeconds());

        QueueDefinition completions = template.queues(resolver).stream().filter(q -> q.logicalId().equals("CompletionsQueue")).findFirst().orElseThrow();
        FunctionDefinition aggregator = template.function("AggregatorFunction", "batchpipe", resolver);
        assertThat(completions.visibilityTimeoutSeconds()).isGreaterThanOrEqualTo(6 * aggregator.timeoutSeconds());
    }

    @Test
    void createdResources_leaveOutThoseWhoseConditionIsFalse_asCloudFormationWould() throws Exception {
        StackTemplate single = StackTemplate.load(TEMPLATE, Map.of());
        assertThat(single.createdFunctionIds()).containsExactlyInAnyOrder("ProducerFunction", "WorkerFunction", "DeadLetterRecorderFunction",
                "AggregatorFunction");
        assertThat(single.createdLogicalIdsOfType("AWS::Logs::LogGroup")).doesNotContain("WorkerTwinLogGroup").contains("WorkerLogGroup");
        assertThat(single.isCreated("WorkerTwinFunction")).isFalse();
        assertThat(single.conditionOf("WorkerTwinFunction")).isEqualTo("CompareArchitectures");

        StackTemplate twin = StackTemplate.load(TEMPLATE, Map.of("CompareArchitectures", "true"));
        assertThat(twin.createdFunctionIds()).contains("WorkerTwinFunction");
        assertThat(twin.createdLogicalIdsOfType("AWS::Logs::LogGroup")).contains("WorkerTwinLogGroup");
    }

    @Test
    void everyHandlerClassExistsOnTheClasspath() throws Exception {
        StackTemplate template = StackTemplate.load(TEMPLATE, Map.of());
        TemplateResolver resolver = resolverFor(template);
        assertThat(template.functionIds()).containsExactlyInAnyOrder("ProducerFunction", "WorkerFunction", "WorkerTwinFunction", "DeadLetterRecorderFunction",
                "AggregatorFunction");
        for (String id : template.functionIds()) {
            FunctionDefinition f = template.function(id, "batchpipe", resolver);
            Class<?> handler = Class.forName(f.handlerClass());
            assertThat(handler.getMethods()).anyMatch(m -> m.getName().equals(f.handlerMethod()));
        }
    }

    @Test
    void resolver_evaluatesConditionsSubAndNoValue() throws Exception {
        StackTemplate template = StackTemplate.load(TEMPLATE, Map.of("ScanBucket", "my-archive", "SchedulePrefix", "app/"));
        TemplateResolver resolver = resolverFor(template);
        assertThat(resolver.condition("HasScanBucket")).isTrue();
        assertThat(resolver.condition("ScheduleIsEnabled")).isFalse();
        assertThat(resolver.resolve(Map.of("Fn::Sub", List.of("${Bucket}/${SchedulePrefix}", Map.of("Bucket",
                Map.of("Fn::If", List.of("HasScanBucket", Map.of("Ref", "ScanBucket"), Map.of("Ref", "DataBucket"))))))))
                .isEqualTo("my-archive/app/");
        assertThat(resolver.resolve(List.of("a", Map.of("Ref", "AWS::NoValue"), "b"))).isEqualTo(List.of("a", "b"));
        assertThat(resolver.resolve(Map.of("Fn::Sub", "arn:${AWS::Partition}:s3:::${DataBucket}/*")))
                .isEqualTo("arn:aws:s3:::batchpipe-databucket/*");
    }

    @Test
    void aggregator_looksUpReportLinesInTheWorkerLogGroupsByDefaultAndInTheTwinsUnderCompareArchitectures() throws Exception {
        StackTemplate template = StackTemplate.load(TEMPLATE, Map.of());
        StackTemplate compared = StackTemplate.load(TEMPLATE, Map.of("CompareArchitectures", "true"));
        StackTemplate none = StackTemplate.load(TEMPLATE, Map.of("ReportLines", "none"));

        assertThat(template.function("AggregatorFunction", "batchpipe", resolverFor(template)).environment())
                .containsEntry("REPORT_LINES", "logs-insights").containsEntry("WORKER_LOG_GROUPS", "batchpipe-WorkerLogGroup");
        assertThat(compared.function("AggregatorFunction", "batchpipe", resolverFor(compared)).environment())
                .containsEntry("WORKER_LOG_GROUPS", "batchpipe-WorkerLogGroup,batchpipe-WorkerTwinLogGroup");
        assertThat(none.function("AggregatorFunction", "batchpipe", resolverFor(none)).environment()).containsEntry("REPORT_LINES", "none");
    }

    @Test
    void aggregator_writesReportsUnderReportsSlashOfTheDataBucketUnlessAReportBucketIsGiven() throws Exception {
        StackTemplate template = StackTemplate.load(TEMPLATE, Map.of());
        StackTemplate own = StackTemplate.load(TEMPLATE, Map.of("ReportBucket", "my-reports", "ReportPrefix", "batchpipe/reports/"));

        assertThat(template.function("AggregatorFunction", "batchpipe", resolverFor(template)).environment())
                .containsEntry("REPORT_BUCKET", "batchpipe-databucket").containsEntry("REPORT_PREFIX", "reports/")
                .doesNotContainKey("RUN_EVENTS_FILE");
        assertThat(own.function("AggregatorFunction", "batchpipe", resolverFor(own)).environment())
                .containsEntry("REPORT_BUCKET", "my-reports").containsEntry("REPORT_PREFIX", "batchpipe/reports/");
    }
}
