package batchpipe.worker.deadletter;

import batchpipe.common.aws.AwsClients;
import batchpipe.common.config.FunctionEnvironment;
import batchpipe.common.log.InvocationLog;
import batchpipe.common.task.TaskCodec;
import batchpipe.common.sqs.SqsEventJson;
import batchpipe.worker.record.TaskBooks;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;

/**
 * Fed by the tasks dead-letter queue: hands each batch to {@link DeadLetterRecorder} and answers with the
 * partial batch response. Ships in the worker's artifact (it shares the worker's record store), as a
 * function of its own with a small role: it never reads S3 and never hashes.
 */
public final class DeadLetterHandler implements RequestStreamHandler {
    private final DeadLetterRecorder recorder;
    private final InvocationLog log = InvocationLog.of(FunctionEnvironment.current());

    public DeadLetterHandler() {
        this(DeadLetterConfig.from(FunctionEnvironment.current()), AwsClients.dynamoDb(), AwsClients.sqs());
    }

    DeadLetterHandler(DeadLetterConfig config, DynamoDbClient dynamoDb, SqsClient sqs) {
        TaskBooks records = TaskBooks.of(dynamoDb, () -> sqs, config.tableName(), config.completionsQueueUrl());
        this.recorder = new DeadLetterRecorder(new TaskCodec(config.limits()), records,
                new PoisonQueue(sqs, config.poisonQueueUrl()), Clock.systemUTC());
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        byte[] event = input.readAllBytes();
        SQSBatchResponse response = log.around(context, () -> recorder.record(SqsEventJson.records(event)));
        output.write(SqsEventJson.write(response));
    }
}
