package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.filter.Filter;
import dev.engram.filter.Filters;
import dev.engram.filter.Mem0Filters;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Both filter forms select the same memories of a real embedded store (SQLite for list, Lucene for
 * search).
 */
class FiltersOnEmbeddedStoreTest {
  private static final Scope ALICE = Scope.user("alice");

  @TempDir static Path tmp;
  private static Memory memory;

  @BeforeAll
  static void fill() {
    memory = Engram.builder().storage(EmbeddedStorage.at(tmp)).embedder(new HashEmbedder()).build();
    add("I love Thai food", "user", "food", 3, "2024-02-01T10:00:00Z");
    add("I flew to Lisbon in spring", "user", "travel", 1, "2024-04-10T10:00:00Z");
    add("Remember that the meeting moved", "assistant", "work", 2, "2023-11-05T10:00:00Z");
    add("My dog Max likes the beach", "user", "pets", 5, "2023-06-01T10:00:00Z");
    memory.add(
        AddRequest.builder(ALICE)
            .message(Message.user("Pinned note about food trucks"))
            .metadata(Map.of("topic", "food", "pinned", true))
            .timestamp(Instant.parse("2024-06-01T10:00:00Z"))
            .infer(false)
            .build());
  }

  private static void add(String text, String role, String topic, int priority, String at) {
    Message m = "user".equals(role) ? Message.user(text) : Message.assistant(text);
    memory.add(
        AddRequest.builder(ALICE)
            .message(m)
            .metadata(Map.of("topic", topic, "priority", priority))
            .timestamp(Instant.parse(at))
            .infer(false)
            .build());
  }

  @AfterAll
  static void close() {
    memory.close();
  }

  static Stream<Arguments> pairs() {
    return Stream.of(
        Arguments.of(
            Filters.eq("role", "user")
                .and(Filters.gte("event_time", Instant.parse("2024-01-01T00:00:00Z"))),
            "{\"role\": \"user\", \"event_time\": {\"gte\": \"2024-01-01\"}}",
            3),
        Arguments.of(
            Filters.in("topic", "food", "travel"), "{\"topic\": [\"food\", \"travel\"]}", 3),
        Arguments.of(
            Filters.gt("priority", 2).or(Filters.exists("pinned")),
            "{\"OR\": [{\"priority\": {\"gt\": 2}}, {\"pinned\": \"*\"}]}",
            3),
        Arguments.of(Filters.eq("topic", "food").negate(), "{\"NOT\": [{\"topic\": \"food\"}]}", 3),
        Arguments.of(
            Filters.icontains("memory", "LISBON"), "{\"memory\": {\"icontains\": \"lisbon\"}}", 1),
        Arguments.of(
            Filters.nin("topic", "work", "pets").and(Filters.lt("event_time", "2024-05-01")),
            "{\"AND\": [{\"topic\": {\"nin\": [\"work\", \"pets\"]}}, {\"event_time\": {\"lt\": \"2024-05-01\"}}]}",
            2));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("pairs")
  void bothFormsSelectTheSameMemories(Filter typed, String json, int expected) {
    Filter parsed = Mem0Filters.parse(json);
    List<String> listedTyped = texts(memory.list(ALICE, typed).items());
    List<String> listedJson = texts(memory.list(ALICE, parsed).items());
    assertThat(listedTyped).hasSize(expected).isEqualTo(listedJson);

    List<String> foundTyped = hits(memory.search(ALICE, "food travel dog meeting", typed).hits());
    List<String> foundJson = hits(memory.search(ALICE, "food travel dog meeting", parsed).hits());
    assertThat(foundTyped).isEqualTo(foundJson).containsExactlyInAnyOrderElementsOf(listedTyped);
  }

  private static List<String> texts(List<MemoryItem> items) {
    return items.stream().map(MemoryItem::text).toList();
  }

  private static List<String> hits(List<SearchHit> hits) {
    return hits.stream().map(h -> h.memory().text()).toList();
  }
}
