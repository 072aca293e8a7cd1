package dev.engram.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddResult;
import dev.engram.ChangePipelines;
import dev.engram.EventType;
import dev.engram.Hashes;
import dev.engram.HistoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.MemoryItem;
import dev.engram.Page;
import dev.engram.Role;
import dev.engram.ScoreDetails;
import dev.engram.SearchHit;
import dev.engram.SearchResult;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemoryJsonTest {
  private static final Instant CREATED = Instant.parse("2024-05-01T10:00:00Z");
  private static final Instant UPDATED = Instant.parse("2024-05-02T11:30:00.250Z");

  private static MemoryItem bare() {
    return new MemoryItem(
        "m1",
        "Likes tea",
        Hashes.md5("Likes tea"),
        Map.of(),
        null,
        "bot",
        null,
        null,
        null,
        CREATED,
        CREATED,
        null,
        List.of(),
        null);
  }

  private static MemoryItem full() {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("topic", "travel");
    meta.put("stars", 4);
    meta.put("tags", List.of("a", "b"));
    return new MemoryItem(
        "m2",
        "I moved to Lisbon",
        Hashes.md5("I moved to Lisbon"),
        meta,
        "alice",
        "bot",
        "r1",
        "Alice",
        Role.USER,
        CREATED,
        UPDATED,
        Instant.parse("2023-05-08T13:56:00Z"),
        List.of("D1:3", "D1:4"),
        LocalDate.parse("2025-01-01"));
  }

  @Test
  void itemWithoutOptionalFieldsHasNullMetadataAndOnlySetIds() {
    assertThat(MemoryJson.write(MemoryJson.item(bare())))
        .isEqualTo(
            "{\"id\":\"m1\",\"memory\":\"Likes tea\",\"hash\":\""
                + Hashes.md5("Likes tea")
                + "\",\"metadata\":null,"
                + "\"created_at\":\"2024-05-01T10:00:00Z\",\"updated_at\":\"2024-05-01T10:00:00Z\",\"agent_id\":\"bot\"}");
  }

  @Test
  void itemWithEveryFieldKeepsMem0KeyOrder() {
    assertThat(MemoryJson.write(MemoryJson.item(full())))
        .isEqualTo(
            "{\"id\":\"m2\",\"memory\":\"I moved to Lisbon\",\"hash\":\""
                + Hashes.md5("I moved to Lisbon")
                + "\","
                + "\"metadata\":{\"topic\":\"travel\",\"stars\":4,\"tags\":[\"a\",\"b\"]},"
                + "\"created_at\":\"2024-05-01T10:00:00Z\",\"updated_at\":\"2024-05-02T11:30:00.250Z\","
                + "\"user_id\":\"alice\",\"agent_id\":\"bot\",\"run_id\":\"r1\",\"actor_id\":\"Alice\",\"role\":\"user\","
                + "\"event_time\":\"2023-05-08T13:56:00Z\",\"source_ids\":[\"D1:3\",\"D1:4\"],"
                + "\"expiration_date\":\"2025-01-01\"}");
  }

  @Test
  void searchHitPutsScoreAfterMetadataAndDetailsLast() {
    SearchHit plain = new SearchHit(bare(), 0.75, null);
    SearchHit explained =
        new SearchHit(bare(), 0.5, new ScoreDetails(0.8, 1, 2.5, 3, 0.5, Double.NaN, "RRF"));
    SearchHit reranked =
        new SearchHit(bare(), 0.9, new ScoreDetails(0.8, 2, 0.0, 0, 0.25, 0.9, "WEIGHTED"));
    String head =
        "{\"id\":\"m1\",\"memory\":\"Likes tea\",\"hash\":\""
            + Hashes.md5("Likes tea")
            + "\","
            + "\"metadata\":null,";
    String tail =
        "\"created_at\":\"2024-05-01T10:00:00Z\",\"updated_at\":\"2024-05-01T10:00:00Z\","
            + "\"agent_id\":\"bot\"";
    assertThat(
            MemoryJson.write(
                MemoryJson.searchResult(new SearchResult(List.of(plain, explained, reranked)))))
        .isEqualTo(
            "{\"results\":["
                + head
                + "\"score\":0.75,"
                + tail
                + "},"
                + head
                + "\"score\":0.5,"
                + tail
                + ",\"score_details\":{\"semantic_score\":0.8,\"semantic_rank\":1,"
                + "\"bm25_score\":2.5,\"bm25_rank\":3,\"fused_score\":0.5,\"fusion\":\"rrf\"}},"
                + head
                + "\"score\":0.9,"
                + tail
                + ",\"score_details\":{\"semantic_score\":0.8,\"semantic_rank\":2,"
                + "\"bm25_score\":0.0,\"bm25_rank\":0,\"fused_score\":0.25,\"rerank_score\":0.9,"
                + "\"fusion\":\"weighted\"}}]}");
  }

  @Test
  void addResultShowsPreviousMemoryOnlyOnUpdateAndActorWithRole() {
    AddResult r =
        new AddResult(
            List.of(
                new MemoryEvent("a", "Lives in Lisbon", EventType.ADD, null, "Alice", Role.USER),
                new MemoryEvent("b", "Hi", EventType.ADD, null, null, Role.ASSISTANT),
                new MemoryEvent("c", "Likes green tea", EventType.UPDATE, "Likes tea", null, null),
                new MemoryEvent("d", "Owns a cat", EventType.DELETE, null, null, null),
                new MemoryEvent("e", "Owns a dog", EventType.NOOP, null, "Bob", null)));
    assertThat(MemoryJson.write(MemoryJson.addResult(r)))
        .isEqualTo(
            "{\"results\":["
                + "{\"id\":\"a\",\"memory\":\"Lives in Lisbon\",\"event\":\"ADD\",\"actor_id\":\"Alice\",\"role\":\"user\"},"
                + "{\"id\":\"b\",\"memory\":\"Hi\",\"event\":\"ADD\",\"actor_id\":null,\"role\":\"assistant\"},"
                + "{\"id\":\"c\",\"memory\":\"Likes green tea\",\"event\":\"UPDATE\",\"previous_memory\":\"Likes tea\"},"
                + "{\"id\":\"d\",\"memory\":\"Owns a cat\",\"event\":\"DELETE\"},"
                + "{\"id\":\"e\",\"memory\":\"Owns a dog\",\"event\":\"NOOP\",\"actor_id\":\"Bob\"}]}");
  }

  @Test
  void addResultShowsModelUsageWhenAModelWasCalled() {
    AddResult r =
        new AddResult(
            List.of(new MemoryEvent("a", "Lives in Lisbon", EventType.ADD, null, null, null)),
            new dev.engram.Usage(2, 1200, 80, java.time.Duration.ofMillis(950)));
    assertThat(MemoryJson.write(MemoryJson.addResult(r)))
        .isEqualTo(
            "{\"results\":["
                + "{\"id\":\"a\",\"memory\":\"Lives in Lisbon\",\"event\":\"ADD\"}],"
                + "\"usage\":{\"llm_calls\":2,\"prompt_tokens\":1200,\"completion_tokens\":80,\"llm_ms\":950}}");
  }

  @Test
  void searchResultListsGraphRelationsAfterTheHitsWhenThereAreAny() {
    dev.engram.GraphRelation moved =
        new dev.engram.GraphRelation(
            "r1",
            "Alice",
            "lives_in",
            "Shanghai",
            "Alice lives in Shanghai",
            Instant.parse("2024-03-01T00:00:00Z"),
            null,
            Instant.parse("2024-03-02T00:00:00Z"),
            null,
            0.8,
            List.of("D3:4", "D3:5"),
            List.of("m7"));
    assertThat(
            MemoryJson.write(
                MemoryJson.searchResult(new dev.engram.SearchResult(List.of(), List.of(moved)))))
        .isEqualTo(
            "{\"results\":[],\"relations\":[{\"source\":\"Alice\",\"relationship\":\"lives_in\","
                + "\"destination\":\"Shanghai\",\"fact\":\"Alice lives in Shanghai\","
                + "\"valid_at\":\"2024-03-01T00:00:00Z\",\"invalid_at\":null,"
                + "\"source_ids\":[\"D3:4\",\"D3:5\"],\"memory_ids\":[\"m7\"]}]}");
    assertThat(MemoryJson.write(MemoryJson.searchResult(new dev.engram.SearchResult(List.of()))))
        .isEqualTo("{\"results\":[]}");
  }

  @Test
  void relationWithoutProvenanceHasEmptyIdArraysAndBothDates() {
    dev.engram.GraphRelation ended =
        new dev.engram.GraphRelation(
            "r2",
            "Bob",
            "works_at",
            "Acme",
            "Bob works at Acme",
            Instant.parse("2023-01-01T00:00:00Z"),
            Instant.parse("2024-01-01T00:00:00Z"),
            Instant.parse("2023-01-02T00:00:00Z"),
            Instant.parse("2024-01-02T00:00:00Z"),
            1.0);
    assertThat(ended.sourceIds()).isEmpty();
    assertThat(ended.memoryIds()).isEmpty();
    assertThat(MemoryJson.write(MemoryJson.relation(ended)))
        .isEqualTo(
            "{\"source\":\"Bob\","
                + "\"relationship\":\"works_at\",\"destination\":\"Acme\",\"fact\":\"Bob works at Acme\","
                + "\"valid_at\":\"2023-01-01T00:00:00Z\",\"invalid_at\":\"2024-01-01T00:00:00Z\","
                + "\"source_ids\":[],\"memory_ids\":[]}");
  }

  @Test
  void pageHasResultsTotalAndOffset() {
    Page<MemoryItem> p = new Page<>(List.of(bare()), 7, 3);
    assertThat(MemoryJson.write(MemoryJson.page(p)))
        .isEqualTo(
            "{\"results\":["
                + MemoryJson.write(MemoryJson.item(bare()))
                + "],\"total\":7,\"offset\":3}");
    assertThat(MemoryJson.write(MemoryJson.page(new Page<MemoryItem>(List.of(), 0, 0))))
        .isEqualTo("{\"results\":[],\"total\":0,\"offset\":0}");
  }

  @Test
  void historyRowsHaveEveryKey() {
    List<HistoryEntry> rows =
        List.of(
            new HistoryEntry(
                12,
                "m1",
                EventType.ADD,
                null,
                "Likes tea",
                "Alice",
                Role.USER,
                CREATED,
                ChangePipelines.RAW),
            new HistoryEntry(
                15,
                "m1",
                EventType.DELETE,
                "Likes tea",
                null,
                null,
                null,
                UPDATED,
                ChangePipelines.DELETE));
    assertThat(MemoryJson.write(MemoryJson.history(rows)))
        .isEqualTo(
            "["
                + "{\"id\":12,\"memory_id\":\"m1\",\"event\":\"ADD\",\"old_memory\":null,\"new_memory\":\"Likes tea\","
                + "\"actor_id\":\"Alice\",\"role\":\"user\",\"created_at\":\"2024-05-01T10:00:00Z\",\"pipeline\":\"raw\"},"
                + "{\"id\":15,\"memory_id\":\"m1\",\"event\":\"DELETE\",\"old_memory\":\"Likes tea\",\"new_memory\":null,"
                + "\"actor_id\":null,\"role\":null,\"created_at\":\"2024-05-02T11:30:00.250Z\",\"pipeline\":\"delete\"}]");
  }

  @Test
  void prettyOutputParsesBackToTheSameTree() throws Exception {
    String pretty = MemoryJson.writePretty(MemoryJson.item(full()));
    assertThat(pretty).contains("\n");
    assertThat(MemoryJson.mapper().readTree(pretty)).isEqualTo(MemoryJson.item(full()));
  }
}
