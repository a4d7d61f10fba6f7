package batchpipe.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Which peer programs this machine has (node, python3, zstd, a C bcrypt) and their versions. */
final class Peers {
    private final Map<String, String> environment;

    Peers(Map<String, String> environment) {
        this.environment = environment;
    }

    static Peers ofThisProcess() {
        return new Peers(System.getenv());
    }

    /** Whether {@code command} is an executable file in a directory of PATH. */
    boolean onPath(String command) {
        for (String dir : environment.getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) return true;
        }
        return false;
    }

    /** One line naming each installed peer's version. */
    String versions(ProcessRunner processes) throws IOException, InterruptedException {
        List<String> v = new ArrayList<>();
        if (onPath("node")) v.add("node " + processes.run(List.of("node", "--version")).stdout().trim());
        if (onPath("python3")) v.add(processes.run(List.of("python3", "--version")).stdout().trim());
        if (onPath("zstd")) v.add(processes.run(List.of("zstd", "--version")).stdout().trim().replace("*** ", ""));
        return String.join("; ", v);
    }

    /**
     * A C bcrypt to compare the worker's with, timing {@code count} hashes at {@code cost} and printing the
     * milliseconds per hash: Debian's python3-bcrypt, else htpasswd -B; null when neither is installed.
     */
    CBcrypt cBcrypt(ProcessRunner processes, int count, int cost) throws IOException, InterruptedException {
        Path debPython = Path.of("/usr/bin/python3");
        if (Files.isExecutable(debPython) && processes.run(List.of(debPython.toString(), "-c", "import bcrypt")).ok()) {
            List<String> command = List.of(debPython.toString(), "-c", "import bcrypt,time\nt=time.perf_counter()\n"
                    + "for i in range(" + count + "): bcrypt.hashpw(b'password_%06d' % (i+1), bcrypt.gensalt(" + cost + "))\n"
                    + "print((time.perf_counter()-t)*1000/" + count + ")");
            return new CBcrypt("C bcrypt (Debian python3-bcrypt)", command, true);
        }
        if (onPath("htpasswd")) {
            List<String> command = Shell.bash("s=$(date +%s%N); for i in $(seq 1 10); do htpasswd -nbB -C " + cost
                    + " u password_$i >/dev/null; done; echo $(( ($(date +%s%N) - s) / 10000000 ))");
            return new CBcrypt("C bcrypt (htpasswd -B, whole processes)", command, false);
        }
        return null;
    }

    /** @param inProcess whether the command times its own hashes (so two copies at once measure the machine's scaling) */
    record CBcrypt(String name, List<String> command, boolean inProcess) {
        /** As a reader would type it. */
        String display() {
            return command.get(0).equals("bash") ? Shell.display(command) : command.get(0) + " -c \"" + command.get(2).replace("\n", "; ") + "\"";
        }

        /** Two copies at once, each printing its own ms per hash; null when the command is not a timed one-process run. */
        List<String> twiceAtOnce() {
            if (!inProcess) return null;
            String one = Shell.quote(command.get(0)) + " -c " + Shell.quote(command.get(2));
            return Shell.bash(one + " & " + one + " & wait");
        }
    }
}
