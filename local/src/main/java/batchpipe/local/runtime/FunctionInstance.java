package batchpipe.local.runtime;

import batchpipe.common.config.FunctionEnvironment;
import batchpipe.local.template.FunctionDefinition;

import java.lang.reflect.Constructor;
import java.util.Map;

/**
 * One simulated execution environment: the handler object is built once (init) with the function's
 * environment, and kept between invocations like a warm Lambda instance. Its first invocation is the
 * cold start and reports the init time.
 */
final class FunctionInstance {
    private final FunctionDefinition function;
    private final HandlerAdapter adapter;
    private final double initMs;
    private boolean invoked;
    private boolean broken;

    private FunctionInstance(FunctionDefinition function, HandlerAdapter adapter, double initMs) {
        this.function = function;
        this.adapter = adapter;
        this.initMs = initMs;
    }

    static FunctionInstance create(FunctionDefinition function, Map<String, String> environment, ClassLoader loader) {
        long start = System.nanoTime();
        Object handler = FunctionEnvironment.withVariables(environment, () -> construct(function, loader));
        double initMs = (System.nanoTime() - start) / 1e6;
        return new FunctionInstance(function, new HandlerAdapter(handler), initMs);
    }

    private static Object construct(FunctionDefinition function, ClassLoader loader) {
        Class<?> type;
        try {
            type = Class.forName(function.handlerClass(), true, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(function.logicalId() + ": handler class " + function.handlerClass() + " not found", e);
        }
        try {
            Constructor<?> constructor = type.getDeclaredConstructor();
            return constructor.newInstance();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(function.logicalId() + ": " + type.getName() + " needs a public no-argument constructor", e);
        } catch (java.lang.reflect.InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw new IllegalStateException(function.logicalId() + " failed during init: " + cause.getMessage(), cause);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(function.logicalId() + ": cannot construct " + type.getName() + ": " + e.getMessage(), e);
        }
    }

    FunctionDefinition function() {
        return function;
    }

    HandlerAdapter adapter() {
        return adapter;
    }

    /** The init time if this is the instance's first invocation (a cold start), else null. */
    Double takeColdStart() {
        if (invoked) return null;
        invoked = true;
        return initMs;
    }

    /** After a timeout Lambda discards the environment; so do we (its thread may still be running). */
    void markBroken() {
        broken = true;
    }

    boolean broken() {
        return broken;
    }
}
