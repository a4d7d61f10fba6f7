package batchpipe.local.runtime;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.amazonaws.services.lambda.runtime.serialization.factories.JacksonFactory;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;

/**
 * Calls a handler object the way the Lambda Java runtime does: a RequestStreamHandler gets the raw
 * bytes; a RequestHandler gets its input type deserialized, and its output serialized, with the
 * runtime's own serializers (the Lambda event serializers for event classes, so {@code Records} maps
 * onto {@code SQSEvent.records}; the runtime's Jackson configuration for anything else).
 */
final class HandlerAdapter {
    private final Object handler;
    private final PojoSerializer<Object> input;
    private final PojoSerializer<Object> output;

    HandlerAdapter(Object handler) {
        this.handler = handler;
        if (handler instanceof RequestStreamHandler) {
            this.input = null;
            this.output = null;
        } else if (handler instanceof RequestHandler<?, ?>) {
            Type[] types = requestHandlerTypes(handler.getClass());
            this.input = serializerFor(types[0], handler.getClass().getClassLoader());
            this.output = serializerFor(types[1], handler.getClass().getClassLoader());
        } else {
            throw new IllegalArgumentException(handler.getClass().getName()
                    + " implements neither RequestHandler nor RequestStreamHandler");
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    byte[] invoke(byte[] event, Context context) throws Exception {
        if (handler instanceof RequestStreamHandler stream) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            stream.handleRequest(new ByteArrayInputStream(event), out, context);
            return out.toByteArray();
        }
        Object in = input.fromJson(new ByteArrayInputStream(event));
        Object result = ((RequestHandler) handler).handleRequest(in, context);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (result == null) {
            out.write("null".getBytes(StandardCharsets.UTF_8));
        } else {
            output.toJson(result, out);
        }
        return out.toByteArray();
    }

    @SuppressWarnings("unchecked")
    private static PojoSerializer<Object> serializerFor(Type type, ClassLoader loader) {
        Class<?> raw = type instanceof Class<?> c ? c : (Class<?>) ((ParameterizedType) type).getRawType();
        if (LambdaEventSerializers.isLambdaSupportedEvent(raw.getName())) {
            return (PojoSerializer<Object>) LambdaEventSerializers.serializerFor(raw, loader);
        }
        return JacksonFactory.getInstance().getSerializer(type);
    }

    /** The I and O of {@code RequestHandler<I, O>}, looked up through superclasses. */
    private static Type[] requestHandlerTypes(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Type candidate : c.getGenericInterfaces()) {
                if (candidate instanceof ParameterizedType p && p.getRawType() == RequestHandler.class) {
                    return p.getActualTypeArguments();
                }
            }
        }
        return new Type[] {Object.class, Object.class};
    }
}
