package batchpipe.local.run;

import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Where the CLI's AWS calls go, resolved once as the AWS CLI resolves it, so that {@code batchpipe run --stack}
 * finds the stack {@code aws cloudformation describe-stacks} finds: the region from {@code --region}, else
 * {@code AWS_REGION}, else {@code AWS_DEFAULT_REGION} (which the SDK for Java ignores), else the profile's
 * {@code region} in the config file; the profile from {@code --profile}, else {@code AWS_PROFILE}, else
 * {@code default}.
 *
 * @param regionSource  where the region came from: "--region", "AWS_REGION", "AWS_DEFAULT_REGION" or "profile NAME"
 * @param profileSource where the profile came from: "--profile", "AWS_PROFILE", or null for the default one
 */
public record AwsTarget(Region region, String regionSource, String profile, String profileSource) {
    /** What a region's name looks like: eu-west-1, us-gov-west-1, cn-north-1, ap-southeast-5. */
    private static final Pattern REGION_NAME = Pattern.compile("[a-z]{2}(-[a-z0-9]+)+-\\d+");

    /**
     * @param regionFlag  --region, or null
     * @param profileFlag --profile, or null
     * @param profiles    the config and credentials files (read only when a profile is named or holds the region)
     * @throws IllegalArgumentException naming the input when a region is malformed, a named profile does not
     *                                  exist, or no region is set anywhere, with the ways to set one
     */
    public static AwsTarget resolve(String regionFlag, String profileFlag, Map<String, String> env, Supplier<ProfileFile> profiles) {
        Map<String, String> profileChoices = new LinkedHashMap<>();
        profileChoices.put("--profile", profileFlag);
        profileChoices.put("AWS_PROFILE", env.get("AWS_PROFILE"));
        Optional<Map.Entry<String, String>> named = firstSet(profileChoices);
        String profile = named.map(Map.Entry::getValue).orElse("default");
        String profileSource = named.map(Map.Entry::getKey).orElse(null);
        ProfileFile files = null;
        if (profileSource != null) {
            files = profiles.get();
            if (files.profile(profile).isEmpty()) {
                throw new IllegalArgumentException(profileSource + " names profile '" + profile + "', which is in neither ~/.aws/config nor"
                        + " ~/.aws/credentials (profiles there: " + String.join(", ", files.profiles().keySet().stream().sorted().toList()) + ")");
            }
        }
        Map<String, String> regionChoices = new LinkedHashMap<>();
        regionChoices.put("--region", regionFlag);
        regionChoices.put("AWS_REGION", env.get("AWS_REGION"));
        regionChoices.put("AWS_DEFAULT_REGION", env.get("AWS_DEFAULT_REGION"));
        regionChoices.put("profile " + profile, null);
        if (firstSet(regionChoices).isEmpty()) {
            // Only now the files: a region given otherwise needs none of them.
            ProfileFile read = files != null ? files : profiles.get();
            regionChoices.put("profile " + profile, read.profile(profile).flatMap(p -> p.property("region")).orElse(null));
        }
        Map.Entry<String, String> region = firstSet(regionChoices).orElseThrow(() -> new IllegalArgumentException("no AWS region: pass --region,"
                + " set AWS_REGION or AWS_DEFAULT_REGION, or set one for profile '" + profile + "' (aws configure set region eu-west-1"
                + (profileSource == null ? "" : " --profile " + profile) + ")"));
        if (!REGION_NAME.matcher(region.getValue()).matches()) {
            throw new IllegalArgumentException("the region from " + region.getKey() + " is '" + region.getValue()
                    + "', not a region name like eu-west-1");
        }
        return new AwsTarget(Region.of(region.getValue()), region.getKey(), profile, profileSource);
    }

    /** The first choice (its source and value, trimmed) that is set, in the order given: the order of precedence. */
    private static Optional<Map.Entry<String, String>> firstSet(Map<String, String> choices) {
        return choices.entrySet().stream().filter(c -> isSet(c.getValue())).findFirst().map(c -> Map.entry(c.getKey(), c.getValue().trim()));
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }

    /**
     * The credentials: a profile named with --profile is used alone, as the AWS CLI does (not the
     * environment's keys); otherwise the SDK's default chain (environment, AWS_PROFILE or default profile,
     * container, instance role).
     */
    public AwsCredentialsProvider credentials() {
        return "--profile".equals(profileSource) ? ProfileCredentialsProvider.builder().profileName(profile).build()
                : DefaultCredentialsProvider.builder().build();
    }

    /** "region eu-west-1 (from AWS_DEFAULT_REGION), profile work (from --profile)", for messages. */
    public String describe() {
        return "region " + region.id() + " (from " + regionSource + "), profile " + profile
                + (profileSource == null ? "" : " (from " + profileSource + ")");
    }
}
