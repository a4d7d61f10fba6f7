package batchpipe.bench;

import java.nio.file.Path;
import java.util.List;

/** Shell command lines for the peers' pipelines, and the commands as a reader would type them. */
final class Shell {
    private Shell() {
    }

    /** A pipeline run by bash that fails when any stage fails, not only the last. */
    static List<String> bash(String script) {
        return List.of("bash", "-c", "set -o pipefail; " + script);
    }

    /** {@code text} as one single-quoted shell word, whatever it holds. */
    static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    static String quote(Path path) {
        return quote(path.toString());
    }

    /** The command as a reader would type it: a bash pipeline shows its script, anything else its words. */
    static String display(List<String> command) {
        if (command.size() == 3 && command.get(0).equals("bash") && command.get(1).equals("-c")) {
            String script = command.get(2);
            return script.startsWith("set -o pipefail; ") ? script.substring("set -o pipefail; ".length()) : script;
        }
        return String.join(" ", command);
    }
}
