package dev.engram.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Scope;
import dev.engram.ValidationException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class Mem0FiltersTest {

  @Test
  void plainValuesAreEqualityAndSiblingsAreAnded() {
    Filter f = Mem0Filters.parse("{\"topic\": \"travel\", \"priority\": 2}");
    assertThat(f)
        .isEqualTo(
            Filter.and(
                List.of(
                    new Filter.Comparison(new Field("topic", null), Op.EQ, "travel"),
                    new Filter.Comparison(new Field("priority", null), Op.EQ, 2.0))));
  }

  @Test
  void operatorObjectsAndLogicNest() {
    Filter f =
        Mem0Filters.parse(
            "{\"OR\": [{\"age\": {\"gte\": 18, \"lt\": 65}}, {\"NOT\": [{\"tag\": {\"in\": [\"a\",\"b\"]}}]}]}");
    Field age = new Field("age", null);
    assertThat(f)
        .isEqualTo(
            Filter.or(
                List.of(
                    Filter.and(
                        List.of(
                            new Filter.Comparison(age, Op.GTE, 18.0),
                            new Filter.Comparison(age, Op.LT, 65.0))),
                    Filter.not(
                        new Filter.Comparison(new Field("tag", null), Op.IN, List.of("a", "b"))))));
  }

  @Test
  void notOfSeveralConditionsMeansNoneHolds() {
    Filter f = Mem0Filters.parse("{\"NOT\": [{\"a\": 1}, {\"b\": 2}]}");
    assertThat(f)
        .isEqualTo(Filter.not(Filter.or(List.of(Filter.eq("a", 1.0), Filter.eq("b", 2.0)))));
  }

  @Test
  void wildcardMeansPresentAndArraysMeanIn() {
    assertThat(Mem0Filters.parse("{\"topic\": \"*\"}"))
        .isEqualTo(new Filter.Exists(new Field("topic", null)));
    assertThat(Mem0Filters.parse("{\"topic\": [\"x\"]}"))
        .isEqualTo(new Filter.Comparison(new Field("topic", null), Op.IN, List.of("x")));
  }

  @Test
  void builtInTimeFieldsParseIsoDatesAndDateTimes() {
    Filter f =
        Mem0Filters.parse(
            "{\"created_at\": {\"gte\": \"2024-05-01\", \"lt\": \"2024-05-02T10:00:00+02:00\"}}");
    Field created = new Field("created_at", BuiltInField.CREATED_AT);
    assertThat(f)
        .isEqualTo(
            Filter.and(
                List.of(
                    new Filter.Comparison(created, Op.GTE, Instant.parse("2024-05-01T00:00:00Z")),
                    new Filter.Comparison(created, Op.LT, Instant.parse("2024-05-02T08:00:00Z")))));
  }

  @Test
  void metadataPrefixReachesKeysThatShadowBuiltIns() {
    assertThat(Mem0Filters.parse("{\"metadata.role\": \"admin\"}"))
        .isEqualTo(new Filter.Comparison(new Field("role", null), Op.EQ, "admin"));
  }

  @Test
  void topLevelEntityIdsBecomeTheScope() {
    Mem0Filters.Parsed p =
        Mem0Filters.parseWithScope(
            "{\"user_id\": \"alice\", \"agent_id\": \"bot\", \"topic\": \"x\"}");
    assertThat(p.scope()).contains(Scope.of("alice", "bot", null));
    assertThat(p.filter()).isEqualTo(Filter.eq("topic", "x"));
    assertThat(Mem0Filters.parseWithScope("{\"topic\": \"x\"}").scope()).isEmpty();
  }

  @Test
  void rejectsUnknownOperatorsNamingFieldAndOperator() {
    assertThatThrownBy(() -> Mem0Filters.parse("{\"age\": {\"between\": [1, 2]}}"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("filters.age")
        .hasMessageContaining("'between'");
  }

  @Test
  void rejectsMalformedJsonAndBadShapes() {
    assertThatThrownBy(() -> Mem0Filters.parse("{\"age\": "))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("filters: malformed JSON");
    assertThatThrownBy(() -> Mem0Filters.parse("[1,2]"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("JSON object");
    assertThatThrownBy(() -> Mem0Filters.parse("{\"AND\": []}"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("non-empty list");
    assertThatThrownBy(() -> Mem0Filters.parse("{\"tag\": {\"in\": \"a\"}}"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("filters.tag")
        .hasMessageContaining("list");
    assertThatThrownBy(() -> Mem0Filters.parse("{\"name\": {\"contains\": 3}}"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("contains needs a string");
    assertThatThrownBy(() -> Mem0Filters.parse("{\"created_at\": {\"gt\": \"yesterday\"}}"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("'yesterday' is not an ISO-8601 date");
    assertThatThrownBy(() -> Mem0Filters.parse("{\"x\": null}"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("null is not a valid filter value");
  }

  @Test
  void blankMeansNoFilter() {
    assertThat(Mem0Filters.parse("  ")).isSameAs(Filter.all());
    assertThat(Mem0Filters.parse("{}")).isSameAs(Filter.all());
  }
}
