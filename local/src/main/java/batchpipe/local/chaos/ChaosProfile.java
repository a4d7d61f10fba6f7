package batchpipe.local.chaos;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** The faults `./batchpipe demo --chaos` can inject into the local pipeline. */
public enum ChaosProfile {
    /** A worker instance dies mid-batch after some of its writes; the handler sees an error it cannot catch. */
    CRASH("a worker instance dies after some of its DynamoDB writes (an Error unwinds the handler)"),
    /** As CRASH, but the runtime drops the instance at once: no cleanup, no response, nothing after that write. */
    ABORT("a worker instance is killed after some of its writes: no cleanup and no response"),
    /** DynamoDB answers ProvisionedThroughputExceeded, and BatchWriteItem leaves UnprocessedItems. */
    THROTTLE("DynamoDB throttles writes and leaves UnprocessedItems"),
    /** S3 object reads break mid-stream. */
    S3_BREAK("S3 reads break mid-stream"),
    /** The event source mapping's ReceiveMessage and DeleteMessageBatch calls fail. */
    SQS_FAIL("SQS receive and delete calls fail"),
    /** Invocations run past their deadline. */
    TIMEOUT("worker invocations run past their deadline"),
    /** The event source mapping delivers a batch twice, to two instances at once. */
    DUPLICATE("messages are delivered twice");

    private final String description;

    ChaosProfile(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** "all", or a comma-separated list of profile names. */
    public static Set<ChaosProfile> parse(String text) {
        if (text.equals("all")) return EnumSet.allOf(ChaosProfile.class);
        Set<ChaosProfile> profiles = EnumSet.noneOf(ChaosProfile.class);
        for (String name : text.split(",")) {
            ChaosProfile profile = Arrays.stream(values()).filter(p -> p.cliName().equals(name.trim())).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown chaos profile '" + name.trim() + "'; known: all, " + names()));
            profiles.add(profile);
        }
        return profiles;
    }

    public static String names() {
        return Arrays.stream(values()).map(ChaosProfile::cliName).collect(Collectors.joining(", "));
    }
}
