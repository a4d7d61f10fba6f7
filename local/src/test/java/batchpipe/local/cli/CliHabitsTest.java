package batchpipe.local.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What SAM and picocli users expect of a command line: suggestions, SAM's meaning of --stack-name, help that reads well. */
class CliHabitsTest {
    @Test
    void mistypedCommand_suggestsTheCommand() {
        InProcessCli.Result run = InProcessCli.run("nvoke", "WorkerFunction");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("did you mean invoke?").hasLineCount(1);
    }

    @Test
    void mistypedOldReportFlag_suggestsTheFlag_thoughReportItselfHasNoOptions() {
        InProcessCli.Result run = InProcessCli.run("report", "--histroy", "--last", "3");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("'--histroy'").contains("did you mean --history?").hasLineCount(1);
    }

    @Test
    void mistypedOption_suggestsTheOption() {
        InProcessCli.Result run = InProcessCli.run("invoke", "WorkerFunction", "--evnt", "events/worker-scan.json");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("'--evnt'").contains("did you mean --event?").hasLineCount(1);
    }

    @Test
    void stackName_onALocalOnlyCommand_isRefusedWithTheFlagForTheLocalName() {
        for (String[] args : List.of(new String[]{"invoke", "WorkerFunction", "--stack-name", "mine"},
                new String[]{"local", "up", "--stack-name", "mine"}, new String[]{"demo", "--stack", "mine"})) {
            InProcessCli.Result run = InProcessCli.run(args);

            assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(run.err()).as(String.join(" ", args)).contains("name a deployed stack (as in SAM)")
                    .contains("--local-stack-name mine").hasLineCount(1);
        }
    }

    @Test
    void stackName_isAnAliasOfStack_whereADeployedStackIsMeant() {
        CommandLine cli = BatchpipeCli.commandLine();
        // report's own options are its subcommands': those that read a stack's records or reports
        for (String command : List.of("run", "report show", "report recompute", "report history")) {
            CommandLine.Model.CommandSpec spec = cli.getCommandSpec();
            for (String name : command.split(" ")) spec = spec.subcommands().get(name).getCommandSpec();
            CommandLine.Model.OptionSpec stack = spec.findOption("--stack-name");
            assertThat(stack).as(command + " --stack-name").isNotNull();
            assertThat(stack.names()).as(command).containsExactlyInAnyOrder("--stack", "--stack-name");
            assertThat(spec.findOption("--local-stack-name")).as(command).isNotNull();
        }
    }

    @Test
    void stackName_thatNamesNoDeployedStack_whileLocalEndpointsAreSet_getsAHintToLocalStackName() {
        Map<String, String> local = Map.of("AWS_ENDPOINT_URL_SQS", "http://127.0.0.1:9324", "AWS_ENDPOINT_URL_S3", "http://127.0.0.1:9000",
                "AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:8000");
        IllegalArgumentException notFound = new IllegalArgumentException("stack 'mine' not found or not readable: Stack with id mine does not exist");

        RuntimeException oldUse = StackNames.deployedStackNotFound(parsed("report", "r1", "--stack-name", "mine"), "mine", notFound, local);
        assertThat(oldUse).isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("no deployed stack 'mine'")
                .hasMessageContaining("use --local-stack-name mine");

        // --stack was always the deployed one, and without local endpoints nothing suggests the old use: the failure as it is.
        assertThat(StackNames.deployedStackNotFound(parsed("report", "r1", "--stack", "mine"), "mine", notFound, local)).isSameAs(notFound);
        assertThat(StackNames.deployedStackNotFound(parsed("run", "--spec", "s.json", "--stack-name", "mine"), "mine", notFound, Map.of()))
                .isSameAs(notFound);
    }

    private static CommandLine.Model.CommandSpec parsed(String... args) {
        CommandLine cli = BatchpipeCli.commandLine();
        CommandLine.ParseResult result = cli.parseArgs(args);
        return result.subcommand().commandSpec();
    }

    @Test
    void invoke_aFunctionWhoseConditionIsFalse_saysWhichConditionAndHowToTurnItOn() {
        InProcessCli.Result run = InProcessCli.run("invoke", "WorkerTwinFunction");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("WorkerTwinFunction is not created").contains("Condition CompareArchitectures is false")
                .contains("CompareArchitectures=true").hasLineCount(1);
    }

    @Test
    void invoke_eventFromAnEmptyStandardInput_isAOneLineError() {
        InputStream original = System.in;
        try {
            System.setIn(new ByteArrayInputStream(new byte[0]));
            InProcessCli.Result run = InProcessCli.run("invoke", "WorkerFunction", "-e", "-");

            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.err()).contains("--event -: standard input was empty").hasLineCount(1);
        } finally {
            System.setIn(original);
        }
    }

    /**
     * Each description line picocli prints as given: a command's first line (its summary in the command
     * list) is a whole sentence, and no line breaks off a sentence at a comma or colon.
     */
    @Test
    void everyCommandsDescription_isWholeSentences() {
        List<String> problems = new ArrayList<>();
        collect(BatchpipeCli.commandLine(), problems);
        assertThat(problems).isEmpty();
    }

    private static void collect(CommandLine cli, List<String> problems) {
        String[] description = cli.getCommandSpec().usageMessage().description();
        String name = cli.getCommandSpec().qualifiedName();
        if (description.length > 0 && !description[0].strip().endsWith(".")) problems.add(name + " summary: " + description[0]);
        for (String line : description) {
            if (line.strip().endsWith(",") || line.strip().endsWith(":")) problems.add(name + " line: " + line);
        }
        for (CommandLine.Model.OptionSpec option : cli.getCommandSpec().options()) {
            for (String line : option.description()) {
                if (line.strip().endsWith(",") || line.strip().endsWith(":")) problems.add(name + " " + option.longestName() + ": " + line);
            }
        }
        cli.getSubcommands().values().stream().distinct().filter(sub -> sub != cli).forEach(sub -> {
            if (!sub.getCommandName().equals("help")) collect(sub, problems);
        });
    }
}
