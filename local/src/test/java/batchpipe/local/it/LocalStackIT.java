package batchpipe.local.it;

import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The local stack creates what template.yaml declares, with the template's settings. */
class LocalStackIT {
    private static LocalStack stack;

    @BeforeAll
    static void start() throws Exception {
        stack = LocalStack.start(ProjectHome.find(), StackTemplate.load(ProjectHome.find().resolve("template.yaml"), Map.of()),
                "itstack", LocalStack.Ports.free());
    }

    @AfterAll
    static void stop() {
        if (stack != null) stack.close();
    }

    @Test
    void tasksQueue_hasTheTemplatesVisibilityTimeoutAndRedrivePolicy() {
        Map<QueueAttributeName, String> attributes = stack.sqs().getQueueAttributes(b -> b.queueUrl(stack.ref("TasksQueue"))
                .attributeNames(QueueAttributeName.ALL)).attributes();
        assertThat(attributes.get(QueueAttributeName.VISIBILITY_TIMEOUT)).isEqualTo("720");
        assertThat(attributes.get(QueueAttributeName.REDRIVE_POLICY))
                .contains("itstack-TasksDeadLetterQueue").contains("\"maxReceiveCount\":3");
    }

    @Test
    void dynalite_survivesAClientThatDropsARequestMidway() throws Exception {
        // A Lambda instance that times out or is killed in the middle of a DynamoDB call leaves a request
        // half sent. dynalite used to die of that (an uncaught "aborted"), and with it the whole run.
        java.net.URI endpoint = java.net.URI.create(stack.endpointSettings().get("AWS_ENDPOINT_URL_DYNAMODB"));
        for (int i = 0; i < 3; i++) {
            try (java.net.Socket socket = new java.net.Socket(endpoint.getHost(), endpoint.getPort())) {
                socket.getOutputStream().write(("POST / HTTP/1.1\r\nHost: " + endpoint.getHost() + "\r\n"
                        + "Content-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n"
                        + "Content-Length: 1000\r\n\r\n{\"Lim").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                Thread.sleep(50);
                socket.setSoLinger(true, 0); // a reset, as a killed process's socket gives
            }
        }
        Thread.sleep(200);
        assertThat(stack.dynamoDb().listTables().tableNames()).contains(stack.ref("RunsTable"));
    }

    @Test
    void table_hasStringPkAndSkKeys() {
        var table = stack.dynamoDb().describeTable(b -> b.tableName(stack.ref("RunsTable"))).table();
        assertThat(table.keySchema()).extracting(KeySchemaElement::attributeName).containsExactly("pk", "sk");
        assertThat(table.attributeDefinitions()).allSatisfy(a -> assertThat(a.attributeTypeAsString()).isEqualTo("S"));
    }

    @Test
    void bucket_existsUnderItsLocalName() {
        assertThat(stack.ref("DataBucket")).isEqualTo("itstack-databucket");
        stack.s3().headBucket(b -> b.bucket("itstack-databucket"));
    }

    @Test
    void aggregatorOnly_isToldToWriteItsRunCompletedEventsToTheStacksFile() {
        assertThat(stack.runEventsFile()).isEqualTo(java.nio.file.Path.of("out", "local", "itstack-run-completed.jsonl"));
        assertThat(stack.function("AggregatorFunction").environment())
                .containsEntry("RUN_EVENTS_FILE", stack.runEventsFile().toAbsolutePath().toString());
        assertThat(stack.function("WorkerFunction").environment()).doesNotContainKey("RUN_EVENTS_FILE");
    }

    @Test
    void endpointSettings_areTheStandardSdkVariables() {
        assertThat(stack.endpointSettings()).containsKeys("AWS_ENDPOINT_URL_SQS", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL_DYNAMODB");
    }
}
