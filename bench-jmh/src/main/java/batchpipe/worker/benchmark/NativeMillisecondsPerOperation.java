package batchpipe.worker.benchmark;

import org.openjdk.jmh.annotations.Fork;

/**
 * {@link MillisecondsPerOperation} for a benchmark that runs zstd-jni, whose native code JDK 22+ warns about
 * on every start unless the forked JVM is granted native access.
 */
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public abstract class NativeMillisecondsPerOperation extends MillisecondsPerOperation {
}
