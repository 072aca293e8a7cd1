package dev.engram.sqlite;

import static dev.engram.sqlite.Memories.T0;
import static dev.engram.sqlite.Memories.memory;
import static dev.engram.sqlite.SqliteMemoryStoreTest.TODAY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.ListRequest;
import dev.engram.MemoryItem;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.filter.FilterEvaluator;
import dev.engram.filter.Mem0Filters;
import dev.engram.filter.Op;
import dev.engram.spi.StoredMemory;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hand-written filter cases with their expected ids, each also checked against {@link
 * FilterEvaluator}: list-valued metadata, kinds that never compare, negations that missing keys
 * pass, odd keys, Unicode case folding, Java string order, and time fields.
 */
class ListFilterTest {
  @TempDir static Path dir;
  static SqliteMemoryStore store;
  static List<MemoryItem> items;

  @BeforeAll
  static void fill() {
    store = SqliteMemoryStoreTest.open(dir);
    Map<String, Object> m1 = new LinkedHashMap<>();
    m1.put("topic", "food");
    m1.put("rating", 5);
    m1.put("price", 2.5);
    m1.put("vegan", true);
    m1.put("tags", List.of("tea", "green"));
    m1.put("a\"b.c", "odd key");
    m1.put("it's", 1);
    Map<String, Object> m3 = new LinkedHashMap<>();
    m3.put("topic", List.of("food", "travel"));
    m3.put("rating", "5");
    m3.put("tags", List.of());
    m3.put("nothing", null);
    StoredMemory[] all = {
      memory()
          .id("m1")
          .text("Caroline likes Green Tea")
          .metadata(m1)
          .actor("Caroline", Role.USER)
          .sources(List.of("D1:1", "D1:2"))
          .eventTime(Instant.parse("2023-05-08T10:00:00Z"))
          .created(T0)
          .stored(),
      memory()
          .id("m2")
          .text("Melanie went to Paris")
          .actor("Melanie", Role.ASSISTANT)
          .metadata(
              Map.of(
                  "topic",
                  "travel",
                  "rating",
                  3,
                  "vegan",
                  false,
                  "tags",
                  List.of("paris"),
                  "nested",
                  Map.of("topic", "food")))
          .sources(List.of("D2:1"))
          .expires(LocalDate.of(2030, 1, 1))
          .created(T0.plusSeconds(1))
          .stored(),
      memory()
          .id("m3")
          .text("ÄRGER über Straße")
          .metadata(m3)
          .eventTime(Instant.parse("2023-05-09T00:00:00Z"))
          .created(T0.plusSeconds(2))
          .stored(),
      memory()
          .id("m4")
          .text("supplementary 😀 char")
          .metadata(
              Map.of(
                  "rating",
                  10,
                  "mixed",
                  Arrays.asList(1, "1", true, null, List.of(1), Map.of("x", 1)),
                  "glyph",
                  "😀"))
          .created(T0.plusSeconds(3))
          .stored(),
      memory()
          .id("m5")
          .text("plain")
          .metadata(Map.of("glyph", "～"))
          .created(T0.plusSeconds(4))
          .stored()
    };
    SqliteMemoryStoreTest.add(store, all);
    items = Arrays.stream(all).map(StoredMemory::item).toList();
  }

  @AfterAll
  static void close() {
    store.close();
  }

  private static void assertSelects(Filter filter, String... ids) {
    List<String> listed =
        store
            .list(
                "t1",
                ListRequest.of(Scope.user("alice")).withFilter(filter).withIncludeExpired(true),
                TODAY)
            .items()
            .stream()
            .map(MemoryItem::id)
            .sorted()
            .toList();
    List<String> reference =
        items.stream()
            .filter(m -> FilterEvaluator.matches(filter, m))
            .map(MemoryItem::id)
            .sorted()
            .toList();
    assertThat(reference).as("reference semantics of %s", filter).containsExactly(ids);
    assertThat(listed).as("SQLite list of %s", filter).containsExactly(ids);
  }

  private static Filter json(String json) {
    return Mem0Filters.parse(json);
  }

  @Test
  void listValuedMetadataMatchesIfAnyElementDoes() {
    assertSelects(json("{\"topic\": \"food\"}"), "m1", "m3");
    assertSelects(json("{\"topic\": {\"ne\": \"food\"}}"), "m2", "m4", "m5");
    assertSelects(json("{\"tags\": [\"paris\", \"tea\"]}"), "m1", "m2");
    assertSelects(json("{\"tags\": {\"nin\": [\"paris\"]}}"), "m1", "m3", "m4", "m5");
    assertSelects(json("{\"topic\": {\"contains\": \"oo\"}}"), "m1", "m3");
    assertSelects(json("{\"mixed\": 1}"), "m4");
    assertSelects(json("{\"mixed\": \"1\"}"), "m4");
    assertSelects(json("{\"mixed\": true}"), "m4");
    assertSelects(json("{\"mixed\": {\"gt\": 0.5}}"), "m4");
    assertSelects(json("{\"mixed\": {\"eq\": \"x\"}}"));
    assertSelects(json("{\"nested\": \"food\"}"));
    assertSelects(json("{\"metadata.nested\": {\"ne\": \"food\"}}"), "m1", "m2", "m3", "m4", "m5");
  }

  @Test
  void kindsOnlyCompareWithTheirOwnKind() {
    assertSelects(json("{\"rating\": 5}"), "m1");
    assertSelects(json("{\"rating\": 5.0}"), "m1");
    assertSelects(json("{\"rating\": \"5\"}"), "m3");
    assertSelects(json("{\"rating\": {\"gt\": 4}}"), "m1", "m4");
    assertSelects(json("{\"rating\": {\"gte\": 3, \"lt\": 10}}"), "m1", "m2");
    assertSelects(json("{\"rating\": {\"gte\": \"3\"}}"), "m3");
    assertSelects(json("{\"price\": {\"lte\": 2.5}}"), "m1");
    assertSelects(json("{\"vegan\": true}"), "m1");
    assertSelects(json("{\"vegan\": false}"), "m2");
    assertSelects(json("{\"vegan\": \"true\"}"));
    assertSelects(json("{\"vegan\": {\"ne\": true}}"), "m2", "m3", "m4", "m5");
    assertSelects(json("{\"rating\": [3, \"5\", true]}"), "m2", "m3");
  }

  @Test
  void existsNeedsAPresentNonNullValue() {
    assertSelects(json("{\"tags\": \"*\"}"), "m1", "m2", "m3");
    assertSelects(json("{\"nothing\": \"*\"}"));
    assertSelects(json("{\"nested\": \"*\"}"), "m2");
    assertSelects(json("{\"NOT\": [{\"rating\": \"*\"}]}"), "m5");
    assertSelects(json("{\"source_id\": \"*\"}"), "m1", "m2");
    assertSelects(json("{\"event_time\": \"*\"}"), "m1", "m3");
    assertSelects(json("{\"expiration_date\": \"*\"}"), "m2");
    assertSelects(json("{\"role\": \"*\"}"), "m1", "m2");
  }

  @Test
  void keysWithAnyCharactersAreBoundNotConcatenated() {
    assertSelects(Filter.eq("metadata.a\"b.c", "odd key"), "m1");
    assertSelects(Filter.eq("it's", 1), "m1");
    assertSelects(Filter.eq("x' OR '1'='1", "y"));
    assertSelects(Filter.compare("topic", Op.CONTAINS, "%"));
    assertSelects(Filter.compare("memory", Op.CONTAINS, "_"));
  }

  @Test
  void containsIsCaseSensitiveAndIcontainsFoldsUnicode() {
    assertSelects(json("{\"memory\": {\"contains\": \"Tea\"}}"), "m1");
    assertSelects(json("{\"memory\": {\"contains\": \"tea\"}}"));
    assertSelects(json("{\"memory\": {\"icontains\": \"GREEN tea\"}}"), "m1");
    assertSelects(json("{\"memory\": {\"icontains\": \"ärger ÜBER\"}}"), "m3");
    assertSelects(json("{\"memory\": {\"icontains\": \"\"}}"), "m1", "m2", "m3", "m4", "m5");
    assertSelects(json("{\"actor_id\": {\"icontains\": \"LINE\"}}"), "m1");
  }

  @Test
  void stringRangesFollowJavaOrder() {
    // UTF-16 puts U+FF5E above U+E000 and the surrogate pair of U+1F600 below it; UTF-8 bytes put
    // both above.
    assertSelects(Filter.compare("glyph", Op.GT, "\uE000"), "m5");
    assertSelects(Filter.compare("glyph", Op.LT, "\uE000"), "m4");
    assertSelects(Filter.compare("actor_id", Op.GTE, "Melanie"), "m2");
    assertSelects(Filter.compare("memory", Op.LT, "M"), "m1");
  }

  @Test
  void builtInStringFields() {
    assertSelects(json("{\"actor_id\": \"Caroline\"}"), "m1");
    assertSelects(json("{\"role\": \"user\"}"), "m1");
    assertSelects(json("{\"role\": \"USER\"}"));
    assertSelects(json("{\"role\": {\"ne\": \"user\"}}"), "m2", "m3", "m4", "m5");
    assertSelects(json("{\"source_id\": \"D1:2\"}"), "m1");
    assertSelects(json("{\"source_id\": {\"nin\": [\"D1:2\", \"D2:1\"]}}"), "m3", "m4", "m5");
    assertSelects(json("{\"source_id\": {\"contains\": \"D1\"}}"), "m1");
    assertSelects(Filter.eq("hash", items.get(4).hash()), "m5");
    assertSelects(
        json("{\"user_id\": \"alice\", \"agent_id\": {\"ne\": \"bot\"}}"),
        "m1",
        "m2",
        "m3",
        "m4",
        "m5");
  }

  @Test
  void timeFieldsCompareAsInstants() {
    assertSelects(json("{\"event_time\": {\"gte\": \"2023-05-08\"}}"), "m1", "m3");
    assertSelects(json("{\"event_time\": {\"lt\": \"2023-05-09\"}}"), "m1");
    assertSelects(json("{\"event_time\": {\"lte\": \"2023-05-09T00:00:00Z\"}}"), "m1", "m3");
    assertSelects(
        json("{\"event_time\": {\"ne\": \"2023-05-08T10:00:00Z\"}}"), "m2", "m3", "m4", "m5");
    assertSelects(json("{\"event_time\": \"2023-05-08T12:00:00+02:00\"}"), "m1");
    assertSelects(json("{\"expiration_date\": \"2030-01-01\"}"), "m2");
    assertSelects(json("{\"expiration_date\": \"2030-01-01T00:00:01Z\"}"));
    assertSelects(
        json("{\"expiration_date\": {\"gt\": \"2029-12-31T23:59:59.999999999Z\"}}"), "m2");
    assertSelects(Filter.compare("created_at", Op.GT, T0.plusSeconds(1)), "m3", "m4", "m5");
    assertSelects(
        Filter.compare("created_at", Op.GT, T0.plusSeconds(1).minusNanos(1)),
        "m2",
        "m3",
        "m4",
        "m5");
    assertSelects(Filter.compare("updated_at", Op.IN, List.of(T0, T0.plusSeconds(4))), "m1", "m5");
    assertSelects(Filter.compare("created_at", Op.LT, T0.toEpochMilli() + 1), "m1");
  }

  @Test
  void andOrNotNest() {
    assertSelects(
        json(
            "{\"OR\": [{\"topic\": \"travel\"}, {\"rating\": {\"gt\": 6}}], \"NOT\": [{\"vegan\": false}]}"),
        "m3",
        "m4");
    assertSelects(
        json(
            "{\"AND\": [{\"NOT\": [{\"topic\": \"food\"}, {\"glyph\": \"*\"}]}, {\"memory\": \"*\"}]}"),
        "m2");
    assertSelects(Filter.not(Filter.all()));
  }
}
