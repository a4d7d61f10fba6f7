package batchpipe.deploy.samconfig;

import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.CloudFormationYaml;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * samconfig.toml against what reads it: each section is a SAM CLI command's, every parameter override
 * names a parameter of template.yaml with a value the template allows, and the local sections point
 * sam local at what `./batchpipe local up --sqs-port 9324 --s3-port 9000 --dynamodb-port 8000` runs.
 */
class SamConfigTest {
    /** The SAM CLI commands a [env.command.parameters] section may name (sam local invoke = local_invoke). */
    private static final Set<String> COMMANDS = Set.of("global", "build", "validate", "deploy", "package", "delete", "sync",
            "local_invoke", "local_start_lambda", "local_start_api", "logs", "traces", "list_outputs", "list_resources");
    private static final Pattern OVERRIDE = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    private static Map<String, Map<String, Object>> sections;
    private static Map<String, Object> templateParameters;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void load() throws IOException {
        Path home = ProjectHome.find();
        sections = parse(Files.readAllLines(home.resolve("samconfig.toml")));
        templateParameters = (Map<String, Object>) CloudFormationYaml.load(home.resolve("template.yaml")).get("Parameters");
    }

    @Test
    void everySection_isTheParametersOfASamCliCommand() {
        assertThat(sections).isNotEmpty();
        for (String section : sections.keySet()) {
            String[] parts = section.split("\\.");
            assertThat(parts).as("section [%s]", section).hasSize(3);
            assertThat(parts[2]).as("section [%s]", section).isEqualTo("parameters");
            assertThat(COMMANDS).as("command of section [%s]", section).contains(parts[1]);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyParameterOverride_namesATemplateParameterWithAValueItAllows() {
        int checked = 0;
        for (Map.Entry<String, Map<String, Object>> section : sections.entrySet()) {
            Object overrides = section.getValue().get("parameter_overrides");
            if (overrides == null) continue;
            Map<String, String> values = overrides(String.valueOf(overrides));
            assertThat(values).as("[%s] parameter_overrides", section.getKey()).isNotEmpty();
            for (Map.Entry<String, String> value : values.entrySet()) {
                assertThat(templateParameters).as("[%s] overrides %s", section.getKey(), value.getKey()).containsKey(value.getKey());
                Map<String, Object> definition = (Map<String, Object>) templateParameters.get(value.getKey());
                if (definition.get("AllowedValues") instanceof List<?> allowed) {
                    assertThat(allowed.stream().map(String::valueOf).toList()).as("[%s] %s", section.getKey(), value.getKey())
                            .contains(value.getValue());
                }
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(0);
    }

    @Test
    void localInvokeAndStartLambda_pointSamAtTheLocalStackThatLocalUpRuns() {
        for (String command : List.of("local_invoke", "local_start_lambda")) {
            Map<String, Object> p = sections.get("default." + command + ".parameters");
            assertThat(p).as("[default.%s.parameters]", command).isNotNull();
            // `local up` writes this file by default (--env-file).
            assertThat(p).containsEntry("env_vars", "out/local/sam-env.json");
            assertThat(overrides(String.valueOf(p.get("parameter_overrides")))).containsExactlyInAnyOrderEntriesOf(Map.of(
                    "LocalEndpointSqs", "http://host.docker.internal:9324",
                    "LocalEndpointS3", "http://host.docker.internal:9000",
                    "LocalEndpointDynamoDb", "http://host.docker.internal:8000"));
            assertThat(p.get("add_host")).isEqualTo(List.of("host.docker.internal:host-gateway"));
        }
    }

    @Test
    void build_runsOneFunctionAtATimeInTheSourceFolderWithoutCache() {
        for (String env : List.of("default", "prod")) {
            assertThat(sections.get(env + ".build.parameters")).as("[%s.build.parameters]", env)
                    .containsEntry("parallel", false).containsEntry("cached", false).containsEntry("build_in_source", true);
        }
    }

    private static Map<String, String> overrides(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        Matcher m = OVERRIDE.matcher(text);
        while (m.find()) values.put(m.group(1), m.group(2));
        assertThat(OVERRIDE.matcher(text).replaceAll("").isBlank()).as("parameter_overrides is KEY=\"VALUE\" pairs: %s", text).isTrue();
        return values;
    }

    /** The TOML samconfig.toml uses: [a.b.c] tables of key = "string" | true | false | number | ["string", ...]. */
    static Map<String, Map<String, Object>> parse(List<String> lines) {
        Map<String, Map<String, Object>> tables = new LinkedHashMap<>();
        Map<String, Object> current = null;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            if (line.startsWith("[")) {
                assertThat(line).as("table header").matches("\\[[a-z_]+(\\.[a-z_]+)*]");
                current = new LinkedHashMap<>();
                assertThat(tables.put(line.substring(1, line.length() - 1), current)).as("table %s declared twice", line).isNull();
                continue;
            }
            int eq = line.indexOf('=');
            assertThat(eq).as("key = value: %s", line).isPositive();
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (current == null) {
                assertThat(key).as("top-level key").isEqualTo("version");
                continue;
            }
            current.put(key, value(value));
        }
        return tables;
    }

    private static Object value(String text) {
        if (text.equals("true") || text.equals("false")) return Boolean.parseBoolean(text);
        if (text.matches("-?\\d+(\\.\\d+)?")) return Double.parseDouble(text);
        if (text.startsWith("[")) {
            assertThat(text).endsWith("]");
            List<Object> items = new ArrayList<>();
            for (String item : text.substring(1, text.length() - 1).split(",")) {
                if (!item.isBlank()) items.add(value(item.strip()));
            }
            return items;
        }
        assertThat(text).as("a TOML basic string").startsWith("\"").endsWith("\"");
        return text.substring(1, text.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
    }
}
