package batchpipe.local.cli;

import batchpipe.common.aws.AwsClients;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.Stack;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * {@code report}: four commands, one per way of reporting, each with only its own options, so that
 * picocli itself refuses options that do not go together. The spellings from before the subcommands
 * ({@code report RUN_ID}, {@code report RUN_ID --recompute}, {@code report --compare A B},
 * {@code report --history}), which README and docs/ use, are rewritten onto them by {@link OldSpellings}.
 */
@Command(name = "report", mixinStandardHelpOptions = true, preprocessor = ReportCommand.OldSpellings.class,
        subcommands = {ReportShowCommand.class, ReportRecomputeCommand.class, ReportCompareCommand.class, ReportHistoryCommand.class},
        description = {"Shows a run's stored report, rebuilds it, compares two runs or shows the history of the stored runs.",
                "`report show RUN_ID` (or `report RUN_ID`) reads and never writes the table; `report recompute RUN_ID` (or `report "
                    + "RUN_ID --recompute`) rebuilds the report from the run's records in the table into out/<RUN_ID>/recomputed; "
                    + "`report compare A B` (or `report --compare A B`) writes compare.md and compare.html; `report history` (or "
                    + "`report --history`) writes history.md and history.html with regressions flagged. A run id named like a "
                    + "subcommand is shown with `report show`. Each subcommand's --help lists its options."},
        footer = {"", "Formulas: docs/COST.md."})
final class ReportCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandSpec spec;

    final Supplier<DynamoDbClient> dynamoDbClients;
    final Supplier<S3Client> s3Clients;

    ReportCommand() {
        this(AwsClients::dynamoDb, AwsClients::s3);
    }

    /** With the clients a test gives; the subcommands ask for each only when they need it, and close it after. */
    ReportCommand(Supplier<DynamoDbClient> dynamoDbClients, Supplier<S3Client> s3Clients) {
        this.dynamoDbClients = dynamoDbClients;
        this.s3Clients = s3Clients;
    }

    /** {@code report} with no arguments: nothing says which report. */
    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "give a RUN_ID or a subcommand: show, recompute, compare or history");
    }

    /**
     * The spellings from before the subcommands, rewritten onto them before picocli parses the arguments:
     * {@code report RUN_ID ...} is {@code report show RUN_ID ...}, {@code report RUN_ID --recompute ...} is
     * {@code report recompute RUN_ID ...}, {@code report --compare A B ...} is {@code report compare A B ...}
     * and {@code report --history ...} is {@code report history ...}, the other arguments as they were.
     * Rewritten (as a command preprocessor picocli calls when it reaches {@code report}), not parsed as
     * options of {@code report}: picocli would take a RUN_ID beside subcommands, but then every option of
     * every subcommand would belong to {@code report} too, and the checks of which go together would be
     * hand-written again. Arguments that start with a subcommand's name or a help option go to picocli as
     * they are. An option given with an old spelling it does not belong to gets the error it always got,
     * naming the flag that takes it; which subcommand takes an option is read from the subcommands' own
     * options, not listed here.
     */
    static final class OldSpellings implements CommandLine.IParameterPreprocessor {
        /** The old flags and the subcommand each stands for. */
        private static final Map<String, String> FLAGS = Map.of("--recompute", "recompute", "--compare", "compare", "--history", "history");

        @Override
        public boolean preprocess(Stack<String> args, CommandSpec report, ArgSpec argSpec, Map<String, Object> info) {
            if (args.isEmpty() || report.subcommands().containsKey(args.peek()) || report.optionsMap().containsKey(args.peek())) return false;
            List<String> given = new ArrayList<>();
            while (!args.isEmpty()) given.add(args.pop()); // the top of the stack is the next argument
            List<String> rewritten = onSubcommands(report, given);
            for (int i = rewritten.size() - 1; i >= 0; i--) args.push(rewritten.get(i));
            return false; // picocli parses what is on the stack now
        }

        /** {@code given}, the arguments after {@code report}, as a subcommand's; a usage error where they cannot be one. */
        static List<String> onSubcommands(CommandSpec report, List<String> given) {
            List<String> rest = new ArrayList<>();
            Set<String> flags = new LinkedHashSet<>();
            List<String> options = new ArrayList<>();
            int runIds = 0;
            boolean unknownOption = false;
            for (int i = 0; i < given.size(); i++) {
                String arg = given.get(i);
                if (arg.equals("--")) { // the end of options: all that follows is a RUN_ID
                    runIds += given.size() - i - 1;
                    rest.addAll(given.subList(i, given.size()));
                    break;
                }
                String name = arg.startsWith("-") && arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
                if (FLAGS.containsKey(name)) {
                    flags.add(name);
                    if (name.equals("--compare")) { // its two runs become compare's
                        for (int n = 0; n < 2 && i + 1 < given.size() && !resemblesOption(given.get(i + 1)); n++) rest.add(given.get(++i));
                    }
                    continue;
                }
                rest.add(arg);
                if (!resemblesOption(arg)) { // not looked up: picocli would find --last for a run id named "last"
                    runIds++;
                    continue;
                }
                OptionSpec option = optionOfASubcommand(report, name);
                if (option == null) {
                    unknownOption = true;
                    continue;
                }
                options.add(name);
                for (int n = 0; !arg.contains("=") && n < option.arity().min() && i + 1 < given.size(); n++) rest.add(given.get(++i));
            }
            String subcommand = flags.contains("--history") ? "history" : flags.contains("--compare") ? "compare"
                    : flags.contains("--recompute") ? "recompute" : "show";
            if (subcommand.equals("show") && runIds == 0 && unknownOption) throw mistyped(report, given);
            if (subcommand.equals("history")) {
                if (runIds > 0 || flags.contains("--compare")) {
                    throw usage(report, "--history reads every stored run: give no RUN_ID and no --compare");
                }
            } else if ((runIds > 0) == subcommand.equals("compare")) {
                throw usage(report, "give either a RUN_ID or --compare <runA> <runB>");
            }
            CommandSpec target = report.subcommands().get(subcommand).getCommandSpec();
            List<String> misplaced = new ArrayList<>();
            for (String flag : flags) if (!FLAGS.get(flag).equals(subcommand)) misplaced.add(flag);
            for (String option : options) if (target.findOption(option) == null) misplaced.add(option);
            for (String option : misplaced) throw usage(report, misplaced(report, subcommand, option));
            List<String> rewritten = new ArrayList<>();
            rewritten.add(subcommand);
            rewritten.addAll(rest);
            return rewritten;
        }

        /** Why {@code option} does not go with the old spelling of {@code subcommand}: the errors these spellings always gave. */
        private static String misplaced(CommandSpec report, String subcommand, String option) {
            if (subcommand.equals("history")) {
                return option + " is not used by --history (it reads the stored report.json files; --reports s3://bucket/prefix/ or --stack NAME"
                        + " for a stack's)";
            }
            List<String> takenBy = report.subcommands().values().stream().filter(c -> c.getCommandSpec().findOption(option) != null)
                    .map(CommandLine::getCommandName).toList();
            boolean historyOnly = takenBy.equals(List.of("history"));
            if (historyOnly) return option + " shapes a history only: add --history";
            if (subcommand.equals("compare")) return option + " is for a RUN_ID, not --compare";
            if (subcommand.equals("show")) {
                return option + " shapes a recomputed report only: add --recompute (without it the stored report is shown as it is)";
            }
            return option + " is not used by --recompute (it rebuilds the report from the run's records in the table)";
        }

        private static OptionSpec optionOfASubcommand(CommandSpec report, String name) {
            for (CommandLine subcommand : report.subcommands().values()) {
                OptionSpec option = subcommand.getCommandSpec().findOption(name);
                if (option != null) return option;
            }
            return null;
        }

        private static boolean resemblesOption(String arg) {
            return arg.startsWith("-") && arg.length() > 1;
        }

        /**
         * A mistyped option where no RUN_ID says which subcommand is meant ({@code report --histroy}): picocli
         * would look for close names among {@code report}'s own options, which are only help's, so the close
         * ones are looked for here among the old flags and every subcommand's options.
         */
        private static CommandLine.ParameterException mistyped(CommandSpec report, List<String> given) {
            String unknown = given.stream().filter(OldSpellings::resemblesOption)
                    .map(arg -> arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg)
                    .filter(name -> !FLAGS.containsKey(name) && optionOfASubcommand(report, name) == null).findFirst().orElseThrow();
            Set<String> names = new TreeSet<>(FLAGS.keySet());
            for (CommandLine sub : report.subcommands().values()) {
                for (OptionSpec option : sub.getCommandSpec().options()) names.add(option.longestName());
            }
            List<String> close = names.stream().filter(name -> editDistance(unknown, name) <= Math.max(1, unknown.length() / 4))
                    .sorted(java.util.Comparator.comparingInt((String name) -> editDistance(unknown, name))).limit(3).toList();
            return usage(report, "Unknown option: '" + unknown + "'" + (close.isEmpty() ? "" : "; did you mean " + String.join(" or ", close) + "?"));
        }

        /** Levenshtein distance: the fewest single-character insertions, deletions and substitutions from a to b. */
        static int editDistance(String a, String b) {
            int[] previous = new int[b.length() + 1];
            int[] current = new int[b.length() + 1];
            for (int j = 0; j <= b.length(); j++) previous[j] = j;
            for (int i = 1; i <= a.length(); i++) {
                current[0] = i;
                for (int j = 1; j <= b.length(); j++) {
                    int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                    current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
                }
                int[] swap = previous;
                previous = current;
                current = swap;
            }
            return previous[b.length()];
        }

        private static CommandLine.ParameterException usage(CommandSpec report, String message) {
            return new CommandLine.ParameterException(report.commandLine(), message);
        }
    }
}
