package batchpipe.local.sample;

import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.local.demo.Demo;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.stack.LocalStack;

import batchpipe.common.json.Json;
import batchpipe.local.stack.ProjectHome;
import batchpipe.producer.run.RunStore;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What a fresh local stack holds so that every file in events/ works out of the box: the sample log
 * objects the worker events name, a small finished run, {@value #RUN_ID}, made by the real pipeline,
 * for the aggregator event, and the run {@value #EVENTS_RUN_ID} that the worker events' tasks belong
 * to, planned with exactly those tasks (a worker fails a task whose run has no run record: nothing
 * could count it).
 */
public final class SampleRun {
    public static final String RUN_ID = "sample-run";
    public static final String EVENTS_RUN_ID = "sample-events";
    public static final int OBJECTS = 4;
    public static final int LINES = 20_000;

    private SampleRun() {
    }

    public static void load(LocalStack stack, PrintStream functionLog) throws Exception {
        try (LocalPipeline pipeline = LocalPipeline.start(stack, functionLog, true)) {
            new Demo(pipeline).run(Demo.Settings.builder().objects(OBJECTS).linesPerObject(LINES).hashBatches(1).hashBatchSize(10)
                    .hashCost(4).seed(SampleData.DEFAULT_SEED).runId(RUN_ID).writeReports(false).timeout(Duration.ofMinutes(2)).build(),
                    (done, total) -> { });
        }
        planEventsRun(stack, ProjectHome.find().resolve("events"));
    }

    /** The run of the worker events' tasks: every task of {@value #EVENTS_RUN_ID} that a file in {@code events} names. */
    static void planEventsRun(LocalStack stack, Path events) throws IOException {
        Map<String, String> kinds = new TreeMap<>();
        try (Stream<Path> files = Files.list(events)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList()) {
                Object records = Json.parseObject(Files.readString(file)).get("Records");
                if (!(records instanceof List<?> list)) continue;
                for (Object record : list) {
                    if (!(record instanceof Map<?, ?> r) || !(r.get("body") instanceof String body)) continue;
                    Map<String, Object> task;
                    try {
                        task = Json.parseObject(body);
                    } catch (RuntimeException notATask) {
                        continue; // the poison message of the mixed batch: no run at all
                    }
                    if (EVENTS_RUN_ID.equals(task.get("runId")) && task.get("taskId") instanceof String taskId) {
                        kinds.put(taskId, String.valueOf(task.get("kind")));
                    }
                }
            }
        }
        if (kinds.isEmpty()) return;
        long scans = kinds.values().stream().filter("scan"::equals).count();
        RunRecord record = RunRecord.planned(EVENTS_RUN_ID, "the sample events' tasks",
                Json.write(Map.of("note", "planned by the local stack with the tasks the worker events in events/ name")),
                new Planned(scans, kinds.size() - scans, kinds.size()), 0, System.currentTimeMillis(), 1);
        RunStore runs = new RunStore(stack.dynamoDb(), stack.ref("RunsTable"));
        runs.create(record);
        runs.createProgressShards(EVENTS_RUN_ID, List.copyOf(kinds.keySet()), 1);
    }
}
