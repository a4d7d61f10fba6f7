package batchpipe.local.stack;

import batchpipe.local.template.QueueDefinition;
import batchpipe.local.template.StackTemplate;
import batchpipe.local.template.TemplateResolver;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The template's resources in a local stack: what each is called ({@code <stack>-<LogicalId>}, as
 * {@link StackTemplate#physicalName} says) and what its {@code !Ref} and {@code !GetAtt} give. Each kind
 * of resource is named in one method, used both when this process creates the resources in fresh
 * emulators ({@link #create}) and when it finds them in a stack another process runs ({@link #discover}).
 */
final class StackResources {
    private final StackTemplate template;
    private final String stackName;
    private final Map<String, TemplateResolver.Physical> physical = new LinkedHashMap<>();
    private final TemplateResolver resolver;

    StackResources(StackTemplate template, String stackName) {
        this.template = template;
        this.stackName = stackName;
        this.resolver = template.resolver(stackName, LocalStack.REGION, LocalStack.ACCOUNT, physical);
    }

    TemplateResolver resolver() {
        return resolver;
    }

    Map<String, TemplateResolver.Physical> physical() {
        return physical;
    }

    /** Creates the buckets, tables and queues in empty emulators, and names the rest. */
    void create(S3Client s3, DynamoDbClient dynamoDb, SqsClient sqs) {
        // Buckets and tables reference nothing; queues in an order where redrive targets exist first.
        for (String id : template.createdLogicalIdsOfType("AWS::S3::Bucket")) {
            s3.createBucket(b -> b.bucket(name(id, "AWS::S3::Bucket")));
            registerBucket(id);
        }
        for (String id : template.createdLogicalIdsOfType("AWS::DynamoDB::Table")) {
            createTable(dynamoDb, id);
            registerTable(id);
        }
        // A redrive target must exist before its source, and targets chain (TasksQueue -> its dead-letter
        // queue -> the poison queue): create whatever has its target already, round after round.
        List<QueueDefinition> pending = new ArrayList<>(template.queues(resolver));
        while (!pending.isEmpty()) {
            List<QueueDefinition> ready = pending.stream()
                    .filter(q -> q.deadLetterLogicalId() == null || physical.containsKey(q.deadLetterLogicalId())).toList();
            if (ready.isEmpty()) {
                throw new IllegalStateException("template.yaml: the redrive targets of " + pending.stream().map(QueueDefinition::logicalId).toList()
                        + " form a cycle or name a queue the template does not declare");
            }
            for (QueueDefinition queue : ready) {
                registerQueue(queue.logicalId(), sqs.createQueue(b -> b.queueName(name(queue.logicalId(), "AWS::SQS::Queue"))
                        .attributes(queueAttributes(queue))).queueUrl());
            }
            pending.removeAll(ready);
        }
        registerNamedOnly();
    }

    /**
     * Frees what {@link #create} made, for a stack in emulators that outlive it: deletes its tables and
     * empties its queues. The queues stay (empty): a long poll a closed event source mapping left waiting
     * on a deleted queue ends in an ElasticMQ error 20 s later, on an empty one in an empty answer. Buckets
     * stay too: S3 deletes only empty ones, and their objects go with the emulators' temporary folder.
     */
    void release(DynamoDbClient dynamoDb, SqsClient sqs) {
        for (String id : template.createdLogicalIdsOfType("AWS::DynamoDB::Table")) {
            dynamoDb.deleteTable(b -> b.tableName(name(id, "AWS::DynamoDB::Table")));
        }
        for (String id : template.createdLogicalIdsOfType("AWS::SQS::Queue")) {
            TemplateResolver.Physical queue = physical.get(id);
            if (queue != null) sqs.purgeQueue(b -> b.queueUrl(queue.ref()));
        }
    }

    /** Finds the resources of a stack another process created: buckets and tables by name, queues by asking for their URLs. */
    void discover(SqsClient sqs, URI sqsEndpoint) {
        template.createdLogicalIdsOfType("AWS::S3::Bucket").forEach(this::registerBucket);
        template.createdLogicalIdsOfType("AWS::DynamoDB::Table").forEach(this::registerTable);
        for (String id : template.createdLogicalIdsOfType("AWS::SQS::Queue")) {
            String name = name(id, "AWS::SQS::Queue");
            String url;
            try {
                url = sqs.getQueueUrl(b -> b.queueName(name)).queueUrl();
            } catch (RuntimeException e) {
                throw new IllegalStateException("the local stack at " + sqsEndpoint + " has no queue " + name
                        + " (is `./batchpipe local up` running with stack name '" + stackName + "'?): " + e.getMessage(), e);
            }
            registerQueue(id, url);
        }
        registerNamedOnly();
    }

    private String name(String logicalId, String type) {
        return StackTemplate.physicalName(stackName, logicalId, type);
    }

    private void registerBucket(String id) {
        String name = name(id, "AWS::S3::Bucket");
        physical.put(id, new TemplateResolver.Physical(name, Map.of("Arn", "arn:aws:s3:::" + name, "DomainName", name)));
    }

    private void registerTable(String id) {
        String name = name(id, "AWS::DynamoDB::Table");
        physical.put(id, new TemplateResolver.Physical(name,
                Map.of("Arn", "arn:aws:dynamodb:" + LocalStack.REGION + ":" + LocalStack.ACCOUNT + ":table/" + name)));
    }

    private void registerQueue(String id, String url) {
        String name = name(id, "AWS::SQS::Queue");
        physical.put(id, new TemplateResolver.Physical(url, Map.of(
                "Arn", "arn:aws:sqs:" + LocalStack.REGION + ":" + LocalStack.ACCOUNT + ":" + name,
                "QueueName", name,
                "QueueUrl", url)));
    }

    /** Functions run in-process and log groups store nothing here: they are named, not created. */
    private void registerNamedOnly() {
        for (String id : template.createdFunctionIds()) {
            String name = name(id, "AWS::Lambda::Function");
            physical.put(id, new TemplateResolver.Physical(name,
                    Map.of("Arn", "arn:aws:lambda:" + LocalStack.REGION + ":" + LocalStack.ACCOUNT + ":function:" + name)));
        }
        // The aggregator's WORKER_LOG_GROUPS refers to them. Its REPORT lines come from the in-process
        // runtime instead (the aggregator sees the local table and no CloudWatch Logs endpoint, and queries nothing).
        for (String id : template.createdLogicalIdsOfType("AWS::Logs::LogGroup")) {
            String name = name(id, "AWS::Logs::LogGroup");
            physical.put(id, new TemplateResolver.Physical(name,
                    Map.of("Arn", "arn:aws:logs:" + LocalStack.REGION + ":" + LocalStack.ACCOUNT + ":log-group:" + name + ":*")));
        }
    }

    @SuppressWarnings("unchecked") // the template's properties are YAML of the shape CloudFormation documents
    private void createTable(DynamoDbClient dynamoDb, String id) {
        Map<String, Object> p = (Map<String, Object>) resolver.resolve(template.properties(id));
        List<AttributeDefinition> attributes = new ArrayList<>();
        for (Object a : (List<Object>) p.get("AttributeDefinitions")) {
            Map<String, Object> attribute = (Map<String, Object>) a;
            attributes.add(AttributeDefinition.builder().attributeName((String) attribute.get("AttributeName"))
                    .attributeType((String) attribute.get("AttributeType")).build());
        }
        List<KeySchemaElement> keys = new ArrayList<>();
        for (Object k : (List<Object>) p.get("KeySchema")) {
            Map<String, Object> key = (Map<String, Object>) k;
            keys.add(KeySchemaElement.builder().attributeName((String) key.get("AttributeName")).keyType((String) key.get("KeyType")).build());
        }
        dynamoDb.createTable(b -> b.tableName(name(id, "AWS::DynamoDB::Table")).attributeDefinitions(attributes).keySchema(keys)
                .billingMode(BillingMode.PAY_PER_REQUEST));
    }

    private Map<QueueAttributeName, String> queueAttributes(QueueDefinition queue) {
        Map<QueueAttributeName, String> attributes = new HashMap<>();
        attributes.put(QueueAttributeName.VISIBILITY_TIMEOUT, Integer.toString(queue.visibilityTimeoutSeconds()));
        if (queue.messageRetentionSeconds() != null) {
            attributes.put(QueueAttributeName.MESSAGE_RETENTION_PERIOD, Integer.toString(queue.messageRetentionSeconds()));
        }
        if (queue.deadLetterLogicalId() != null) {
            String dlqArn = physical.get(queue.deadLetterLogicalId()).attributes().get("Arn");
            attributes.put(QueueAttributeName.REDRIVE_POLICY,
                    "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":" + queue.maxReceiveCount() + "}");
        }
        return attributes;
    }
}
