package batchpipe.bench;

import batchpipe.local.cli.BatchpipeCli;
import batchpipe.local.stack.ProjectHome;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every {@code ./batchpipe ...} command line README.md shows (in its code blocks, its command table and its
 * text) is one its command line parses as written: an option renamed, a spelling dropped or options that no
 * longer go together fail here rather than in a reader's shell. Parsed, not run: picocli's syntax and what a
 * command checks while parsing (report's old spellings), not what it checks once it runs. The table's
 * synopses are expanded: placeholders get sample values, and each [optional part] and each alternative of
 * a|b is tried; text that only names a command ({@code ./batchpipe sweep}) must name one. Here, in the
 * bench module, because it is the one module that sees both command lines the script runs: the CLI's and
 * bench's; {@code test} the script runs itself.
 */
class ReadmeCommandLinesTest {
    /** What a placeholder of README's synopses stands for: a value its option takes. */
    private static final Map<String, String> SAMPLES = Map.ofEntries(Map.entry("N", "2"), Map.entry("C", "4"), Map.entry("W", "1"),
            Map.entry("S", "7"), Map.entry("R", "0.1"), Map.entry("L", "nightly"), Map.entry("P%", "20%"), Map.entry("T", "ERROR"),
            Map.entry("P", "level"), Map.entry("V", "ERROR"), Map.entry("ID", "hash-000001"), Map.entry("A", "run-a"), Map.entry("B", "run-b"),
            Map.entry("DIR", "out/readme-check"), Map.entry("FILE", "events/worker-scan.json"), Map.entry("<file>", "events/worker-scan.json"),
            Map.entry("NAME", "batchpipe"), Map.entry("<runId>", "readme-run"), Map.entry("RUN_ID", "readme-run"),
            Map.entry("<LogicalId>", "WorkerFunction"), Map.entry("DURATION", "2s"), Map.entry("SECONDS", "60"), Map.entry("PARTS", "scan"),
            Map.entry("SHAPES", "short"));

    /** The commands README shows mistyped on purpose, to show the suggestion a typo gets. */
    private static final Set<String> MISTYPED = Set.of("nvoke");

    private static final Pattern SPAN = Pattern.compile("`([^`]+)`");

    @Test
    void everyCommandLineInTheReadme_parsesAsWritten() throws IOException {
        List<String> refused = new ArrayList<>();
        int parsed = 0;
        Set<String> commands = new LinkedHashSet<>(BatchpipeCli.commandLine().getSubcommands().keySet());
        commands.add("bench");
        for (String line : commandLines(readme())) {
            List<String> words = List.of(line.split("\\s+"));
            if (MISTYPED.contains(words.get(0)) || words.get(0).equals("test")) continue;
            if (words.size() == 1) { // the text naming a command, as in "`./batchpipe sweep` answers...": it must be one
                if (!commands.contains(words.get(0))) refused.add("./batchpipe " + line + "\n    names no command");
                continue;
            }
            for (List<String> args : variants(line)) {
                try {
                    if (args.get(0).equals("bench")) new CommandLine(new BenchCommand()).parseArgs(args.subList(1, args.size()).toArray(String[]::new));
                    else BatchpipeCli.commandLine().parseArgs(args.toArray(String[]::new));
                    parsed++;
                } catch (CommandLine.ParameterException e) {
                    refused.add("./batchpipe " + line + "\n    as " + String.join(" ", args) + "\n    " + e.getMessage());
                }
            }
        }
        assertThat(refused).as("README command lines picocli refuses").isEmpty();
        assertThat(parsed).isGreaterThan(40);
    }

    @Test
    void theReadmeShowsEveryCommand_andTheReportSpellingsItHasAlwaysShown() throws IOException {
        List<String> lines = commandLines(readme());
        Set<String> commands = new LinkedHashSet<>();
        for (String line : lines) commands.add(line.split("\\s+")[0]);

        Set<String> cliCommands = new LinkedHashSet<>(BatchpipeCli.commandLine().getSubcommands().keySet());
        cliCommands.remove("help");
        assertThat(commands).containsAll(cliCommands).contains("bench", "test");
        assertThat(lines).contains("report <runId>", "report --compare A B", "report --history", "report RUN_ID",
                "report --history --label history-acceptance");
        assertThat(lines).anyMatch(l -> l.startsWith("report <runId> ") && l.contains("[--recompute]"));
    }

    /** `test` is no picocli command: the script runs Maven itself for it, as README says. */
    @Test
    void test_isTheScriptsOwnCommand() throws IOException {
        assertThat(Files.readString(ProjectHome.find().resolve("batchpipe"))).containsPattern("(?m)^\\s*test\\)");
    }

    @Test
    void theMistypedCommandReadmeShows_isRefusedWithTheSuggestionItPromises() {
        assertThat(MISTYPED).allSatisfy(typo -> assertThatThrownBy(() -> BatchpipeCli.commandLine().parseArgs(typo))
                .isInstanceOfSatisfying(CommandLine.UnmatchedArgumentException.class,
                        e -> assertThat(e.getSuggestions()).contains("invoke")));
    }

    @Test
    void commandLines_takesCodeBlocksSpansAndTheTablesFirstCellWithoutShellSyntax() {
        String readme = """
                Run `./batchpipe demo --verbose` or `./batchpipe invoke WorkerFunction -e - <
                events/worker-scan.json`, `BATCHPIPE_LOAD_TESTS=1 ./batchpipe test`.

                | `./batchpipe report <runId> [--json]` / `report --compare A B` | not `--json` here |

                ```bash
                ./batchpipe run --spec x.json --wait    # five times
                echo nothing
                ```
                """;

        assertThat(commandLines(readme)).containsExactlyInAnyOrder("run --spec x.json --wait", "demo --verbose", "invoke WorkerFunction -e -",
                "test", "report <runId> [--json]", "report --compare A B");
    }

    @Test
    void variants_tryEveryOptionalPartAndEveryAlternative_withSampleValues() {
        assertThat(variants("report --history [--from DIR | --stack NAME] [--out DIR]")).containsExactlyInAnyOrder(
                List.of("report", "--history", "--from", "out/readme-check", "--out", "out/readme-check"),
                List.of("report", "--history", "--stack", "batchpipe", "--out", "out/readme-check"),
                List.of("report", "--history"));
        assertThat(variants("scan FILE|s3://bucket/key... [--strategy cost|speed]")).containsExactlyInAnyOrder(
                List.of("scan", "events/worker-scan.json", "--strategy", "cost"), List.of("scan", "s3://bucket/key", "--strategy", "speed"),
                List.of("scan", "events/worker-scan.json"));
    }

    private static String readme() throws IOException {
        return Files.readString(ProjectHome.find().resolve("README.md"));
    }

    /**
     * What follows {@code ./batchpipe} on each command line README shows: the lines of its code blocks
     * (without comments and shell redirections), its inline code spans, and in its command table every span
     * of a row's first cell (a second spelling there may leave out {@code ./batchpipe}).
     */
    static List<String> commandLines(String readme) {
        Set<String> lines = new LinkedHashSet<>();
        StringBuilder prose = new StringBuilder();
        boolean inBlock = false;
        for (String line : readme.split("\n", -1)) {
            if (line.strip().startsWith("```")) {
                inBlock = !inBlock;
                prose.append('\n');
                continue;
            }
            if (inBlock) {
                int at = line.indexOf("./batchpipe ");
                if (at >= 0) lines.add(command(line.substring(at).replaceAll("\\s#.*$", "")));
                prose.append('\n');
                continue;
            }
            if (line.startsWith("|")) {
                String firstCell = line.substring(1).split("(?<!\\\\)\\|", 2)[0];
                if (firstCell.contains("`./batchpipe ")) {
                    Matcher span = SPAN.matcher(firstCell);
                    while (span.find()) lines.add(command(span.group(1).startsWith("./batchpipe ") ? span.group(1) : "./batchpipe " + span.group(1)));
                    prose.append('\n');
                    continue;
                }
            }
            prose.append(line).append('\n');
        }
        Matcher span = SPAN.matcher(prose);
        while (span.find()) {
            String code = span.group(1).replaceAll("\\s+", " ");
            int at = code.indexOf("./batchpipe ");
            if (at >= 0) lines.add(command(code.substring(at)));
        }
        return new ArrayList<>(lines);
    }

    /** The arguments of a shell line that runs ./batchpipe: up to a redirection, escaped table pipes unescaped. */
    private static String command(String shellLine) {
        String line = shellLine.substring("./batchpipe ".length()).replace("\\|", "|");
        line = line.replaceAll("\\s[<>](\\s.*)?$", ""); // a redirection, not a <placeholder>
        return line.strip().replaceAll("\\s+", " ");
    }

    /**
     * The argument lists a synopsis stands for: every optional part with the first alternative of each
     * choice, then with the second, and so on; and none of the optional parts. Placeholders become
     * {@link #SAMPLES}; a trailing "..." (more of the same) is dropped.
     */
    static List<List<String>> variants(String synopsis) {
        List<Object> parsed = parse(tokens(synopsis), new int[] {0});
        Set<List<String>> variants = new LinkedHashSet<>();
        int choices = Math.max(1, widestChoice(parsed));
        for (int k = 0; k < choices; k++) {
            List<String> args = new ArrayList<>();
            expand(parsed, k, true, args);
            variants.add(args);
        }
        List<String> required = new ArrayList<>();
        expand(parsed, 0, false, required);
        variants.add(required);
        return new ArrayList<>(variants);
    }

    private static List<String> tokens(String synopsis) {
        List<String> tokens = new ArrayList<>();
        for (String word : synopsis.replace("[", " [ ").replace("]", " ] ").strip().split("\\s+")) {
            if (!word.isEmpty()) tokens.add(word);
        }
        return tokens;
    }

    /** A sequence: words (a String, or a Choice of words for a|b), optional parts (OptionalPart) and choices of sequences (Choice). */
    private static List<Object> parse(List<String> tokens, int[] at) {
        List<List<Object>> alternatives = new ArrayList<>();
        List<Object> sequence = new ArrayList<>();
        while (at[0] < tokens.size()) {
            String token = tokens.get(at[0]++);
            switch (token) {
                case "[" -> sequence.add(new OptionalPart(parse(tokens, at)));
                case "]" -> {
                    alternatives.add(sequence);
                    return alternatives.size() == 1 ? sequence : List.of(new Choice(List.copyOf(alternatives)));
                }
                case "|" -> {
                    alternatives.add(sequence);
                    sequence = new ArrayList<>();
                }
                default -> sequence.add(token.contains("|") && token.length() > 1
                        ? new Choice(Arrays.stream(token.split("\\|")).map(w -> List.<Object>of(w)).toList()) : token);
            }
        }
        alternatives.add(sequence);
        return alternatives.size() == 1 ? sequence : List.of(new Choice(List.copyOf(alternatives)));
    }

    private record OptionalPart(List<Object> parts) {
    }

    private record Choice(List<List<Object>> alternatives) {
    }

    private static int widestChoice(List<Object> parts) {
        int widest = 0;
        for (Object part : parts) {
            if (part instanceof OptionalPart optional) widest = Math.max(widest, widestChoice(optional.parts()));
            if (part instanceof Choice choice) {
                widest = Math.max(widest, choice.alternatives().size());
                for (List<Object> alternative : choice.alternatives()) widest = Math.max(widest, widestChoice(alternative));
            }
        }
        return widest;
    }

    private static void expand(List<Object> parts, int k, boolean optionals, List<String> args) {
        for (Object part : parts) {
            if (part instanceof OptionalPart optional) {
                if (optionals) expand(optional.parts(), k, true, args);
            } else if (part instanceof Choice choice) {
                expand(choice.alternatives().get(Math.min(k, choice.alternatives().size() - 1)), k, optionals, args);
            } else {
                String word = ((String) part).endsWith("...") ? ((String) part).substring(0, ((String) part).length() - 3) : (String) part;
                args.add(SAMPLES.getOrDefault(word, word));
            }
        }
    }
}
