package batchpipe.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The page's "Machine" section: when, on what CPU and JDK, against which peers, with which command. */
final class MachineInfo {
    private MachineInfo() {
    }

    static Map<String, String> describe(BenchContext context) throws IOException, InterruptedException {
        Map<String, String> machine = new LinkedHashMap<>();
        machine.put("Date", ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        machine.put("CPUs (nproc)", context.processes().run(List.of("nproc")).stdout().trim());
        machine.put("CPU model", cpuModel(Files.readAllLines(Path.of("/proc/cpuinfo"))));
        machine.put("JDK", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " (" + BenchContext.javaExecutable() + ")");
        machine.put("Peers", context.peers().versions(context.processes()));
        BenchSettings settings = context.settings();
        machine.put("Bench", settings.commandLine() + (settings.quick() ? " (quick: ~100 MB input)" : " (full: ~1 GB input)"));
        return machine;
    }

    /** The first {@code model name} of /proc/cpuinfo. */
    static String cpuModel(List<String> cpuinfo) {
        return cpuinfo.stream().filter(l -> l.startsWith("model name"))
                .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("unknown");
    }
}
