package batchpipe.common.json;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class FieldReaderTest {

    @Test
    void reader_collectsEveryProblemInsteadOfStoppingAtTheFirst() {
        FieldReader fields = FieldReader.root(Json.parseObject("{\"name\":5,\"count\":\"x\",\"extra\":1,\"size\":0}"));

        fields.rejectUnknown(Set.of("name", "count", "size", "missing"));
        String name = fields.requiredString("name", 10);
        Long count = fields.requiredLong("count", 1, 10, null);
        Long size = fields.requiredLong("size", 1, 10, "MAX_SIZE");
        String missing = fields.requiredString("missing", 10);

        assertThat(name).isNull();
        assertThat(count).isNull();
        assertThat(size).isNull();
        assertThat(missing).isNull();
        assertThat(fields.problems()).containsExactly(
                "unknown field 'extra' (allowed: count, missing, name, size)",
                "'name' must be a string, got a number",
                "'count' must be a whole number, got a string",
                "'size' is 0, outside the allowed range 1 to 10 (MAX_SIZE)",
                "'missing' is required");
    }

    @Test
    void rejectUnknown_listsEveryUnknownFieldWithTheAllowedOnesSorted() {
        FieldReader fields = FieldReader.root(Json.parseObject("{\"b\":1,\"zz\":2,\"a\":3,\"yy\":4}"));

        fields.rejectUnknown(Set.of("b", "a"));

        assertThat(fields.problems()).containsExactly(
                "unknown field 'zz' (allowed: a, b)",
                "unknown field 'yy' (allowed: a, b)");
    }

    @Test
    void reader_returnsValidValuesWithoutProblems() {
        FieldReader fields = FieldReader.root(Json.parseObject(
                "{\"name\":\"abc\",\"n\":10,\"tags\":[\"x\",\"y\"],\"opt\":null}"));

        assertThat(fields.requiredString("name", 3)).isEqualTo("abc");
        assertThat(fields.requiredLong("n", 1, 10, null)).isEqualTo(10L);
        assertThat(fields.optionalStringList("tags", 2, 1)).containsExactly("x", "y");
        assertThat(fields.optionalString("opt", 5)).isNull();
        assertThat(fields.optionalLong("absent", 0, 1, null)).isNull();
        assertThat(fields.has("opt")).isFalse();
        assertThat(fields.problems()).isEmpty();
    }

    @Test
    void requiredString_reportsEmptyAndTooLongStrings() {
        FieldReader fields = FieldReader.root(Json.parseObject("{\"a\":\"\",\"b\":\"abcd\"}"));

        fields.requiredString("a", 3);
        fields.requiredString("b", 3);

        assertThat(fields.problems()).containsExactly(
                "'a' must not be empty",
                "'b' is 4 characters, over the limit of 3");
    }

    @Test
    void requiredLong_rejectsFractionsAndDescribesTheNumber() {
        FieldReader fields = FieldReader.root(Json.parseObject("{\"n\":2.5,\"m\":-1}"));

        fields.requiredLong("n", 0, 5, null);
        fields.requiredLong("m", 0, 5, null);

        assertThat(fields.problems()).containsExactly(
                "'n' must be a whole number, got the number 2.5",
                "'m' is -1, outside the allowed range 0 to 5");
    }

    @Test
    void optionalObject_namesNestedFieldsByTheirPath() {
        FieldReader root = FieldReader.root(Json.parseObject("{\"match\":{\"field\":7,\"typo\":1}}"));

        FieldReader match = root.optionalObject("match");
        match.rejectUnknown(Set.of("field"));
        match.requiredString("field", 10);

        assertThat(root.problems()).containsExactly(
                "unknown field 'match.typo' (allowed: field)",
                "'match.field' must be a string, got a number");
    }

    @Test
    void optionalObject_reportsANonObject() {
        FieldReader root = FieldReader.root(Json.parseObject("{\"match\":[1]}"));

        assertThat(root.optionalObject("match")).isNull();
        assertThat(root.problems()).containsExactly("'match' must be an object, got an array");
    }

    @Test
    void nestedReader_sharesTheProblemListAndPrefixesItsPath() {
        List<String> problems = new java.util.ArrayList<>();
        FieldReader source = new FieldReader(Json.parseObject("{\"maxObjects\":0}"), "scan[1]", problems);

        source.optionalLong("maxObjects", 1, 100, null);

        assertThat(source.pathOf("bucket")).isEqualTo("scan[1].bucket");
        assertThat(problems).containsExactly("'scan[1].maxObjects' is 0, outside the allowed range 1 to 100");
    }

    @Test
    void optionalStringList_reportsTheFirstBadEntryByIndex() {
        FieldReader fields = FieldReader.root(Json.parseObject(
                "{\"a\":[\"ok\",\"\"],\"b\":[\"ok\",\"toolong\"],\"c\":[1,2,3],\"d\":\"x\"}"));

        assertThat(fields.optionalStringList("a", 5, 5)).isNull();
        assertThat(fields.optionalStringList("b", 5, 5)).isNull();
        assertThat(fields.optionalStringList("c", 2, 5)).isNull();
        assertThat(fields.optionalStringList("d", 2, 5)).isNull();

        assertThat(fields.problems()).containsExactly(
                "'a[1]' must be a non-empty string",
                "'b[1]' is 7 characters, over the limit of 5",
                "'c' has 3 entries, over the limit of 2",
                "'d' must be an array, got a string");
    }
}
