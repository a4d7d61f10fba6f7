package batchpipe.common.run;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine a local run's functions ran on, as it was when the run was planned: the reports of a local
 * run say its durations are this machine's, not Lambda's, and with what CPU, cores, JDK and load they were
 * measured. Only the local runtime records it (the run record's {@code host}); on Lambda it is absent.
 *
 * @param cpuModel    the first "model name" of /proc/cpuinfo, or the OS architecture where there is none
 * @param cores       the processors the JVM sees
 * @param jdk         vendor and version of the JVM that ran the functions
 * @param os          name, version and architecture of the OS
 * @param loadAverage the 1, 5 and 15 minute load averages of /proc/loadavg (only the 1 minute one where that
 *                    file is missing); empty when the OS gives none
 * @param capturedAt  when these were read (epoch ms): when the producer planned the run
 */
public record RunHost(String cpuModel, int cores, String jdk, String os, List<Double> loadAverage, long capturedAt) {
    public RunHost {
        loadAverage = List.copyOf(loadAverage);
    }

    /** This machine, now. */
    public static RunHost capture(long nowMs) {
        return new RunHost(cpuModel(Path.of("/proc/cpuinfo")), Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.vendor", "?") + " " + System.getProperty("java.runtime.version", System.getProperty("java.version", "?")),
                System.getProperty("os.name", "?") + " " + System.getProperty("os.version", "?") + " " + System.getProperty("os.arch", "?"),
                loadAverage(Path.of("/proc/loadavg")), nowMs);
    }

    static String cpuModel(Path cpuinfo) {
        try {
            for (String line : Files.readAllLines(cpuinfo)) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).strip().equals("model name")) return line.substring(colon + 1).strip();
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable: the architecture is what is left to say
        }
        return "unknown CPU (" + System.getProperty("os.arch", "?") + ")";
    }

    static List<Double> loadAverage(Path loadavg) {
        try {
            String[] fields = Files.readString(loadavg).strip().split("\\s+");
            if (fields.length >= 3) return List.of(Double.parseDouble(fields[0]), Double.parseDouble(fields[1]), Double.parseDouble(fields[2]));
        } catch (IOException | RuntimeException e) {
            // not Linux: fall back to the JVM's one-minute figure
        }
        double oneMinute = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return oneMinute < 0 ? List.of() : List.of(oneMinute);
    }

    /** As the run record's {@code host} map. */
    public AttributeValue toAttribute() {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        m.put("cpuModel", AttributeValue.fromS(cpuModel));
        m.put("cores", AttributeValue.fromN(Integer.toString(cores)));
        m.put("jdk", AttributeValue.fromS(jdk));
        m.put("os", AttributeValue.fromS(os));
        m.put("loadAverage", AttributeValue.fromL(loadAverage.stream().map(v -> AttributeValue.fromN(Double.toString(v))).toList()));
        m.put("capturedAt", AttributeValue.fromN(Long.toString(capturedAt)));
        return AttributeValue.fromM(m);
    }

    /** @return null for a record without one */
    static RunHost fromAttribute(Map<String, AttributeValue> stored) {
        if (stored == null) return null;
        ItemReader m = new ItemReader(stored, "run record host");
        AttributeValue load = stored.get("loadAverage");
        List<Double> loadAverage = load == null || !load.hasL() ? List.of() : load.l().stream().map(v -> Double.parseDouble(v.n())).toList();
        return new RunHost(m.string("cpuModel"), Math.toIntExact(m.longOr("cores", 0)), m.string("jdk"), m.string("os"), loadAverage,
                m.longOr("capturedAt", 0));
    }
}
