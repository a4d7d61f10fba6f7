package batchpipe.local.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code report}'s subcommands and the spellings from before them: an old spelling parses as its subcommand
 * with the same values, and options that do not go together are usage errors, one line and exit 2, before
 * any client is made.
 */
class ReportSpellingsTest {
    @Test
    void eachOldSpelling_parsesAsItsSubcommand_withTheSameValues() {
        List<List<String[]>> sameCommands = List.of(
                List.of(new String[] {"report", "r1"}, new String[] {"report", "show", "r1"}),
                List.of(new String[] {"report", "r1", "--json", "--out", "x", "--stack", "s"},
                        new String[] {"report", "show", "--json", "r1", "--stack=s", "--out", "x"}),
                List.of(new String[] {"report", "--out", "x", "r1", "--recompute", "--report-lines", "none", "--table", "t"},
                        new String[] {"report", "recompute", "r1", "--out", "x", "--report-lines", "none", "--table", "t"}),
                List.of(new String[] {"report", "--compare", "a", "b", "--out", "x"}, new String[] {"report", "compare", "a", "b", "--out", "x"}),
                List.of(new String[] {"report", "--history", "--label", "nightly", "--last", "3", "--from", "out"},
                        new String[] {"report", "history", "--last", "3", "--label", "nightly", "--from", "out"}));
        for (List<String[]> same : sameCommands) {
            Parsed old = parse(same.get(0));
            Parsed now = parse(same.get(1));

            assertThat(old.subcommand()).as(String.join(" ", same.get(0))).isEqualTo(now.subcommand());
            assertThat(old.values()).as(String.join(" ", same.get(0))).isEqualTo(now.values()).isNotEmpty();
        }
    }

    @Test
    void aRunIdNamedLikeAnOption_isARunId() {
        Parsed parsed = parse("report", "last", "--json");

        assertThat(parsed.subcommand()).isEqualTo("show");
        assertThat(parsed.values()).containsEntry("RUN_ID", "last").containsEntry("--json", "true");
    }

    @Test
    void optionsThatDoNotGoTogether_areOneLineUsageErrorsBeforeAnyClient() {
        Map<List<String>, String> refused = Map.ofEntries(
                Map.entry(List.of("report", "compare", "a"), "RUN"),
                Map.entry(List.of("report", "--compare", "a"), "RUN"),
                Map.entry(List.of("report", "show", "r1", "--recompute"), "Unknown option: '--recompute'"),
                Map.entry(List.of("report", "history", "r1"), "'r1'"),
                Map.entry(List.of("report", "show", "r1", "--stack", "s", "--table", "t"), "mutually exclusive"),
                Map.entry(List.of("report", "recompute", "r1", "--reports", "s3://b/p/"), "Unknown options: '--reports'"),
                Map.entry(List.of("report", "history", "--from", "out", "--reports", "s3://b/p/"), "mutually exclusive"),
                Map.entry(List.of("report", "r1", "--history"), "--history reads every stored run: give no RUN_ID and no --compare"),
                Map.entry(List.of("report", "r1", "--compare", "a", "b"), "give either a RUN_ID or --compare <runA> <runB>"),
                Map.entry(List.of("report", "--json"), "give either a RUN_ID or --compare <runA> <runB>"),
                Map.entry(List.of("report", "--compare", "a", "b", "--json"), "--json is for a RUN_ID, not --compare"),
                Map.entry(List.of("report", "--compare", "a", "b", "--recompute"), "--recompute is for a RUN_ID, not --compare"),
                Map.entry(List.of("report", "r1", "--recompute", "--reports", "s3://b/p/"), "--reports is not used by --recompute"),
                Map.entry(List.of("report", "--history", "--recompute"), "--recompute is not used by --history"),
                Map.entry(List.of("report", "r1", "--from", "out"), "--from shapes a history only: add --history"),
                Map.entry(List.of("report", "r1", "--jsn"), "did you mean --json?"),
                Map.entry(List.of("report"), "give a RUN_ID or a subcommand: show, recompute, compare or history"));
        refused.forEach((args, because) -> {
            InProcessCli.Result result = InProcessCli.run(InProcessCli.reportClients(none("DynamoDB"), none("S3")), args.toArray(String[]::new));

            assertThat(result.exitCode()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(result.err()).as(String.join(" ", args)).hasLineCount(1).startsWith("batchpipe: ").contains(because);
        });
    }

    @Test
    void helpOfAnOldSpelling_isItsSubcommandsHelp() {
        InProcessCli.Result result = InProcessCli.run("report", "r1", "--recompute", "--help");

        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("Usage: batchpipe report recompute").contains("--report-lines");
    }

    private record Parsed(String subcommand, Map<String, String> values) {
    }

    /** Which report subcommand the arguments reach, and the value of each option and parameter they give. */
    private static Parsed parse(String... args) {
        CommandLine.ParseResult report = BatchpipeCli.commandLine().parseArgs(args).subcommand();
        CommandLine.ParseResult subcommand = report.subcommand();
        Map<String, String> values = new TreeMap<>();
        for (CommandLine.Model.ArgSpec arg : subcommand.matchedArgs()) {
            String name = arg instanceof CommandLine.Model.OptionSpec option ? option.longestName() : arg.paramLabel();
            values.put(name, String.valueOf((Object) arg.getValue()));
        }
        return new Parsed(subcommand.commandSpec().name(), values);
    }

    private static <T> Supplier<T> none(String what) {
        return () -> {
            throw new AssertionError("no " + what + " client may be made");
        };
    }
}
