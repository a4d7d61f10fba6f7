package batchpipe.local.cli;

import batchpipe.local.run.AwsTarget;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import software.amazon.awssdk.profiles.ProfileFile;

/** {@code --region} and {@code --profile} of the commands that work on a deployed stack, as the AWS CLI has them. */
final class AwsOptions {
    @Option(names = "--region", paramLabel = "REGION",
            description = "With --stack: the stack's AWS region (default: AWS_REGION, then AWS_DEFAULT_REGION, then the profile's region, as the AWS CLI).")
    String region;

    @Option(names = "--profile", paramLabel = "NAME",
            description = "With --stack: the AWS profile whose credentials (and region) to use (default: AWS_PROFILE, then default, as the AWS CLI).")
    String profile;

    /**
     * Where the stack's clients go; a usage error naming the input when the region or profile is wrong or
     * missing, or when they are given without a deployed stack, where they would mean nothing.
     */
    AwsTarget target(CommandSpec spec, String deployedStack) {
        check(spec, deployedStack);
        try {
            return AwsTarget.resolve(region, profile, System.getenv(), ProfileFile::defaultProfileFile);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** Refuses --region and --profile without --stack: the local stack has neither. */
    void check(CommandSpec spec, String deployedStack) {
        if (deployedStack == null && (region != null || profile != null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), (region != null ? "--region" : "--profile")
                    + " applies to a deployed stack: add --stack NAME, or leave it out for the local stack");
        }
    }
}
