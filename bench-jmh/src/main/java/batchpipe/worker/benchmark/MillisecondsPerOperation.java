package batchpipe.worker.benchmark;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The JMH settings shared by the kernels that take milliseconds per operation (a bcrypt hash, a pass over
 * ~8 MB of lines), kept in one place so they cannot drift apart: JMH's class-level annotations are
 * {@code @Inherited} and its generator reads them from superclasses (JMH's sample 24, inheritance). A
 * subclass that needs another setting annotates itself, and its own annotation wins.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public abstract class MillisecondsPerOperation {
}
