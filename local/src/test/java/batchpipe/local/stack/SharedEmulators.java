package batchpipe.local.stack;

import batchpipe.local.template.StackTemplate;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * One set of emulators (ElasticMQ, S3Proxy, dynalite) per test JVM, started by the first integration test
 * that asks for a stack and stopped when the JVM exits. Starting them took 2-4 s of every integration test
 * class; each test now gets a stack of its own in them instead: its queues, table and bucket named after it
 * ({@code <stackName>-<LogicalId>}), so tests cannot see each other's messages or items. Closing such a stack
 * deletes its table and empties its queues. Tests that check how the emulators themselves start and stop
 * ({@code LocalStackIT}) still use {@link LocalStack#start}.
 */
public final class SharedEmulators {
    private static Emulators emulators;
    /** Every stack name handed out in this JVM: a name used twice would meet the first stack's bucket. */
    private static final Set<String> NAMES = new HashSet<>();

    private SharedEmulators() {
    }

    /** A fresh stack of the template's resources named {@code stackName} in this JVM's emulators. */
    public static synchronized LocalStack stack(StackTemplate template, String stackName) throws Exception {
        if (!NAMES.add(stackName)) {
            throw new IllegalArgumentException("the stack name '" + stackName + "' was already used in this test JVM: give each test its own");
        }
        return LocalStack.createIn(emulators(), template, stackName);
    }

    /** A fresh stack of template.yaml as it is (no parameter overrides). */
    public static LocalStack stack(String stackName) throws Exception {
        return stack(StackTemplate.load(ProjectHome.find().resolve("template.yaml"), Map.of()), stackName);
    }

    private static Emulators emulators() throws Exception {
        if (emulators == null) {
            Emulators started = Emulators.start(ProjectHome.find(), LocalStack.Ports.free());
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "shared-emulators-stop"));
            emulators = started;
        }
        return emulators;
    }
}
