package batchpipe.local.cli;

import batchpipe.local.run.DeployedStack;
import batchpipe.local.run.StackClients;
import batchpipe.local.stack.LocalStack;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The two stack names, as SAM users read them: {@code --stack} (or its alias {@code --stack-name}, as
 * in {@code sam deploy}) names a deployed stack; {@code --local-stack-name} names the local one
 * ({@code local up}'s resources are {@code <name>-<LogicalId>}). Before, {@code --stack-name} was the
 * local name; where that old use is recognisable the commands say which flag to use now.
 */
final class StackNames {
    private StackNames() {
    }

    /** For commands that work on the local stack only: --stack / --stack-name are refused with the flag to use. */
    static final class LocalOnly {
        @Option(names = {"--stack", "--stack-name"}, paramLabel = "NAME", hidden = true)
        String deployedStack;

        void check(CommandSpec spec) {
            if (deployedStack == null) return;
            throw new CommandLine.ParameterException(spec.commandLine(), "`" + spec.qualifiedName() + "` works on the local stack"
                    + " only; --stack and --stack-name name a deployed stack (as in SAM): for the local stack's name use"
                    + " --local-stack-name " + deployedStack);
        }
    }

    /**
     * {@code failure} looking up the deployed stack {@code name}, or, when it reads like the old local use of
     * --stack-name (that flag was typed, and the AWS_ENDPOINT_URL_* variables point at a local stack), a
     * usage error that names the flag to use now.
     */
    static RuntimeException deployedStackNotFound(CommandSpec spec, String name, RuntimeException failure) {
        return deployedStackNotFound(spec, name, failure, System.getenv());
    }

    /**
     * {@link #deployedStackNotFound(CommandSpec, String, RuntimeException)} for a stack looked up with
     * {@code clients}: a stack not found (or not readable) is named with the region, profile and account it
     * was looked for in, since the usual cause is another region or account.
     */
    static RuntimeException deployedStackNotFound(CommandSpec spec, String name, RuntimeException failure, StackClients clients) {
        RuntimeException located = !(failure instanceof DeployedStack.StackLookupException) ? failure
                : new IllegalArgumentException(failure.getMessage() + " (looked in " + clients.where()
                        + "; --region and --profile look elsewhere)", failure);
        return deployedStackNotFound(spec, name, located, System.getenv());
    }

    /** {@link #deployedStackNotFound(CommandSpec, String, RuntimeException)} in the environment {@code env}. */
    static RuntimeException deployedStackNotFound(CommandSpec spec, String name, RuntimeException failure, java.util.Map<String, String> env) {
        boolean typedStackName = spec.commandLine().getParseResult().originalArgs().stream()
                .anyMatch(a -> a.equals("--stack-name") || a.startsWith("--stack-name="));
        if (!typedStackName || !LocalStack.endpointsConfigured(env)) return failure;
        return new CommandLine.ParameterException(spec.commandLine(), "no deployed stack '" + name + "' (" + BatchpipeCli.describe(failure)
                + "); --stack-name names a deployed stack, as in SAM: for the local stack that AWS_ENDPOINT_URL_* point at,"
                + " use --local-stack-name " + name);
    }
}
