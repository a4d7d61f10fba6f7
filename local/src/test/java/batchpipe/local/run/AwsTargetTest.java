package batchpipe.local.run;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Where the CLI's AWS calls go: the AWS CLI's order, flag, AWS_REGION, AWS_DEFAULT_REGION, then the profile. */
class AwsTargetTest {
    /** ~/.aws/config with a default profile in eu-west-1 and a profile "work" in ap-southeast-2. */
    private static final Supplier<ProfileFile> CONFIG = () -> ProfileFile.builder().type(ProfileFile.Type.CONFIGURATION)
            .content(new ByteArrayInputStream("""
                    [default]
                    region = eu-west-1
                    [profile work]
                    region = ap-southeast-2
                    """.getBytes(StandardCharsets.UTF_8))).build();
    private static final Supplier<ProfileFile> NO_FILES = () -> ProfileFile.builder().type(ProfileFile.Type.CONFIGURATION)
            .content(new ByteArrayInputStream(new byte[0])).build();

    @Test
    void theRegionFlag_winsOverEveryVariableAndTheProfile() {
        AwsTarget target = AwsTarget.resolve("us-east-2", null, Map.of("AWS_REGION", "eu-central-1", "AWS_DEFAULT_REGION", "eu-north-1"), CONFIG);
        assertThat(target.region()).isEqualTo(Region.US_EAST_2);
        assertThat(target.regionSource()).isEqualTo("--region");
    }

    @Test
    void awsRegion_winsOverAwsDefaultRegion() {
        AwsTarget target = AwsTarget.resolve(null, null, Map.of("AWS_REGION", "eu-central-1", "AWS_DEFAULT_REGION", "eu-north-1"), CONFIG);
        assertThat(target.region()).isEqualTo(Region.EU_CENTRAL_1);
        assertThat(target.regionSource()).isEqualTo("AWS_REGION");
    }

    @Test
    void awsDefaultRegion_isRead_thoughTheSdkForJavaIgnoresIt() {
        AwsTarget target = AwsTarget.resolve(null, null, Map.of("AWS_DEFAULT_REGION", "eu-north-1"), CONFIG);
        assertThat(target.region()).isEqualTo(Region.EU_NORTH_1);
        assertThat(target.describe()).isEqualTo("region eu-north-1 (from AWS_DEFAULT_REGION), profile default");
    }

    @Test
    void withoutAnyVariable_theProfilesRegionIsUsed_theNamedProfileBeforeAwsProfileBeforeDefault() {
        assertThat(AwsTarget.resolve(null, null, Map.of(), CONFIG).region()).isEqualTo(Region.EU_WEST_1);
        assertThat(AwsTarget.resolve(null, null, Map.of("AWS_PROFILE", "work"), CONFIG).region()).isEqualTo(Region.AP_SOUTHEAST_2);
        AwsTarget named = AwsTarget.resolve(null, "work", Map.of("AWS_PROFILE", "default"), CONFIG);
        assertThat(named.region()).isEqualTo(Region.AP_SOUTHEAST_2);
        assertThat(named.describe()).isEqualTo("region ap-southeast-2 (from profile work), profile work (from --profile)");
    }

    @Test
    void aNamedProfile_isUsedAloneForCredentials_asTheAwsCliDoes_elseTheSdksDefaultChain() {
        assertThat(AwsTarget.resolve(null, "work", Map.of(), CONFIG).credentials()).isInstanceOf(ProfileCredentialsProvider.class);
        assertThat(AwsTarget.resolve(null, null, Map.of("AWS_PROFILE", "work"), CONFIG).credentials()).isInstanceOf(DefaultCredentialsProvider.class);
    }

    @Test
    void noRegionAnywhere_isAnErrorSayingHowToSetOne() {
        assertThatThrownBy(() -> AwsTarget.resolve(null, null, Map.of(), NO_FILES))
                .hasMessage("no AWS region: pass --region, set AWS_REGION or AWS_DEFAULT_REGION, or set one for profile 'default'"
                        + " (aws configure set region eu-west-1)");
    }

    @Test
    void aProfileThatDoesNotExist_isNamedWithTheProfilesThereAre() {
        assertThatThrownBy(() -> AwsTarget.resolve("eu-west-1", "wrok", Map.of(), CONFIG))
                .hasMessage("--profile names profile 'wrok', which is in neither ~/.aws/config nor ~/.aws/credentials (profiles there: default, work)");
        assertThatThrownBy(() -> AwsTarget.resolve(null, null, Map.of("AWS_PROFILE", "wrok"), CONFIG)).hasMessageStartingWith("AWS_PROFILE names profile 'wrok'");
    }

    @Test
    void aMalformedRegion_isNamedWithWhereItCameFrom() {
        assertThatThrownBy(() -> AwsTarget.resolve(null, null, Map.of("AWS_DEFAULT_REGION", "Ireland"), CONFIG))
                .hasMessage("the region from AWS_DEFAULT_REGION is 'Ireland', not a region name like eu-west-1");
    }
}
