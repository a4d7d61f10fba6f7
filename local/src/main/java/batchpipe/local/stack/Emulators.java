package batchpipe.local.stack;

import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The three emulators' lifecycle, and nothing about what lives in them: ElasticMQ (SQS) and S3Proxy (S3)
 * inside this JVM, dynalite (DynamoDB) as a child process. {@link StackResources} creates the template's
 * resources in them.
 */
final class Emulators implements AutoCloseable {
    private final List<AutoCloseable> started;
    private final URI sqsEndpoint;
    private final URI s3Endpoint;
    private final URI dynamoDbEndpoint;

    private Emulators(List<AutoCloseable> started, URI sqsEndpoint, URI s3Endpoint, URI dynamoDbEndpoint) {
        this.started = started;
        this.sqsEndpoint = sqsEndpoint;
        this.s3Endpoint = s3Endpoint;
        this.dynamoDbEndpoint = dynamoDbEndpoint;
    }

    URI sqsEndpoint() {
        return sqsEndpoint;
    }

    URI s3Endpoint() {
        return s3Endpoint;
    }

    URI dynamoDbEndpoint() {
        return dynamoDbEndpoint;
    }

    /**
     * Starts the three at once (dynalite is a Node.js process, S3Proxy and ElasticMQ load their own
     * classes), which roughly halves the wait on two cores. On any failure what was started is stopped again.
     */
    static Emulators start(Path projectHome, LocalStack.Ports ports) throws Exception {
        ExecutorService starter = Executors.newFixedThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "local-stack-start");
            thread.setDaemon(true);
            return thread;
        });
        Future<Dynalite> dynaliteStart = starter.submit(() -> Dynalite.start(projectHome, ports.dynamoDb()));
        Future<S3Emulator> s3Start = starter.submit(() -> S3Emulator.start(ports.s3()));
        starter.shutdown();
        List<AutoCloseable> started = new ArrayList<>();
        Throwable failure = null;
        int sqsPort = -1;
        try {
            SQSRestServer sqsServer = SQSRestServerBuilder.withInterface("127.0.0.1")
                    .withPort(ports.sqs())
                    .withAWSRegion(LocalStack.REGION)
                    .withAWSAccountId(LocalStack.ACCOUNT)
                    .start();
            started.add(() -> stopWithoutLingering(sqsServer));
            sqsPort = sqsServer.waitUntilStarted().localAddress().getPort();
        } catch (Exception | Error e) {
            failure = e;
        }
        // Wait for both of the others even after a failure, so that whatever did start is stopped.
        S3Emulator s3 = null;
        Dynalite dynalite = null;
        try {
            s3 = s3Start.get();
            started.add(s3);
        } catch (ExecutionException e) {
            failure = addFailure(failure, e.getCause());
        }
        try {
            dynalite = dynaliteStart.get();
            started.add(dynalite);
        } catch (ExecutionException e) {
            failure = addFailure(failure, e.getCause());
        }
        Emulators emulators = new Emulators(started, URI.create("http://127.0.0.1:" + sqsPort),
                s3 == null ? null : URI.create("http://127.0.0.1:" + s3.port()),
                dynalite == null ? null : URI.create("http://127.0.0.1:" + dynalite.port()));
        if (failure != null) {
            emulators.stopAll(failure);
            if (failure instanceof Exception exception) throw exception;
            if (failure instanceof Error error) throw error;
            throw new IllegalStateException(failure);
        }
        return emulators;
    }

    /** Stops every emulator started, last first, adding what failed to stop to {@code cause}. */
    void stopAll(Throwable cause) {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (Exception suppressed) {
                cause.addSuppressed(suppressed);
            }
        }
    }

    /** Stops them at once: they do not depend on each other, which saves most of a second. */
    @Override
    public void close() {
        List<Thread> stopping = new ArrayList<>();
        for (AutoCloseable emulator : started) {
            stopping.add(Thread.ofPlatform().name("local-stack-stop").start(() -> {
                try {
                    emulator.close();
                } catch (Exception ignored) {
                    // stop the rest anyway
                }
            }));
        }
        for (Thread thread : stopping) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * ElasticMQ's stop waits a full second for the HTTP connections our clients keep alive before it
     * gives up on them. Nothing is lost by not waiting: the queues live in this JVM and are gone either
     * way. So the stop runs on its own thread and we wait for it briefly; it finishes in the background,
     * or the JVM's exit ends it.
     */
    private static void stopWithoutLingering(SQSRestServer server) throws InterruptedException {
        Thread stop = Thread.ofPlatform().daemon().name("elasticmq-stop").start(server::stopAndWait);
        stop.join(300);
    }

    private static Throwable addFailure(Throwable first, Throwable next) {
        if (first == null) return next;
        first.addSuppressed(next);
        return first;
    }

    /** S3Proxy on a filesystem store in a temporary folder, which closing deletes. */
    private record S3Emulator(S3Proxy proxy, Path folder) implements AutoCloseable {
        static S3Emulator start(int port) throws Exception {
            Path folder = Files.createTempDirectory("batchpipe-s3-");
            try {
                Properties blobStoreProperties = new Properties();
                blobStoreProperties.setProperty("jclouds.filesystem.basedir", folder.toString());
                var blobStore = ContextBuilder.newBuilder("filesystem")
                        .overrides(blobStoreProperties)
                        .build(BlobStoreContext.class)
                        .getBlobStore();
                S3Proxy proxy = S3Proxy.builder()
                        .blobStore(blobStore)
                        .endpoint(URI.create("http://127.0.0.1:" + port))
                        .awsAuthentication(AuthenticationType.NONE, null, null)
                        .build();
                proxy.start();
                S3Emulator emulator = new S3Emulator(proxy, folder);
                try {
                    waitForS3Proxy(proxy);
                } catch (InterruptedException e) {
                    emulator.close();
                    throw e;
                }
                return emulator;
            } catch (Exception | Error e) {
                TempFolders.deleteQuietly(folder);
                throw e;
            }
        }

        int port() {
            return proxy.getPort();
        }

        @Override
        public void close() throws Exception {
            try {
                proxy.stop();
            } finally {
                TempFolders.deleteQuietly(folder);
            }
        }
    }

    private static void waitForS3Proxy(S3Proxy proxy) throws InterruptedException {
        for (int i = 0; i < 200 && !"STARTED".equals(proxy.getState()); i++) {
            Thread.sleep(10);
        }
    }
}
