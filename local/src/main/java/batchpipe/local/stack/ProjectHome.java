package batchpipe.local.stack;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The repository root: where template.yaml, events/ and local/dynalite live. The wrapper script sets
 * BATCHPIPE_HOME; tests and IDE runs find it by walking up from the working directory.
 */
public final class ProjectHome {
    private ProjectHome() {
    }

    public static Path find() {
        String configured = System.getenv("BATCHPIPE_HOME");
        if (configured != null && !configured.isBlank()) {
            Path home = Path.of(configured).toAbsolutePath().normalize();
            if (Files.isRegularFile(home.resolve("template.yaml"))) return home;
            throw new IllegalStateException("BATCHPIPE_HOME=" + configured + " has no template.yaml");
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("template.yaml")) && Files.isDirectory(dir.resolve("local"))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the Batchpipe repository (template.yaml) above " + Path.of("").toAbsolutePath()
                + "; run from inside it or set BATCHPIPE_HOME");
    }
}
