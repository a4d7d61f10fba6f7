package batchpipe.local.cli;

import batchpipe.common.json.Json;
import batchpipe.common.task.HashTask;
import batchpipe.common.task.TaskLimits;
import batchpipe.worker.hash.HashExecutor;
import batchpipe.worker.task.WriteStats;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicLong;

@Command(name = "hash", mixinStandardHelpOptions = true,
        description = {"Hashes generated passwords (password_000001, ...) with bcrypt on the worker's code path.",
                "Prints {\"hashes\", \"cost\", \"workers\", \"seconds\", \"hashesPerSecond\", \"msPerHash\"}; msPerHash is "
                    + "wall-clock milliseconds per hash (1000 / hashesPerSecond)."})
final class HashCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--count", required = true, paramLabel = "N", description = "Passwords to hash (1 to 1,000,000).")
    int count;

    @Option(names = "--cost", required = true, paramLabel = "C", description = "bcrypt cost, 4 to 31 (each step doubles the work).")
    int cost;

    @Option(names = "--workers", defaultValue = "1", paramLabel = "W", description = "Hashing threads (default: ${DEFAULT-VALUE}).")
    int workers;

    @Override
    public Integer call() throws Exception {
        if (count < 1 || count > 1_000_000) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--count must be between 1 and 1000000, got " + count);
        }
        if (cost < TaskLimits.MIN_HASH_COST || cost > 31) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--cost must be between " + TaskLimits.MIN_HASH_COST + " and 31, got " + cost);
        }
        if (workers < 1 || workers > 256) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--workers must be between 1 and 256, got " + workers);
        }
        ForkJoinPool pool = new ForkJoinPool(workers);
        AtomicLong stored = new AtomicLong();
        try {
            // The worker's executor, with a sink that counts instead of writing to DynamoDB.
            HashExecutor executor = new HashExecutor(pool, (items, writes) -> stored.addAndGet(items.size()));
            long start = System.nanoTime();
            for (int from = 0; from < count; from += TaskLimits.MAX_HASH_COUNT) {
                int n = Math.min(TaskLimits.MAX_HASH_COUNT, count - from);
                executor.execute(new HashTask("cli", "hash-cli", Instant.now(), cost, n, "password_", from + 1L, null), new WriteStats());
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("hashes", stored.get());
            result.put("cost", cost);
            result.put("workers", workers);
            result.put("seconds", Math.round(seconds * 1000) / 1000.0);
            result.put("hashesPerSecond", Math.round(stored.get() / seconds * 1000) / 1000.0);
            result.put("msPerHash", Math.round(seconds * 1000 / stored.get() * 1000) / 1000.0);
            System.out.println(Json.write(result));
            return 0;
        } finally {
            pool.shutdownNow();
        }
    }
}
