package dev.engram.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Hashes;
import dev.engram.ListRequest;
import dev.engram.MemoryItem;
import dev.engram.Page;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.filter.BuiltInField;
import dev.engram.filter.Filter;
import dev.engram.filter.FilterEvaluator;
import dev.engram.filter.Op;
import dev.engram.spi.StoredMemory;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random memories and random filters over every operator, field kind and AND/OR/NOT nesting: {@code
 * list} must return exactly the memories, in exactly the order and count, that {@link
 * FilterEvaluator} selects. The seed is fixed and printed on failure; set {@code -Dengram.seed=N}
 * to try another.
 */
class RandomFilterTest {
  static final long SEED = Long.getLong("engram.seed", 20240501L);
  static final int MEMORIES = 400;
  static final int FILTERS = 600;
  static final LocalDate TODAY = LocalDate.of(2024, 6, 1);
  static final Instant BASE = Instant.parse("2024-05-01T00:00:00Z");

  static final String[] KEYS = {"k0", "k1", "k2", "k3", "tags", "we\"ird.key $[0]"};
  static final String[] STRINGS = {
    "a", "b", "ab", "Ab", "B", "abc", "", "ä", "Äb", "😀", "～", "x y", "10", "true"
  };
  static final Object[] NUMBERS = {-2, 0, 1, 2, 2.0, 1.5, 3, 100, 12_345_678_901L, -0.5};
  static final String[] WORDS = {"tea", "Tea", "likes", "Paris", "ÄRGER", "coffee", "😀", "a", "b"};
  static final String[] ACTORS = {"Caroline", "Melanie", "Bob"};
  static final String[] SOURCES = {"D1:1", "D1:2", "D2:1", "D3:7"};

  @TempDir Path dir;

  @Test
  void listAgreesWithTheReferenceSemantics() {
    Random rnd = new Random(SEED);
    List<MemoryItem> items = new ArrayList<>();
    try (SqliteMemoryStore store = SqliteMemoryStoreTest.open(dir)) {
      List<StoredMemory> batch = new ArrayList<>();
      for (int i = 0; i < MEMORIES; i++) {
        MemoryItem item = randomItem(rnd);
        items.add(item);
        batch.add(new StoredMemory("t1", item, new float[] {rnd.nextFloat(), rnd.nextFloat()}));
      }
      SqliteMemoryStoreTest.add(store, batch.toArray(StoredMemory[]::new));
      SqliteMemoryStoreTest.add(store, new StoredMemory("t2", items.get(0), new float[] {1, 2}));

      int selective = 0;
      for (int f = 0; f < FILTERS; f++) {
        Filter filter = randomFilter(rnd, 0);
        Scope scope = rnd.nextInt(4) == 0 ? Scope.of("alice", "bot1", null) : Scope.user("alice");
        boolean includeExpired = rnd.nextBoolean();
        int offset = rnd.nextInt(3) == 0 ? rnd.nextInt(40) : 0;
        int limit = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(30) : ListRequest.MAX_LIMIT;
        List<String> expected =
            items.stream()
                .filter(m -> scope.contains(m.userId(), m.agentId(), m.runId()))
                .filter(m -> includeExpired || !m.isExpired(TODAY))
                .filter(m -> FilterEvaluator.matches(filter, m))
                .sorted(
                    Comparator.comparing(MemoryItem::createdAt)
                        .reversed()
                        .thenComparing(MemoryItem::id))
                .map(MemoryItem::id)
                .toList();

        long inScope =
            items.stream()
                .filter(m -> scope.contains(m.userId(), m.agentId(), m.runId()))
                .filter(m -> includeExpired || !m.isExpired(TODAY))
                .count();
        if (!expected.isEmpty() && expected.size() < inScope) {
          selective++;
        }
        Page<MemoryItem> page =
            store.list("t1", new ListRequest(scope, filter, offset, limit, includeExpired), TODAY);

        String context =
            "seed "
                + SEED
                + ", filter #"
                + f
                + " "
                + filter
                + ", "
                + scope
                + ", includeExpired "
                + includeExpired
                + ", offset "
                + offset
                + ", limit "
                + limit;
        assertThat(page.total()).as(context).isEqualTo(expected.size());
        assertThat(page.items())
            .extracting(MemoryItem::id)
            .as(context)
            .containsExactlyElementsOf(
                expected.subList(
                    Math.min(offset, expected.size()), Math.min(offset + limit, expected.size())));
      }
      // Guards the test itself: most filters must keep some memories and drop others.
      assertThat(selective)
          .as("seed " + SEED + ": filters that select a proper, non-empty subset")
          .isGreaterThan(FILTERS / 3);
    }
  }

  private static MemoryItem randomItem(Random rnd) {
    Map<String, Object> metadata = new LinkedHashMap<>();
    for (String key : KEYS) {
      switch (rnd.nextInt(8)) {
        case 0, 1 -> {} // missing
        case 2 -> metadata.put(key, pick(rnd, STRINGS));
        case 3 -> metadata.put(key, pick(rnd, NUMBERS));
        case 4 -> metadata.put(key, rnd.nextBoolean());
        case 5 -> metadata.put(key, randomList(rnd));
        case 6 -> metadata.put(key, rnd.nextInt(3) == 0 ? null : Map.of("a", pick(rnd, STRINGS)));
        default -> metadata.put(key, rnd.nextBoolean() ? pick(rnd, STRINGS) : pick(rnd, NUMBERS));
      }
    }
    String text =
        pick(rnd, WORDS)
            + " "
            + pick(rnd, WORDS)
            + (rnd.nextBoolean() ? " " + pick(rnd, WORDS) : "");
    Instant created = BASE.plusSeconds(rnd.nextInt(50)).plusNanos(rnd.nextInt(3) * 1_000L);
    List<String> sources = new ArrayList<>();
    for (String s : SOURCES) {
      if (rnd.nextInt(3) == 0) {
        sources.add(s);
      }
    }
    return new MemoryItem(
        UUID.randomUUID().toString(),
        text,
        Hashes.md5(text),
        metadata,
        rnd.nextInt(6) == 0 ? "bob" : "alice",
        rnd.nextBoolean() ? "bot1" : null,
        rnd.nextBoolean() ? "r1" : null,
        rnd.nextInt(4) == 0 ? null : pick(rnd, ACTORS),
        rnd.nextInt(4) == 0 ? null : Role.values()[rnd.nextInt(Role.values().length)],
        created,
        created.plusSeconds(rnd.nextInt(3)),
        rnd.nextBoolean() ? null : BASE.minusSeconds(rnd.nextInt(5)),
        sources,
        rnd.nextInt(3) == 0 ? TODAY.plusDays(rnd.nextInt(5) - 2) : null);
  }

  private static List<Object> randomList(Random rnd) {
    List<Object> list = new ArrayList<>();
    int n = rnd.nextInt(4);
    for (int i = 0; i < n; i++) {
      int kind = rnd.nextInt(10);
      list.add(kind < 7 ? pick(rnd, STRINGS) : kind < 9 ? pick(rnd, NUMBERS) : rnd.nextBoolean());
    }
    return list;
  }

  private static Filter randomFilter(Random rnd, int depth) {
    int kind = rnd.nextInt(depth >= 3 ? 6 : 10);
    if (kind < 5) {
      return randomComparison(rnd);
    }
    if (kind == 5) {
      return new Filter.Exists(dev.engram.filter.Field.of(randomFieldName(rnd)));
    }
    List<Filter> parts = new ArrayList<>();
    int n = 1 + rnd.nextInt(3);
    for (int i = 0; i < n; i++) {
      parts.add(randomFilter(rnd, depth + 1));
    }
    return switch (kind) {
      case 6, 7 -> Filter.and(parts);
      case 8 -> Filter.or(parts);
      default -> Filter.not(parts.get(0));
    };
  }

  private static String randomFieldName(Random rnd) {
    if (rnd.nextInt(3) > 0) {
      return rnd.nextInt(10) == 0 ? "metadata." + pick(rnd, KEYS) : pick(rnd, KEYS);
    }
    return BuiltInField.values()[rnd.nextInt(BuiltInField.values().length)].wireName();
  }

  private static Filter randomComparison(Random rnd) {
    String name = randomFieldName(rnd);
    BuiltInField b = dev.engram.filter.Field.of(name).builtIn();
    Op op = Op.values()[rnd.nextInt(Op.values().length)];
    boolean time = b != null && b.kind() == BuiltInField.Kind.TIME;
    if (time && (op == Op.CONTAINS || op == Op.ICONTAINS)) {
      op = Op.GTE;
    }
    if (op.isSet()) {
      List<Object> values = new ArrayList<>();
      int n = 1 + rnd.nextInt(3);
      for (int i = 0; i < n; i++) {
        values.add(randomValue(rnd, b, op));
      }
      return Filter.compare(name, op, values);
    }
    return Filter.compare(name, op, randomValue(rnd, b, op));
  }

  private static Object randomValue(Random rnd, BuiltInField b, Op op) {
    boolean textOnly = op == Op.CONTAINS || op == Op.ICONTAINS;
    if (b == null) {
      int kind = textOnly ? 0 : rnd.nextInt(op.isRange() ? 2 : 3);
      return switch (kind) {
        case 0 -> pick(rnd, STRINGS);
        case 1 -> pick(rnd, NUMBERS);
        default -> rnd.nextBoolean();
      };
    }
    return switch (b) {
      case USER_ID -> rnd.nextBoolean() ? "alice" : "bob";
      case AGENT_ID -> "bot1";
      case RUN_ID -> rnd.nextBoolean() ? "r1" : "r";
      case ACTOR_ID ->
          textOnly ? pick(rnd, new String[] {"ar", "MEL", "o", ""}) : pick(rnd, ACTORS);
      case ROLE -> pick(rnd, new String[] {"user", "assistant", "tool", "system", "USER", "s"});
      case HASH -> textOnly ? "a" : Hashes.md5(pick(rnd, WORDS));
      case MEMORY ->
          textOnly
              ? pick(rnd, new String[] {"tea", "TEA", "ärger", "😀", " ", "ik"})
              : pick(rnd, WORDS);
      case SOURCE_ID -> textOnly ? pick(rnd, new String[] {"D1", "d1", ":7"}) : pick(rnd, SOURCES);
      case CREATED_AT, UPDATED_AT ->
          rnd.nextBoolean()
              ? BASE.plusSeconds(rnd.nextInt(52)).plusNanos(rnd.nextInt(3) * 1_000L)
              : BASE.plusSeconds(rnd.nextInt(52)).toString();
      case EVENT_TIME -> BASE.minusSeconds(rnd.nextInt(6));
      case EXPIRATION_DATE ->
          rnd.nextBoolean()
              ? TODAY.plusDays(rnd.nextInt(7) - 3).toString()
              : TODAY.plusDays(rnd.nextInt(7) - 3).atStartOfDay().plusSeconds(rnd.nextInt(3) - 1)
                  + "Z";
    };
  }

  private static <T> T pick(Random rnd, T[] values) {
    return values[rnd.nextInt(values.length)];
  }
}
