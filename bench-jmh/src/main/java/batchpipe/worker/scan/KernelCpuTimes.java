package batchpipe.worker.scan;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@link ShapeKernelBenchmark}'s kernels timed by the thread's CPU time instead of the wall clock, the
 * best of many runs: on a shared machine (load averages of 6-10 on 2 cores while this was written) JMH's
 * wall-clock errors were larger than the differences measured, while a thread's CPU time counts only
 * the time it ran. Prints one line per shape and kernel: best CPU ms per operation and MB/s.
 * {@link StringSkipBenchmark}'s string kernels and {@link DigitRunBenchmark}'s digit kernels too, unless told
 * {@code shapes} only; {@code fields} times {@link LongValueFieldBenchmark}'s long fields one at a time instead.
 * Usage: {@code java -cp bench-jmh/target/benchmarks.jar batchpipe.worker.scan.KernelCpuTimes [RUNS [strings|shapes|fields|all]]}.
 */
public final class KernelCpuTimes {
    private KernelCpuTimes() {
    }

    /** The least CPU time of {@code runs} calls, the first quarter of which only warm up. */
    private static long best(ThreadMXBean threads, Callable<Object> kernel, int runs) throws Exception {
        long best = Long.MAX_VALUE;
        for (int r = 0; r < runs; r++) {
            long start = threads.getCurrentThreadCpuTime();
            kernel.call();
            long cpu = threads.getCurrentThreadCpuTime() - start;
            if (r >= runs / 4) {
                best = Math.min(best, cpu);
            }
        }
        return best;
    }

    /** One line per kernel: its least CPU time per call over {@code runs} calls, and MB/s of {@code bytes}. */
    private static void printBest(ThreadMXBean threads, String label, List<Callable<Object>> kernels, List<String> names,
                                  int runs, long bytes) throws Exception {
        for (int i = 0; i < kernels.size(); i++) {
            long best = best(threads, kernels.get(i), runs);
            System.out.printf(Locale.ROOT, "%s  %-10s %8.3f ms  %6.0f MB/s%n", label, names.get(i), best / 1e6, bytes / 1e6 / (best / 1e9));
        }
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        boolean strings = args.length < 2 || args[1].equals("strings") || args[1].equals("all");
        boolean shapes = args.length < 2 || args[1].equals("shapes") || args[1].equals("all");
        boolean fields = args.length >= 2 && (args[1].equals("fields") || args[1].equals("all"));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (String field : fields ? List.of("stack", "body", "samples", "tags") : List.<String>of()) {
            LongValueFieldBenchmark k = new LongValueFieldBenchmark();
            k.field = field;
            k.extract();
            printBest(threads, String.format(Locale.ROOT, "field %-8s", field), List.of(k::validate), List.of("validate"),
                    runs, k.bytes());
        }
        for (String text : strings ? List.of("ascii", "mixed") : List.<String>of()) {
            for (int length : new int[] {8, 32, 1024, 32768}) {
                StringSkipBenchmark k = new StringSkipBenchmark();
                k.length = length;
                k.text = text;
                k.generate();
                printBest(threads, String.format(Locale.ROOT, "strings %-6s %6d B", text, length),
                        List.of(k::swar, k::tableOnly), List.of("swar", "tableOnly"), runs * 4, k.bytes());
            }
        }
        for (int length : strings ? new int[] {3, 6, 13} : new int[0]) {
            DigitRunBenchmark k = new DigitRunBenchmark();
            k.length = length;
            k.generate();
            printBest(threads, String.format(Locale.ROOT, "digits %13d B", length),
                    List.of(k::swar, k::bytewise), List.of("swar", "bytewise"), runs * 4, k.bytes());
        }
        for (String shape : shapes ? List.of("short", "long-values", "narrow") : List.<String>of()) {
            ShapeKernelBenchmark k = new ShapeKernelBenchmark();
            k.shape = shape;
            k.generate();
            long bytes = ShapeInput.plain(ShapeInput.shape(shape)).length;
            List<Callable<Object>> kernels = new ArrayList<>();
            List<String> names = List.of("validate", "parse", "decompress");
            kernels.add(k::validate);
            kernels.add(() -> {
                k.parseOnce();
                return null;
            });
            kernels.add(k::decompress);
            for (int i = 0; i < kernels.size(); i++) {
                long best = best(threads, kernels.get(i), runs);
                System.out.printf(Locale.ROOT, "%-12s %-10s %8.2f ms  %6.0f MB/s%n", shape, names.get(i), best / 1e6, bytes / 1e6 / (best / 1e9));
            }
        }
    }
}
