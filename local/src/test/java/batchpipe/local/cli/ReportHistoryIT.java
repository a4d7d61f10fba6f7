package batchpipe.local.cli;

import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.delivery.ReportDocuments;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `report --history --reports s3://bucket/prefix/` against S3Proxy in this JVM (the local stack's S3
 * emulator): the reports are listed and read under the prefix as the aggregator stores them, one level
 * deep, and the slow run is flagged.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReportHistoryIT {
    private static final String BUCKET = "history-bucket";

    @TempDir
    static Path work;

    private S3Proxy proxy;
    private URI endpoint;

    @BeforeAll
    void startS3ProxyWithStoredReports() throws Exception {
        Properties properties = new Properties();
        properties.setProperty("jclouds.filesystem.basedir", Files.createDirectories(work.resolve("blobs")).toString());
        var blobStore = ContextBuilder.newBuilder("filesystem").overrides(properties).build(BlobStoreContext.class).getBlobStore();
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        endpoint = URI.create("http://127.0.0.1:" + port);
        proxy = S3Proxy.builder().blobStore(blobStore).endpoint(endpoint).awsAuthentication(AuthenticationType.NONE, null, null).build();
        proxy.start();
        for (int i = 0; i < 500 && !"STARTED".equals(proxy.getState()); i++) Thread.sleep(10);

        try (S3Client s3 = s3()) {
            s3.createBucket(b -> b.bucket(BUCKET));
            long[] durations = {1_000, 1_010, 990, 1_000, 1_005, 3_000};
            for (int i = 0; i < durations.length; i++) store(s3, "reports/", HistoryRuns.report("s" + i, "nightly", i, durations[i]));
            // Not runs of this prefix: another prefix, and a file deeper than <runId>/report.json.
            store(s3, "elsewhere/", HistoryRuns.report("x0", "nightly", 7, 50_000));
            s3.putObject(b -> b.bucket(BUCKET).key("reports/s0/recomputed/report.json"), RequestBody.fromString("not even JSON"));
        }
    }

    private static void store(S3Client s3, String prefix, RunReport report) {
        for (var file : ReportDocuments.render(report).entrySet()) {
            s3.putObject(b -> b.bucket(BUCKET).key(prefix + report.report().runId() + "/" + file.getKey()), RequestBody.fromString(file.getValue()));
        }
    }

    private S3Client s3() {
        return S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1).forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    @AfterAll
    void stop() throws Exception {
        if (proxy != null) proxy.stop();
    }

    @Test
    void history_readsTheReportsUnderTheS3PrefixAndFlagsTheSlowRun() throws Exception {
        Path out = work.resolve("history");
        Supplier<DynamoDbClient> noDynamoDb = () -> {
            throw new AssertionError("no DynamoDB client may be made");
        };
        InProcessCli.Result result = InProcessCli.run(InProcessCli.reportClients(noDynamoDb, this::s3),
                "report", "--history", "--reports", "s3://" + BUCKET + "/reports", "--out", out.toString());
        String md = result.out();

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.err()).isEmpty();
        assertThat(md).contains("6 runs of every label, oldest first, from the report.json of each run folder in s3://" + BUCKET + "/reports/.",
                "- Run s5 (nightly): p99 task duration 3 s is 200% above the baseline median 1 s of runs s0, s1, s2, s3, s4.")
                .doesNotContain("x0");
        assertThat(md.lines().filter(l -> l.contains("flagged:")).toList()).singleElement().asString().startsWith("| 6 | s5 |");
        assertThat(out.resolve("history.html")).exists();
    }
}
