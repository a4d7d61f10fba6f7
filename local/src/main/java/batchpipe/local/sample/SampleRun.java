package batchpipe.local.sample;

import batchpipe.local.demo.Demo;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.stack.LocalStack;

import java.io.PrintStream;
import java.time.Duration;

/**
 * What a fresh local stack holds so that every file in events/ works out of the box: the sample log
 * objects the worker events name, and a small finished run, {@value #RUN_ID}, made by the real
 * pipeline, for the aggregator event.
 */
public final class SampleRun {
    public static final String RUN_ID = "sample-run";
    public static final int OBJECTS = 4;
    public static final int LINES = 20_000;

    private SampleRun() {
    }

    public static void load(LocalStack stack, PrintStream functionLog) throws Exception {
        try (LocalPipeline pipeline = LocalPipeline.start(stack, functionLog, true)) {
            new Demo(pipeline).run(new Demo.Settings(OBJECTS, LINES, 1, 10, 4, SampleData.DEFAULT_SEED, RUN_ID, null, false,
                    Duration.ofMinutes(2)), (done, total) -> { });
        }
    }
}
