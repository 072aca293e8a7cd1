package dev.engram.lucene;

import dev.engram.Hashes;
import dev.engram.MemoryItem;
import dev.engram.Role;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random memories whose values are built to hit the edges of the filter semantics: mixed-kind lists, missing keys
 * and null values, nested objects, -0.0 next to 0, integers next to doubles, case and Unicode traps (İ, ç, fullwidth
 * punctuation against emoji for UTF-16 ordering, an unpaired surrogate), strings too long for a Lucene term, and
 * times with nanoseconds.
 */
final class RandomMemories {
  /** Metadata keys; "role" collides by name with a built-in and must stay separate. */
  static final List<String> KEYS = List.of("color", "size", "tags", "flag", "deep", "role");
  static final List<String> PIECES = List.of("a", "b", "ab", "Ab", "AB", "ba", "abc", "ç", "Ç", "İ", "i", "，",
      "😀", "\uFFFF", "x y", "", "*?\\", "a，😀", "\uD83D", "memo");
  static final List<Object> NUMBERS = List.of(-2, -1.5, -0.0, 0.0, 0, 1, 1L, 1.5, new BigDecimal("2.0"), 3, 1e300);
  static final List<String> AGENTS = List.of("a1", "a2");
  static final List<String> ACTORS = List.of("Alice", "bob", "ç");
  static final List<String> SOURCES = List.of("m1", "m2", "m3", "m4");
  static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
  static final int[] NANOS = {0, 1, 999_999, 123_456_789};

  private final Random random;

  RandomMemories(Random random) {
    this.random = random;
  }

  MemoryItem item(String id) {
    String text = "memo " + string();
    String userId = random.nextInt(10) < 7 ? "u" : "v";
    Instant created = T0.plusSeconds(random.nextInt(4)).plusNanos(NANOS[random.nextInt(NANOS.length)]);
    Instant event = random.nextInt(10) < 3 ? null
        : T0.minusSeconds(86_400L * random.nextInt(3)).plusNanos(NANOS[random.nextInt(NANOS.length)]);
    List<String> sources = new ArrayList<>();
    for (int i = random.nextInt(4); i > 0; i--) {
      sources.add(pick(SOURCES));
    }
    LocalDate expiration = random.nextInt(10) < 6 ? null : Docs.TODAY.plusDays(random.nextInt(7) - 3);
    Role role = random.nextInt(4) == 0 ? null : random.nextBoolean() ? Role.USER : Role.ASSISTANT;
    return new MemoryItem(id, text, Hashes.md5(text), metadata(), userId, maybe(AGENTS), maybe(List.of("r1", "r2")),
        maybe(ACTORS), role, created, created.plusNanos(random.nextInt(3)), event, sources, expiration);
  }

  Map<String, Object> metadata() {
    Map<String, Object> m = new LinkedHashMap<>();
    for (String key : KEYS) {
      int r = random.nextInt(20);
      if (r < 4) {
        continue;
      }
      m.put(key, r == 4 ? null : r < 14 ? scalar() : r < 18 ? list() : Map.of("x", string(), "y", List.of(1)));
    }
    return m;
  }

  private List<Object> list() {
    List<Object> out = new ArrayList<>();
    for (int i = random.nextInt(5); i > 0; i--) {
      out.add(random.nextInt(10) == 0 ? (random.nextBoolean() ? List.of(string()) : Map.of("x", 1)) : scalar());
    }
    return out;
  }

  /** A metadata scalar: String, a Number of some class, or Boolean. */
  Object scalar() {
    int r = random.nextInt(10);
    return r < 5 ? string() : r < 8 ? pick(NUMBERS) : random.nextBoolean();
  }

  /** One to three pieces, now and then far too long for a Lucene term (33,000 UTF-8 bytes of fullwidth commas). */
  String string() {
    StringBuilder sb = new StringBuilder();
    if (random.nextInt(50) == 0) {
      sb.append("，".repeat(11_000));
    }
    for (int i = 1 + random.nextInt(3); i > 0; i--) {
      sb.append(pick(PIECES));
    }
    return sb.toString();
  }

  float[] vector(int dim) {
    float[] v = new float[dim];
    for (int i = 0; i < dim; i++) {
      v[i] = (float) random.nextGaussian();
    }
    return Docs.unit(v);
  }

  <T> T pick(List<T> values) {
    return values.get(random.nextInt(values.size()));
  }

  private String maybe(List<String> values) {
    return random.nextInt(3) == 0 ? null : pick(values);
  }
}
