package batchpipe.bench;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;

import java.util.Map;

/**
 * The cold-start baseline: a Java handler that does nothing, deserialised and answered by the runtime
 * interface client like any {@code RequestHandler}. The bench copies this one class into a function
 * folder of its own, next to aws-lambda-java-core and nothing else, so it must use nothing but that
 * library and the JDK.
 */
public final class EmptyHandler implements RequestHandler<Map<String, Object>, String> {
    static final String ANSWER = "empty";

    @Override
    public String handleRequest(Map<String, Object> event, Context context) {
        return ANSWER;
    }
}
