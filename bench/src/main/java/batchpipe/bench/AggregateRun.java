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
import batchpipe.common.table.RunPartitions;
import batchpipe.common.table.TableCall;
import batchpipe.common.table.TableKeys;
import batchpipe.producer.RunPlanner;
import batchpipe.producer.plan.PartitionSizing;
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
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * The aggregation of a million-task run, in a JVM of its own (run it under {@code -Xmx768m}, what a
 * 1,024 MB function leaves for the heap): {@code java -Xmx768m -cp ... batchpipe.bench.AggregateRun TASKS OUT_DIR [sharded|one-key]}.
 * <p>
 * The aggregator's own path ({@link ReportBuilder}, {@link RunReader}, the streaming fold) reads the run
 * from a table that answers each Query with the next page of a key's items, in DynamoDB's order (sort key by
 * UTF-8 bytes), at most the request's {@code Limit} items and at most 1 MB, made on demand:
 * {@code TASKS} synthetic task records (80 % scan, 20 % hash batches of {@value #HASHES_PER_TASK} hashes at cost
 * {@value #HASH_COST}; durations, sizes, queue waits and cold starts drawn from a real demo run's tasks.csv,
 * {@code aggregate/demo-tasks.csv}; countBy on 3 paths with up to 5, 20 and 100 values), then one invocation
 * record per worker invocation of 10 tasks. The report's four files are written to {@code OUT_DIR} (tasks.csv
 * streamed from its spill, as to S3).
 * <p>
 * Layout {@code sharded} (the default) is what a real run of {@code TASKS} tasks gets: the partition count the
 * producer's {@link PartitionSizing} chooses for this load at the template's default WorkerMaxConcurrency
 * ({@value RunPlanner.Settings#DEFAULT_WORKER_MAX_CONCURRENCY}), stated on the run record, each task record on the
 * key {@link RunPartitions#taskPk} gives its task id and each invocation record on the key
 * {@link RunPartitions#invocationPk} gives its request id, as the worker writes them; the aggregator then merges
 * the keys' Queries k ways. Layout {@code one-key} puts every item on {@code run#<runId>} (runs stored before
 * partitions), read with one Query after another.
 * <p>
 * Prints one line: {@code aggregate layout=L partitions=S tasks=N pages=P seconds=X wallSeconds=W generationSeconds=G
 * pageWaitSeconds=PW peakHeapMB=H peakLiveHeapMB=LH tasksCsvMB=C}. wallSeconds is from the first Query to the last
 * file written; seconds is that less the time the reading thread waited for the fake table's pages (pageWaitSeconds):
 * pages it made itself (one key: each Query runs on the reading thread) and pages it waited for while other threads
 * made them (several keys: the merge fetches each key's next page ahead, on virtual threads). generationSeconds is
 * all the time spent making pages, on any thread; with several keys much of it runs beside the fold, on the other
 * core, so it is not all waited for (and, competing with the fold for the two cores, it slows it down a little:
 * seconds is then on the slow side). peakHeapMB is the most heap in use seen by a sampler every 10 ms and after each
 * page (garbage not yet collected included: a collector lets the heap fill before it collects), and peakLiveHeapMB the
 * most the heap pools held just after a collection (their collection usage, summed). The fake table's index of which
 * task and invocation is on which key (an int for each, 4.4 MB for a million tasks) is in both.
 */
public final class AggregateRun {
    static final long PAGE_BYTES = 1_000_000;
    static final int TASKS_PER_INVOCATION = 10;
    static final int HASHES_PER_TASK = 10;
    static final int HASH_COST = 10;
    static final String RUN_ID = "bench-aggregate";

    /** Where the run's items are. */
    enum Layout {
        /** Over the keys the producer sizes a run of this load for: what a real run gets. */
        SHARDED,
        /** Everything on {@code run#<runId>}: runs stored before partitions. */
        ONE_KEY;

        static Layout parse(String name) {
            return switch (name) {
                case "sharded" -> SHARDED;
                case "one-key" -> ONE_KEY;
                default -> throw new IllegalArgumentException("layout is sharded or one-key, not " + name);
            };
        }

        String label() {
            return this == SHARDED ? "sharded" : "one-key";
        }
    }

    private final int tasks;
    private final Layout layoutKind;
    private final RunPartitions layout;
    /** Per item partition (in {@link RunPartitions#itemPks} order): its task numbers and invocation numbers, in sort-key order. */
    private final int[][] tasksOnKey, invocationsOnKey;
    private final Map<String, Integer> keyIndex = new HashMap<>();
    private final List<DemoRow> scans = new ArrayList<>(), hashes = new ArrayList<>();
    private final long createdAt = 1_764_000_000_000L;
    private final AtomicLong generationNanos = new AtomicLong(), readerGenerationNanos = new AtomicLong();
    private final AtomicInteger pages = new AtomicInteger();
    private volatile Thread reader;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private volatile long peakHeap, peakLiveHeap;
    private final List<java.lang.management.MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == java.lang.management.MemoryType.HEAP && p.isCollectionUsageThresholdSupported()).toList();

    /** What a row of the demo's tasks.csv gives the synthetic records. */
    private record DemoRow(long durationMs, long waitMs, long events, long bytes, long compressedBytes, boolean cold, Long initMs,
                           String architecture, int memoryMb) {
    }

    AggregateRun(int tasks, Layout layoutKind) throws IOException {
        this.tasks = tasks;
        this.layoutKind = layoutKind;
        this.layout = layoutKind == Layout.SHARDED ? new RunPartitions(RUN_ID, partitionsFor(tasks)) : RunPartitions.legacy(RUN_ID);
        List<String> pks = layout.itemPks();
        for (int k = 0; k < pks.size(); k++) keyIndex.put(pks.get(k), k);
        this.tasksOnKey = byKey(tasks, AggregateRun::taskId, n -> TableKeys.taskSk(taskId(n)));
        this.invocationsOnKey = byKey(invocationCount(), AggregateRun::requestId, i -> InvocationRecord.sortKey(requestId(i)));
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

    /** The load a run of {@code tasks} tasks plans, as the producer counts it: the scans, and hash batches of 10 at cost 10. */
    static PartitionSizing.Load load(int tasks) {
        long hashTasks = tasks - scanCount(tasks);
        return new PartitionSizing.Load(scanCount(tasks), true, hashTasks, hashTasks * HASHES_PER_TASK, HASH_COST);
    }

    /** The partition count the producer gives a run of {@code tasks} tasks at the template's default WorkerMaxConcurrency. */
    static int partitionsFor(int tasks) {
        return PartitionSizing.partitions(load(tasks), RunPlanner.Settings.DEFAULT_WORKER_MAX_CONCURRENCY);
    }

    RunPartitions layout() {
        return layout;
    }

    /**
     * Items {@code 0 .. count-1} by the item partition their id hashes to ({@link RunPartitions#partitionOf}, the worker's
     * choice of key), each key's in the order a Query returns them: by sort key, as UTF-8 bytes.
     */
    private int[][] byKey(int count, IntFunction<String> id, IntFunction<String> sortKey) {
        int keys = layout.itemPks().size();
        int[] keyOf = new int[count], sizes = new int[keys];
        for (int n = 0; n < count; n++) sizes[keyOf[n] = layout.partitionOf(id.apply(n))]++;
        int[][] onKey = new int[keys][];
        for (int k = 0; k < keys; k++) onKey[k] = new int[sizes[k]];
        int[] filled = new int[keys];
        for (int n = 0; n < count; n++) onKey[keyOf[n]][filled[keyOf[n]]++] = n;
        for (int k = 0; k < keys; k++) {
            String[] sks = new String[onKey[k].length];
            boolean sorted = true;
            for (int i = 0; i < sks.length; i++) {
                sks[i] = sortKey.apply(onKey[k][i]);
                if (i > 0 && TableKeys.SORT_KEY_ORDER.compare(sks[i - 1], sks[i]) > 0) sorted = false;
            }
            if (sorted) continue;
            Integer[] order = new Integer[sks.length];
            for (int i = 0; i < order.length; i++) order[i] = i;
            Arrays.sort(order, Comparator.comparing((Integer i) -> sks[i], TableKeys.SORT_KEY_ORDER));
            int[] items = onKey[k];
            int[] inOrder = new int[items.length];
            for (int i = 0; i < order.length; i++) inOrder[i] = items[order[i]];
            onKey[k] = inOrder;
        }
        return onKey;
    }

    static String taskId(int n) {
        return String.format(Locale.ROOT, "t%08d", n);
    }

    static String requestId(int invocation) {
        return "req-" + invocation;
    }

    private int invocationCount() {
        return (tasks + TASKS_PER_INVOCATION - 1) / TASKS_PER_INVOCATION;
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
        if (args.length != 2 && args.length != 3) throw new IllegalArgumentException("usage: AggregateRun TASKS OUT_DIR [sharded|one-key]");
        new AggregateRun(Integer.parseInt(args[0]), args.length == 3 ? Layout.parse(args[2]) : Layout.SHARDED).run(Path.of(args[1]));
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
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isThreadContentionMonitoringSupported()) throw new IllegalStateException("this JVM cannot time a thread's waits");
        threads.setThreadContentionMonitoringEnabled(true);
        reader = Thread.currentThread();
        System.gc();
        long waitedBeforeMs = threads.getThreadInfo(reader.threadId()).getWaitedTime();
        long start = System.nanoTime();
        sampler.start();
        ReportBuilder builder = new ReportBuilder(new RunReader(table(), "bench"), PriceTable.defaults(),
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
        long wall = System.nanoTime() - start;
        long waitedNanos = (threads.getThreadInfo(reader.threadId()).getWaitedTime() - waitedBeforeMs) * 1_000_000;
        long pageWait = readerGenerationNanos.get() + waitedNanos;
        sampler.interrupt();
        sample();
        System.out.printf(Locale.ROOT, "aggregate layout=%s partitions=%d tasks=%d pages=%d seconds=%.2f wallSeconds=%.2f generationSeconds=%.2f "
                        + "pageWaitSeconds=%.2f peakHeapMB=%d peakLiveHeapMB=%d tasksCsvMB=%.0f%n",
                layoutKind.label(), layout.count(), tasks, pages.get(), (wall - pageWait) / 1e9, wall / 1e9, generationNanos.get() / 1e9,
                pageWait / 1e9, peakHeap >> 20, peakLiveHeap >> 20, csvBytes / 1e6);
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

    /** The table holding the run: a client whose Queries are answered from the synthetic records. */
    DynamoDbClient table() {
        return new SyntheticTable();
    }

    /**
     * A table holding one run, whose pages are made when a Query asks for them: the run record on {@code run#<runId>},
     * each item partition's task or invocation records from the one after the request's ExclusiveStartKey, in sort-key
     * order, until the request's Limit or 1 MB; LastEvaluatedKey (the last item's key) whenever it stopped short of the
     * end or at the Limit, as DynamoDB does.
     */
    private final class SyntheticTable implements DynamoDbClient {
        @Override
        public QueryResponse query(QueryRequest request) {
            long made = System.nanoTime();
            try {
                return page(request);
            } finally {
                long took = System.nanoTime() - made;
                generationNanos.addAndGet(took);
                if (Thread.currentThread() == reader) readerGenerationNanos.addAndGet(took);
                pages.incrementAndGet();
                sample();
            }
        }

        private QueryResponse page(QueryRequest request) {
            String pk = request.expressionAttributeValues().get(":pk").s();
            String prefix = request.expressionAttributeValues().get(":sk").s();
            if (prefix.equals(TableKeys.RUN_SK)) {
                if (!pk.equals(layout.runPk())) return QueryResponse.builder().items(List.of()).build();
                RunRecord run = new RunRecord(RUN_ID, "bench", "{\"scan\":[{}]}", new Planned(scanCount(tasks), tasks - scanCount(tasks), tasks),
                        (long) (tasks - scanCount(tasks)) * HASHES_PER_TASK, createdAt, "running",
                        batchpipe.common.table.ProgressShards.shardCount(tasks), (long) tasks, null, List.of(), null, null, createdAt + 60_000,
                        layout.isLegacy() ? null : (Integer) layout.count(), (batchpipe.common.run.PlanCursor) null);
                return QueryResponse.builder().items(run.toItem()).build();
            }
            boolean taskItems = prefix.equals(TableKeys.TASK_PREFIX);
            if (!taskItems && !prefix.equals(TableKeys.INVOCATION_PREFIX)) {
                throw new IllegalArgumentException("the synthetic table holds task and invocation records only, not " + prefix + "*");
            }
            Integer key = keyIndex.get(pk);
            if (key == null) return QueryResponse.builder().items(List.of()).build();
            int[] onKey = (taskItems ? tasksOnKey : invocationsOnKey)[key];
            Map<String, AttributeValue> after = request.exclusiveStartKey();
            int from = after == null || after.isEmpty() ? 0 : firstAfter(onKey, taskItems, after.get(TableKeys.SK).s());
            int limit = request.limit() == null ? Integer.MAX_VALUE : request.limit();
            List<Map<String, AttributeValue>> items = new ArrayList<>();
            long bytes = 0;
            for (int i = from; i < onKey.length; i++) {
                if (items.size() == limit) return stoppedAt(items);
                Map<String, AttributeValue> item = taskItems ? task(onKey[i]).toItem(layout) : invocation(onKey[i]).toItem(layout);
                long size = ItemSize.of(item);
                if (!items.isEmpty() && bytes + size > PAGE_BYTES) return stoppedAt(items);
                items.add(item);
                bytes += size;
            }
            return items.size() == limit ? stoppedAt(items) : QueryResponse.builder().items(items).build();
        }

        private static QueryResponse stoppedAt(List<Map<String, AttributeValue>> items) {
            Map<String, AttributeValue> last = items.get(items.size() - 1);
            return QueryResponse.builder().items(items)
                    .lastEvaluatedKey(Map.of(TableKeys.PK, last.get(TableKeys.PK), TableKeys.SK, last.get(TableKeys.SK))).build();
        }

        /** Where a key's Query resumes after {@code sk}: the first item whose sort key comes after it. */
        private static int firstAfter(int[] onKey, boolean taskItems, String sk) {
            int low = 0, high = onKey.length;
            while (low < high) {
                int mid = (low + high) >>> 1;
                String at = taskItems ? TableKeys.taskSk(taskId(onKey[mid])) : InvocationRecord.sortKey(requestId(onKey[mid]));
                if (TableKeys.SORT_KEY_ORDER.compare(at, sk) <= 0) low = mid + 1;
                else high = mid;
            }
            return low;
        }

        @Override
        public String serviceName() {
            return "dynamodb";
        }

        @Override
        public void close() {
        }
    }

    static int scanCount(int tasks) {
        return tasks - (tasks + 4) / 5;
    }

    /** Task n: ids in sort-key order, every fifth a hash task. */
    TaskRecord task(int n) {
        Random r = new Random(n * 31L + 7);
        boolean hash = n % 5 == 0;
        DemoRow row = (hash ? hashes : scans).get(r.nextInt(hash ? hashes.size() : scans.size()));
        int invocation = n / TASKS_PER_INVOCATION;
        boolean cold = new Random(invocation).nextInt(100) < 3; // per invocation: about 3 in 100 start an instance
        DemoRow coldRow = scans.stream().filter(DemoRow::cold).findFirst().orElse(row);
        WorkerInvocation worker = new WorkerInvocation(requestId(invocation), "batchpipe-WorkerFunction", "$LATEST", row.memoryMb(),
                row.architecture().isEmpty() ? "x86_64" : row.architecture(), 2, 1.0, cold, cold ? coldRow.initMs() : null);
        long started = createdAt + 60_000 + (long) n * 3_600_000 / Math.max(1, tasks) + r.nextInt(5_000);
        long duration = Math.max(1, row.durationMs() + r.nextInt(200) - 100);
        ScanOutcome scan = null;
        HashOutcome hashed = null;
        if (hash) {
            hashed = new HashOutcome(HASHES_PER_TASK, HASH_COST);
        } else {
            Map<String, Map<String, Long>> countBy = new TreeMap<>();
            countBy.put("level", values(r, "level-", 5, 4));
            countBy.put("service", values(r, "service-", 20, 8));
            countBy.put("status", values(r, "status-", 100, 20));
            scan = new ScanOutcome("bucket", "logs/app-" + n + ".jsonl.zst", row.events(), 0, List.of(), 0, row.bytes(),
                    row.compressedBytes(), countBy, Map.of("level", 4L, "service", 8L, "status", 20L), null, null, null);
        }
        return TaskRecord.builder().runId(RUN_ID).taskId(taskId(n)).kind(hash ? "hash" : "scan").status(TaskStatus.DONE)
                .enqueuedAt(createdAt).startedAt(started).finishedAt(started + duration).attempt(1).invocation(worker)
                .writes(new WriteTimes(hash ? 4 : 3, 6.5 + r.nextInt(10), 4.25)).scan(scan).hash(hashed)
                .sentAt(started - row.waitMs() - r.nextInt(50)).build();
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
