package batchpipe.common.trace;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.awscore.AwsExecutionAttribute;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.http.SdkHttpResponse;

import java.util.Map;

/**
 * One X-Ray subsegment per AWS SDK call (all attempts of it), named after the service ("S3",
 * "DynamoDB", "SQS") in the "aws" namespace with the operation, region, request id and HTTP status,
 * as the X-Ray SDK's own interceptor names them: the S3 reads, the DynamoDB writes and the SQS sends
 * of an invocation, with no code around each call. A streamed S3 GetObject ends when its response
 * headers arrive; reading the body is inside the "scan" subsegment.
 */
public final class TracingInterceptor implements ExecutionInterceptor {
    private static final ExecutionAttribute<Tracing.Span> SPAN = new ExecutionAttribute<>("batchpipe.trace.span");
    /** The SDK's client names where X-Ray's service map spells the service otherwise. */
    private static final Map<String, String> XRAY_NAMES = Map.of("DynamoDb", "DynamoDB", "Sqs", "SQS");

    private final Tracing tracing;

    public TracingInterceptor(Tracing tracing) {
        this.tracing = tracing;
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        String service = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME);
        attributes.putAttribute(SPAN, tracing.begin(service == null ? "AWS" : XRAY_NAMES.getOrDefault(service, service)));
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        Tracing.Span span = attributes.getAttribute(SPAN);
        if (span == null) return;
        SdkHttpResponse response = context.httpResponse();
        describe(span, attributes, response.firstMatchingHeader("x-amzn-RequestId")
                .or(() -> response.firstMatchingHeader("x-amz-request-id")).orElse(null));
        span.httpStatus(response.statusCode());
        span.close();
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        Tracing.Span span = attributes.getAttribute(SPAN);
        if (span == null) return;
        Throwable error = context.exception();
        String requestId = null;
        if (error instanceof AwsServiceException service) {
            requestId = service.requestId();
            span.httpStatus(service.statusCode());
            span.failed(error, service.statusCode() >= 500 || service.isThrottlingException());
        } else {
            span.failed(error, true);
        }
        describe(span, attributes, requestId);
        span.close();
    }

    private static void describe(Tracing.Span span, ExecutionAttributes attributes, String requestId) {
        Object region = attributes.getAttribute(AwsExecutionAttribute.AWS_REGION);
        span.aws(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), region == null ? null : region.toString(), requestId);
    }
}
