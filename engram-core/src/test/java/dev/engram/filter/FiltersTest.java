package dev.engram.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ValidationException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The typed Java form gives the same tree as mem0's JSON form. */
class FiltersTest {

  @Test
  void comparisonsMatchTheJsonForm() {
    assertThat(Filters.eq("role", "user")).isEqualTo(Mem0Filters.parse("{\"role\": \"user\"}"));
    assertThat(Filters.ne("topic", "work"))
        .isEqualTo(Mem0Filters.parse("{\"topic\": {\"ne\": \"work\"}}"));
    assertThat(Filters.gt("priority", 2))
        .isEqualTo(Mem0Filters.parse("{\"priority\": {\"gt\": 2}}"));
    assertThat(Filters.lte("score", 0.5))
        .isEqualTo(Mem0Filters.parse("{\"score\": {\"lte\": 0.5}}"));
    assertThat(Filters.lt("metadata.user_id", "m"))
        .isEqualTo(Mem0Filters.parse("{\"metadata.user_id\": {\"lt\": \"m\"}}"));
    assertThat(Filters.in("topic", "food", "travel"))
        .isEqualTo(Mem0Filters.parse("{\"topic\": [\"food\", \"travel\"]}"));
    assertThat(Filters.nin("topic", List.of("a")))
        .isEqualTo(Mem0Filters.parse("{\"topic\": {\"nin\": [\"a\"]}}"));
    assertThat(Filters.contains("memory", "Max"))
        .isEqualTo(Mem0Filters.parse("{\"memory\": {\"contains\": \"Max\"}}"));
    assertThat(Filters.icontains("memory", "max"))
        .isEqualTo(Mem0Filters.parse("{\"memory\": {\"icontains\": \"max\"}}"));
    assertThat(Filters.exists("pinned")).isEqualTo(Mem0Filters.parse("{\"pinned\": \"*\"}"));
    assertThat(Filters.eq(Filters.metadata("role"), "x"))
        .isEqualTo(Mem0Filters.parse("{\"metadata.role\": \"x\"}"));
    assertThat(Filters.eq("flag", true)).isEqualTo(Mem0Filters.parse("{\"flag\": true}"));
  }

  @Test
  void timesTakeInstantsAndStringsAlike() {
    Instant jan = Instant.parse("2024-01-01T00:00:00Z");
    assertThat(Filters.gte("event_time", jan))
        .isEqualTo(Filters.gte("event_time", "2024-01-01"))
        .isEqualTo(Mem0Filters.parse("{\"event_time\": {\"gte\": \"2024-01-01\"}}"));
  }

  @Test
  void chainsGiveTheSameTreeAsTheJsonLogic() {
    Filter typed =
        Filters.eq("role", "user")
            .and(Filters.gte("event_time", Instant.parse("2024-01-01T00:00:00Z")))
            .and(Filters.in("topic", "food", "travel").or(Filters.exists("pinned")));
    Filter json =
        Mem0Filters.parse(
            "{\"AND\": [{\"role\": \"user\"}, {\"event_time\": {\"gte\": \"2024-01-01\"}},"
                + " {\"OR\": [{\"topic\": [\"food\", \"travel\"]}, {\"pinned\": \"*\"}]}]}");
    assertThat(typed).isEqualTo(json);

    assertThat(Filters.eq("a", 1).or(Filters.eq("b", 2)).or(Filters.eq("c", 3)))
        .isEqualTo(Mem0Filters.parse("{\"OR\": [{\"a\": 1}, {\"b\": 2}, {\"c\": 3}]}"))
        .isEqualTo(Filters.or(Filters.eq("a", 1), Filters.eq("b", 2), Filters.eq("c", 3)));
    assertThat(Filters.eq("a", 1).negate())
        .isEqualTo(Mem0Filters.parse("{\"NOT\": [{\"a\": 1}]}"))
        .isEqualTo(Filters.not(Filters.eq("a", 1)));
    assertThat(Filters.and(Filters.eq("a", 1), Filters.eq("b", 2)))
        .isEqualTo(Mem0Filters.parse("{\"a\": 1, \"b\": 2}"));
  }

  @Test
  void badValuesAreNamed() {
    assertThatThrownBy(() -> Filters.eq("topic", null))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("filters.topic"));
    assertThatThrownBy(() -> Filters.in("topic"))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("filters.topic"));
    assertThatThrownBy(() -> Filters.gte("event_time", "yesterday"))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("filters.event_time"));
    assertThatThrownBy(() -> Filters.contains("created_at", "2024"))
        .isInstanceOf(ValidationException.class);
    assertThatThrownBy(() -> Filters.eq(" ", 1))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("filters"));
    assertThatThrownBy(() -> Filters.or())
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("filters.OR"));
  }
}
