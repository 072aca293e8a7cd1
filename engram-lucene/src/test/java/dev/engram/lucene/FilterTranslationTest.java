package dev.engram.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Hashes;
import dev.engram.MemoryItem;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.filter.FilterEvaluator;
import dev.engram.filter.Mem0Filters;
import dev.engram.filter.Op;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexOp;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hand-picked edge cases of the filter translation, each checked against the expected ids and the
 * evaluator.
 */
class FilterTranslationTest {
  private static final String LONG =
      "，".repeat(11_000) + "tail"; // 33,004 UTF-8 bytes: too long for a term
  private static final Instant CREATED = Instant.parse("2024-05-01T10:00:00.000000500Z");

  @TempDir static Path dir;
  private static LuceneSearchIndex index;
  private static final List<MemoryItem> ITEMS = new ArrayList<>();

  @BeforeAll
  static void indexMemories() {
    add("str1", Map.of("v", "1", "role", "boss"), null);
    add("num1", Map.of("v", 1), CREATED.plusNanos(1));
    add("num1d", Map.of("v", 1.0), null);
    add("bool", Map.of("v", true), null);
    add("negzero", Map.of("v", -0.0), null);
    add("zero", Map.of("v", 0), null);
    add("list", Map.of("v", List.of("red", 7, false, List.of("nested")), "tags", List.of()), null);
    add("map", Map.of("v", Map.of("a", "b"), "a.b", "flat"), null);
    add("nullv", nullValue(), null);
    add("none", Map.of(), null);
    add("long", Map.of("v", LONG), null);
    add("emoji", Map.of("v", "😀"), null);
    add("fullwidth", Map.of("v", "，"), null);
    add("istanbul", Map.of("v", "İstanbul"), null);
    index = LuceneSearchIndex.open(dir, 4);
    List<IndexOp> ops = new ArrayList<>();
    for (MemoryItem m : ITEMS) {
      ops.add(new IndexOp.Upsert(Docs.stored("t", m, Docs.axis(4, ops.size()))));
    }
    index.apply(ops, ops.size(), 1);
  }

  private static Map<String, Object> nullValue() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("v", null);
    return m;
  }

  private static void add(String id, Map<String, Object> metadata, Instant eventTime) {
    String text = "memory " + id;
    ITEMS.add(
        new MemoryItem(
            id,
            text,
            Hashes.md5(text),
            metadata,
            "alice",
            null,
            null,
            null,
            id.startsWith("num") ? Role.ASSISTANT : Role.USER,
            CREATED,
            CREATED,
            eventTime,
            List.of(),
            null));
  }

  @AfterAll
  static void close() {
    index.close();
  }

  /** Asserts that the index and the evaluator both select exactly {@code ids}. */
  private static void expect(Filter filter, String... ids) {
    List<String> byEvaluator =
        ITEMS.stream().filter(m -> FilterEvaluator.matches(filter, m)).map(MemoryItem::id).toList();
    assertThat(byEvaluator).as("evaluator: " + filter).containsExactlyInAnyOrder(ids);
    List<String> byIndex =
        Docs.ids(
            index.dense(
                Docs.query("t", Scope.user("alice"), filter),
                IndexField.TEXT,
                Docs.axis(4, 0),
                50));
    assertThat(byIndex).as("index: " + filter).containsExactlyInAnyOrder(ids);
  }

  @Test
  void valuesCompareOnlyWithValuesOfTheirKind() {
    expect(Filter.eq("v", "1"), "str1");
    expect(Filter.eq("v", 1), "num1", "num1d");
    expect(Filter.eq("v", true), "bool");
    expect(Filter.compare("v", Op.IN, List.of("1", true)), "str1", "bool");
    expect(Filter.compare("v", Op.GT, 0), "num1", "num1d", "list");
    expect(
        Filter.compare("v", Op.GTE, "1"), "str1", "list", "long", "emoji", "fullwidth", "istanbul");
  }

  @Test
  void negationsLetMissingFieldsPass() {
    expect(
        Filter.compare("v", Op.NE, 1),
        "str1",
        "bool",
        "negzero",
        "zero",
        "list",
        "map",
        "nullv",
        "none",
        "long",
        "emoji",
        "fullwidth",
        "istanbul");
    expect(
        Filter.compare("v", Op.NIN, List.of("1", 1, true, "red", 0)),
        "negzero",
        "map",
        "nullv",
        "none",
        "long",
        "emoji",
        "fullwidth",
        "istanbul");
    expect(
        Filter.not(Filter.compare("v", Op.LT, 1)),
        "str1",
        "num1",
        "num1d",
        "bool",
        "list",
        "map",
        "nullv",
        "none",
        "long",
        "emoji",
        "fullwidth",
        "istanbul");
  }

  @Test
  void minusZeroIsNotZero() {
    expect(Filter.eq("v", 0), "zero");
    expect(Filter.eq("v", -0.0), "negzero");
    expect(Filter.compare("v", Op.GT, -0.0), "zero", "num1", "num1d", "list");
    expect(Filter.compare("v", Op.LT, 0), "negzero");
  }

  @Test
  void listsMatchByAnyScalarElementAndObjectsOnlyExist() {
    expect(Filter.eq("v", "red"), "list");
    expect(Filter.eq("v", false), "list");
    expect(Filter.eq("v", "nested"));
    expect(new Filter.Exists(dev.engram.filter.Field.of("tags")), "list");
    expect(
        new Filter.Exists(dev.engram.filter.Field.of("v")),
        "str1",
        "num1",
        "num1d",
        "bool",
        "negzero",
        "zero",
        "list",
        "map",
        "long",
        "emoji",
        "fullwidth",
        "istanbul");
    expect(Filter.eq("metadata.a.b", "flat"), "map");
    expect(Filter.eq("metadata.v.a", "b"));
  }

  @Test
  void stringsTooLongForATermAreStillFound() {
    expect(Filter.eq("v", LONG), "long");
    expect(Filter.compare("v", Op.IN, List.of(LONG, "1")), "long", "str1");
    expect(Filter.compare("v", Op.CONTAINS, "，tail"), "long");
    expect(Filter.compare("v", Op.GT, "，，"), "long");
    expect(Filter.compare("v", Op.LT, LONG), "str1", "list", "emoji", "fullwidth", "istanbul");
    expect(
        Filter.compare("v", Op.NE, LONG),
        "str1",
        "num1",
        "num1d",
        "bool",
        "negzero",
        "zero",
        "list",
        "map",
        "nullv",
        "none",
        "emoji",
        "fullwidth",
        "istanbul");
  }

  @Test
  void stringOrderIsJavasUtf16Order() {
    // U+FF0C sorts after the surrogate pair of U+1F600 in UTF-16 (and Java), before it in UTF-8.
    expect(Filter.compare("v", Op.GT, "😀"), "fullwidth", "long");
    expect(Filter.compare("v", Op.LTE, "😀"), "str1", "list", "emoji", "istanbul");
  }

  @Test
  void containsIsCaseSensitiveAndIcontainsUsesTheRootLocale() {
    expect(Filter.compare("v", Op.CONTAINS, "stan"), "istanbul");
    expect(Filter.compare("v", Op.CONTAINS, "ist"));
    expect(Filter.compare("v", Op.ICONTAINS, "İSTAN"), "istanbul");
    expect(Filter.compare("v", Op.ICONTAINS, "RE"), "list");
    expect(Filter.compare("memory", Op.ICONTAINS, "MEMORY NUM"), "num1", "num1d");
  }

  @Test
  void builtInFieldsAreSeparateFromMetadataKeysOfTheSameName() {
    expect(Filter.eq("role", "assistant"), "num1", "num1d");
    expect(Filter.eq("metadata.role", "boss"), "str1");
    expect(Filter.eq("role", "boss"));
  }

  @Test
  void timesCompareAtNanosecondPrecision() {
    expect(Filter.compare("created_at", Op.GT, "2024-05-01T10:00:00.0000005Z"));
    expect(Filter.compare("event_time", Op.GT, CREATED), "num1");
    expect(Filter.compare("event_time", Op.LTE, CREATED));
    expect(
        Filter.compare("event_time", Op.NE, CREATED.plusNanos(1)),
        ITEMS.stream().map(MemoryItem::id).filter(id -> !id.equals("num1")).toArray(String[]::new));
    expect(new Filter.Exists(dev.engram.filter.Field.of("event_time")), "num1");
  }

  @Test
  void mem0JsonFiltersTranslate() {
    expect(
        Mem0Filters.parse(
            "{\"OR\": [{\"v\": {\"gte\": 1, \"lt\": 2}}, {\"v\": \"*\", \"NOT\": [{\"v\": {"
                + "\"icontains\": \"\"}}]}]}"),
        "num1",
        "num1d",
        "bool",
        "negzero",
        "zero",
        "map");
  }
}
