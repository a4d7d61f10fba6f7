package batchpipe.bench;

import batchpipe.aggregator.ReportBuilder;
import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.ReportLineSource;
import batchpipe.aggregator.RunReader;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.ItemSize;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.delivery.ReportDocuments;
import batchpipe.common.run.HashOutcome;
import batchpipe.common.run.InvocationRecord;
import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.ScanOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.run.WorkerInvocation;
import batchpipe.common.run.WriteTimes;
import batchpipe.common.table.TableCall;
import batchpipe.common.table.TableKeys;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The aggregation of a million-task run, in a JVM of its own (run it under {@code -Xmx768m}, what a
 * 1,024 MB function leaves for the heap): {@code java -Xmx768m -cp ... batchpipe.bench.AggregateRun TASKS OUT_DIR}.
 * <p>
 * The aggregator's own path ({@link ReportBuilder}, {@link RunReader}, the streaming fold) reads the run
 * from a table that answers each Query with the next page of at most 1 MB of items, made on demand:
 * {@code TASKS} synthetic task records (80 % scan, 20 % hash; durations, sizes, queue waits and cold
 * starts drawn from a real demo run's tasks.csv, {@code aggregate/demo-tasks.csv}; countBy on 3 paths
 * with up to 5, 20 and 100 values), then one invocation record per worker invocation of 10 tasks. The
 * report's four files are written to {@code OUT_DIR} (tasks.csv streamed from its spill, as to S3).
 * <p>
 * Prints one line: {@code aggregate tasks=N pages=P seconds=S generationSeconds=G peakHeapMB=H peakLiveHeapMB=L tasksCsvMB=C},
 * where seconds is from the first Query to the last file written, less the time spent making pages
 * (generationSeconds); peakHeapMB is the most heap in use seen by a sampler every 10 ms and after each
 * page (garbage not yet collected included: a collector lets the heap fill before it collects), and
 * peakLiveHeapMB the most the heap pools held just after a collection (their collection usage, summed).
 */
public final class AggregateRun {
    private static final long PAGE_BYTES = 1_000_000;
    private static final int TASKS_PER_INVOCATION = 10;
    private static final String RUN_ID = "bench-aggregate";

    private final int tasks;
    private final List<DemoRow> scans = new ArrayList<>(), hashes = new ArrayList<>();
    private final Random random = new Random(17);
    private final long createdAt = 1_764_000_000_000L;
    private long generationNanos;
    private int pages;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private volatile long peakHeap, peakLiveHeap;
    private final List<java.lang.management.MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == java.lang.management.MemoryType.HEAP && p.isCollectionUsageThresholdSupported()).toList();

    /** What a row of the demo's tasks.csv gives the synthetic records. */
    private record DemoRow(long durationMs, long waitMs, long events, long bytes, long compressedBytes, boolean cold, Long initMs,
                           String architecture, int memoryMb) {
    }

    private AggregateRun(int tasks) throws IOException {
        this.tasks = tasks;
        try (BufferedReader csv = new BufferedReader(new InputStreamReader(
                AggregateRun.class.getResourceAsStream("/aggregate/demo-tasks.csv"), StandardCharsets.UTF_8))) {
            List<String> header = List.of(csv.readLine().split(",", -1));
            for (String line = csv.readLine(); line != null; line = csv.readLine()) {
                String[] cells = cells(line);
                java.util.function.Function<String, String> cell = name -> cells[header.indexOf(name)];
                long started = Long.parseLong(cell.apply("startedAt"));
                String sent = cell.apply("sentAt");
                DemoRow row = new DemoRow(Long.parseLong(cell.apply("durationMs")), sent.isEmpty() ? 0 : started - Long.parseLong(sent),
                        number(cell.apply("events")), number(cell.apply("bytes")), number(cell.apply("compressedBytes")),
                        "true".equals(cell.apply("coldStart")), cell.apply("initMs").isEmpty() ? null : Long.parseLong(cell.apply("initMs")),
                        cell.apply("architecture"), Integer.parseInt(cell.apply("memoryMb")));
                ("scan".equals(cell.apply("kind")) ? scans : hashes).add(row);
            }
        }
        if (scans.isEmpty() || hashes.isEmpty()) throw new IllegalStateException("the demo's tasks.csv needs scan and hash rows");
    }

    /** One line of RFC 4180 CSV (tasks.csv quotes countBy, whose JSON holds commas and doubled quotes). */
    static String[] cells(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cell.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                cells.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        cells.add(cell.toString());
        return cells.toArray(String[]::new);
    }

    private static long number(String cell) {
        return cell.isEmpty() ? 0 : Long.parseLong(cell);
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) throw new IllegalArgumentException("usage: AggregateRun TASKS OUT_DIR");
        new AggregateRun(Integer.parseInt(args[0])).run(Path.of(args[1]));
    }

    private void run(Path outDir) throws Exception {
        Files.createDirectories(outDir);
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                sample();
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.setDaemon(true);
        System.gc();
        long start = System.nanoTime();
        sampler.start();
        ReportBuilder builder = new ReportBuilder(new RunReader(new SyntheticTable(), "bench"), PriceTable.defaults(),
                CostAssumptions.defaults(), ReportLineSource.NONE);
        long csvBytes;
        try (RunReport report = builder.build(RUN_ID, ReportInputs.withoutReportLines(CostAssumptions.defaults()))) {
            for (Map.Entry<String, String> file : ReportDocuments.renderFigures(report).entrySet()) {
                Files.writeString(outDir.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
            }
            try (OutputStream csv = Files.newOutputStream(outDir.resolve(ReportDocuments.TASKS_CSV))) {
                report.tasksCsv().writeTo(csv);
            }
            csvBytes = Files.size(outDir.resolve(ReportDocuments.TASKS_CSV));
        }
        double seconds = (System.nanoTime() - start - generationNanos) / 1e9;
        sampler.interrupt();
        sample();
        System.out.printf(Locale.ROOT, "aggregate tasks=%d pages=%d seconds=%.2f generationSeconds=%.2f peakHeapMB=%d peakLiveHeapMB=%d tasksCsvMB=%.0f%n",
                tasks, pages, seconds, generationNanos / 1e9, peakHeap >> 20, peakLiveHeap >> 20, csvBytes / 1e6);
    }

    private void sample() {
        peakHeap = Math.max(peakHeap, memory.getHeapMemoryUsage().getUsed());
        // what each heap pool held just after its last collection: the live set, without the garbage not yet collected
        long live = 0;
        for (java.lang.management.MemoryPoolMXBean pool : heapPools) {
            java.lang.management.MemoryUsage afterGc = pool.getCollectionUsage();
            if (afterGc != null) live += afterGc.getUsed();
        }
        peakLiveHeap = Math.max(peakLiveHeap, live);
    }

    /** A table holding one run, whose pages are made when a Query asks for them. */
    private final class SyntheticTable implements DynamoDbClient {
        @Override
        public QueryResponse query(QueryRequest request) {
            long made = System.nanoTime();
            try {
                return page(request);
            } finally {
                generationNanos += System.nanoTime() - made;
                pages++;
                sample();
            }
        }

        private QueryResponse page(QueryRequest request) {
            String prefix = request.expressionAttributeValues().get(":sk").s();
            Map<String, AttributeValue> after = request.exclusiveStartKey();
            int from = after == null || after.isEmpty() ? 0 : Integer.parseInt(after.get("n").n()) + 1;
            if (prefix.equals(TableKeys.RUN_SK)) {
                RunRecord run = new RunRecord(RUN_ID, "bench", "{\"scan\":[{}]}", new Planned(scanCount(), tasks - scanCount(), tasks),
                        (tasks - scanCount()) * 10L, createdAt, "running", batchpipe.common.table.ProgressShards.shardCount(tasks), (long) tasks,
                        null, List.of(), null, null, createdAt + 60_000);
                return QueryResponse.builder().items(run.toItem()).build();
            }
            boolean taskItems = prefix.equals(TableKeys.TASK_PREFIX);
            int count = taskItems ? tasks : (tasks + TASKS_PER_INVOCATION - 1) / TASKS_PER_INVOCATION;
            List<Map<String, AttributeValue>> items = new ArrayList<>();
            long bytes = 0;
            for (int n = from; n < count; n++) {
                Map<String, AttributeValue> item = taskItems ? task(n).toItem() : invocation(n).toItem();
                long size = ItemSize.of(item);
                if (!items.isEmpty() && bytes + size > PAGE_BYTES) {
                    Map<String, AttributeValue> last = new java.util.HashMap<>(items.get(items.size() - 1));
                    return QueryResponse.builder().items(items)
                            .lastEvaluatedKey(Map.of("n", AttributeValue.fromN(Integer.toString(n - 1)), TableKeys.SK, last.get(TableKeys.SK))).build();
                }
                items.add(item);
                bytes += size;
            }
            return QueryResponse.builder().items(items).build();
        }

        @Override
        public String serviceName() {
            return "dynamodb";
        }

        @Override
        public void close() {
        }
    }

    private int scanCount() {
        return tasks - (tasks + 4) / 5;
    }

    /** Task n: ids in sort-key order, every fifth a hash task. */
    private TaskRecord task(int n) {
        Random r = new Random(n * 31L + 7);
        boolean hash = n % 5 == 0;
        DemoRow row = (hash ? hashes : scans).get(r.nextInt(hash ? hashes.size() : scans.size()));
        int invocation = n / TASKS_PER_INVOCATION;
        boolean cold = new Random(invocation).nextInt(100) < 3; // per invocation: about 3 in 100 start an instance
        DemoRow coldRow = scans.stream().filter(DemoRow::cold).findFirst().orElse(row);
        WorkerInvocation worker = new WorkerInvocation("req-" + invocation, "batchpipe-WorkerFunction", "$LATEST", row.memoryMb(),
                row.architecture().isEmpty() ? "x86_64" : row.architecture(), 2, 1.0, cold, cold ? coldRow.initMs() : null);
        long started = createdAt + 60_000 + (long) n * 3_600_000 / Math.max(1, tasks) + r.nextInt(5_000);
        long duration = Math.max(1, row.durationMs() + r.nextInt(200) - 100);
        ScanOutcome scan = null;
        HashOutcome hashed = null;
        if (hash) {
            hashed = new HashOutcome(10, 10);
        } else {
            Map<String, Map<String, Long>> countBy = new TreeMap<>();
            countBy.put("level", values(r, "level-", 5, 4));
            countBy.put("service", values(r, "service-", 20, 8));
            countBy.put("status", values(r, "status-", 100, 20));
            scan = new ScanOutcome("bucket", "logs/app-" + n + ".jsonl.zst", row.events(), 0, List.of(), 0, row.bytes(),
                    row.compressedBytes(), countBy, Map.of("level", 4L, "service", 8L, "status", 20L), null, null, null);
        }
        return new TaskRecord(RUN_ID, String.format(Locale.ROOT, "t%08d", n), hash ? "hash" : "scan", TaskStatus.DONE, null, createdAt,
                started, started + duration, duration, 1, worker, new WriteTimes(hash ? 4 : 3, 6.5 + r.nextInt(10), 4.25),
                scan, hashed, null, null, started - row.waitMs() - r.nextInt(50));
    }

    private static Map<String, Long> values(Random r, String prefix, int universe, int picked) {
        Map<String, Long> values = new TreeMap<>();
        while (values.size() < picked) values.put(prefix + r.nextInt(universe), 1L + r.nextInt(5_000));
        return values;
    }

    private InvocationRecord invocation(int n) {
        Random r = new Random(n);
        Map<TableCall, List<Double>> calls = new EnumMap<>(TableCall.class);
        List<Double> puts = new ArrayList<>(), reads = new ArrayList<>(), progress = new ArrayList<>();
        for (int t = 0; t < TASKS_PER_INVOCATION; t++) {
            puts.add(3 + r.nextInt(9_000) / 1000.0);
            reads.add(1 + r.nextInt(4_000) / 1000.0);
            progress.add(4 + r.nextInt(12_000) / 1000.0);
        }
        calls.put(TableCall.TASK_RECORD_READ, reads);
        calls.put(TableCall.TASK_RECORD_PUT, puts);
        calls.put(TableCall.PROGRESS_UPDATE, progress);
        WorkerInvocation worker = task(n * TASKS_PER_INVOCATION).invocation();
        return new InvocationRecord(RUN_ID, worker, createdAt, createdAt + 1, TASKS_PER_INVOCATION, calls);
    }
}
