package dev.engram.filter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Hashes;
import dev.engram.MemoryItem;
import dev.engram.Role;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FilterEvaluatorTest {
  private static final MemoryItem M =
      new MemoryItem(
          "id-1",
          "Alice moved to Lisbon",
          Hashes.md5("Alice moved to Lisbon"),
          Map.of("topic", "Travel", "priority", 3, "done", false, "tags", List.of("city", "move")),
          "alice",
          "bot",
          null,
          "Alice",
          Role.USER,
          Instant.parse("2024-05-01T10:00:00Z"),
          Instant.parse("2024-05-02T10:00:00Z"),
          Instant.parse("2023-05-08T13:56:00Z"),
          List.of("D1:3"),
          LocalDate.parse("2025-01-01"));

  private static boolean m(String json) {
    return FilterEvaluator.matches(Mem0Filters.parse(json), M);
  }

  @Test
  void equalityIsTypedAndExact() {
    assertThat(m("{\"topic\": \"Travel\"}")).isTrue();
    assertThat(m("{\"topic\": \"travel\"}")).isFalse();
    assertThat(m("{\"priority\": 3}")).isTrue();
    assertThat(m("{\"priority\": \"3\"}")).isFalse();
    assertThat(m("{\"done\": false}")).isTrue();
    assertThat(m("{\"done\": \"false\"}")).isFalse();
  }

  @Test
  void listsMatchWhenAnyElementDoes() {
    assertThat(m("{\"tags\": \"move\"}")).isTrue();
    assertThat(m("{\"tags\": {\"in\": [\"x\", \"city\"]}}")).isTrue();
    assertThat(m("{\"tags\": {\"ne\": \"move\"}}")).isFalse();
    assertThat(m("{\"tags\": {\"icontains\": \"CIT\"}}")).isTrue();
  }

  @Test
  void negationsLetMissingFieldsPass() {
    assertThat(m("{\"missing\": {\"ne\": \"x\"}}")).isTrue();
    assertThat(m("{\"missing\": {\"nin\": [\"x\"]}}")).isTrue();
    assertThat(m("{\"missing\": {\"eq\": \"x\"}}")).isFalse();
    assertThat(m("{\"missing\": \"*\"}")).isFalse();
    assertThat(m("{\"topic\": \"*\"}")).isTrue();
    assertThat(m("{\"run_id\": {\"ne\": \"r1\"}}")).isTrue();
  }

  @Test
  void rangesCompareNumbersStringsAndTimes() {
    assertThat(m("{\"priority\": {\"gt\": 2, \"lte\": 3}}")).isTrue();
    assertThat(m("{\"priority\": {\"gt\": 3}}")).isFalse();
    assertThat(m("{\"topic\": {\"gte\": \"T\"}}")).isTrue();
    assertThat(m("{\"created_at\": {\"gte\": \"2024-05-01\", \"lt\": \"2024-05-01T10:00:01Z\"}}"))
        .isTrue();
    assertThat(m("{\"event_time\": {\"lt\": \"2023-05-08\"}}")).isFalse();
    assertThat(m("{\"expiration_date\": \"2025-01-01\"}")).isTrue();
  }

  @Test
  void builtInStringsAndText() {
    assertThat(m("{\"actor_id\": \"Alice\", \"role\": \"user\", \"agent_id\": \"bot\"}")).isTrue();
    assertThat(m("{\"memory\": {\"contains\": \"Lisbon\"}}")).isTrue();
    assertThat(m("{\"memory\": {\"contains\": \"lisbon\"}}")).isFalse();
    assertThat(m("{\"memory\": {\"icontains\": \"lisbon\"}}")).isTrue();
    assertThat(m("{\"source_id\": \"D1:3\"}")).isTrue();
  }

  @Test
  void logicCombines() {
    assertThat(m("{\"OR\": [{\"topic\": \"x\"}, {\"priority\": 3}]}")).isTrue();
    assertThat(m("{\"AND\": [{\"topic\": \"x\"}, {\"priority\": 3}]}")).isFalse();
    assertThat(m("{\"NOT\": [{\"topic\": \"x\"}, {\"priority\": 4}]}")).isTrue();
    assertThat(m("{\"NOT\": [{\"topic\": \"x\"}, {\"priority\": 3}]}")).isFalse();
  }
}
