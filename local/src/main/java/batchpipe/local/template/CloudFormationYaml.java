package batchpipe.local.template;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Loads a CloudFormation/SAM template from YAML, turning the short-form tags ({@code !Ref X},
 * {@code !GetAtt A.B}, {@code !Sub ...}, {@code !If [...]}, ...) into the long form a JSON template
 * would have ({@code {"Ref": "X"}}, {@code {"Fn::GetAtt": ["A", "B"]}}, ...), so one resolver handles both.
 */
public final class CloudFormationYaml {
    private static final List<String> FUNCTIONS = List.of("Base64", "Cidr", "FindInMap", "GetAZs", "If", "ImportValue",
            "Join", "Select", "Split", "Sub", "Transform", "And", "Equals", "Not", "Or", "ToJsonString", "Length");

    private CloudFormationYaml() {
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> load(Path template) throws IOException {
        try (Reader reader = Files.newBufferedReader(template, StandardCharsets.UTF_8)) {
            Object root = new Yaml(new IntrinsicConstructor()).load(reader);
            if (!(root instanceof Map)) {
                throw new IOException(template + " is not a CloudFormation template (its top level is not a mapping)");
            }
            return (Map<String, Object>) root;
        }
    }

    private static final class IntrinsicConstructor extends SafeConstructor {
        IntrinsicConstructor() {
            super(new LoaderOptions());
            yamlConstructors.put(new Tag("!Ref"), new Intrinsic("Ref"));
            yamlConstructors.put(new Tag("!Condition"), new Intrinsic("Condition"));
            yamlConstructors.put(new Tag("!GetAtt"), new GetAtt());
            for (String function : FUNCTIONS) {
                yamlConstructors.put(new Tag("!" + function), new Intrinsic("Fn::" + function));
            }
        }

        private Object constructAny(Node node) {
            if (node instanceof ScalarNode scalar) return constructScalar(scalar);
            if (node instanceof SequenceNode sequence) return constructSequence(sequence);
            return constructMapping((MappingNode) node);
        }

        private final class Intrinsic extends AbstractConstruct {
            private final String name;

            Intrinsic(String name) {
                this.name = name;
            }

            @Override
            public Object construct(Node node) {
                return Map.of(name, constructAny(node));
            }
        }

        private final class GetAtt extends AbstractConstruct {
            @Override
            public Object construct(Node node) {
                Object value = constructAny(node);
                if (value instanceof String s) {
                    int dot = s.indexOf('.');
                    if (dot < 0) throw new IllegalArgumentException("!GetAtt " + s + " must be Resource.Attribute");
                    return Map.of("Fn::GetAtt", Arrays.asList(s.substring(0, dot), s.substring(dot + 1)));
                }
                return Map.of("Fn::GetAtt", value);
            }
        }
    }
}
