package batchpipe.local.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class LazySubcommandsTest {

    @Test
    void aRunOfOneCommandBuildsOnlyThatCommand() {
        CommandLine cli = BatchpipeCli.commandLine(CommandLine.defaultFactory(), new String[] {"scan", "x.jsonl.zst"});
        assertThat(cli.getSubcommands()).containsOnlyKeys("scan");
    }

    @Test
    void helpATypoOrNoCommandBuildsEveryCommandSoHelpAndSuggestionsListThemAll() {
        for (String[] args : new String[][] {{}, {"help"}, {"scna"}, {"--help"}}) {
            CommandLine cli = BatchpipeCli.commandLine(CommandLine.defaultFactory(), args);
            assertThat(cli.getSubcommands().keySet()).as(String.join(" ", args)).containsExactlyElementsOf(BatchpipeCli.SUBCOMMANDS.keySet());
        }
    }

    @Test
    void everyCommandIsRegisteredUnderTheNameItsAnnotationGives() {
        CommandLine all = BatchpipeCli.commandLine();
        all.getSubcommands().forEach((name, command) -> assertThat(command.getCommandName()).isEqualTo(name));
        assertThat(all.getSubcommands()).hasSize(BatchpipeCli.SUBCOMMANDS.size());
    }

    @Test
    void aMistypedCommandStillGetsItsSuggestionAndExitCode2() {
        StringWriter err = new StringWriter();
        String[] args = {"scna"};
        CommandLine cli = BatchpipeCli.commandLine(CommandLine.defaultFactory(), args);
        cli.setErr(new PrintWriter(err, true));
        assertThat(cli.execute(args)).isEqualTo(2);
        assertThat(err.toString()).contains("did you mean scan?");
    }

    @Test
    void aCommandsUsageErrorNamesItsOwnHelp() {
        StringWriter err = new StringWriter();
        String[] args = {"scan", "--workers", "0", "x"};
        CommandLine cli = BatchpipeCli.commandLine(CommandLine.defaultFactory(), args);
        cli.setErr(new PrintWriter(err, true));
        assertThat(cli.execute(args)).isEqualTo(2);
        assertThat(err.toString()).contains("(see: batchpipe scan --help)");
    }
}
