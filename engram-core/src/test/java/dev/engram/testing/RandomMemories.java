package dev.engram.testing;

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
 * Random memories whose values are built to hit the edges of the filter semantics: mixed-kind
 * lists, missing keys and null values, nested objects, -0.0 next to 0, integers next to doubles,
 * case and Unicode traps (İ, ç, fullwidth punctuation against emoji for UTF-16 ordering, an
 * unpaired surrogate), strings too long for a Lucene term, and times with nanoseconds. Backends
 * whose text type cannot hold an unpaired surrogate (PostgreSQL) ask for memories without one
 * ({@code new RandomMemories(random, false)}).
 */
public final class RandomMemories {
  /** The "today" of the generated expiration dates. */
  public static final LocalDate TODAY = LocalDate.parse("2024-06-01");

  /** Metadata keys; "role" collides by name with a built-in and must stay separate. */
  public static final List<String> KEYS = List.of("color", "size", "tags", "flag", "deep", "role");

  public static final List<String> PIECES =
      List.of(
          "a", "b", "ab", "Ab", "AB", "ba", "abc", "ç", "Ç", "İ", "i", "，", "😀", "\uFFFF", "x y",
          "", "*?\\", "a，😀", "\uD83D", "memo");
  public static final List<Object> NUMBERS =
      List.of(-2, -1.5, -0.0, 0.0, 0, 1, 1L, 1.5, new BigDecimal("2.0"), 3, 1e300);
  public static final List<String> AGENTS = List.of("a1", "a2");
  public static final List<String> ACTORS = List.of("Alice", "bob", "ç");
  public static final List<String> SOURCES = List.of("m1", "m2", "m3", "m4");
  public static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
  public static final int[] NANOS = {0, 1, 999_999, 123_456_789};

  private final Random random;
  private final List<String> pieces;
  private final List<Object> numbers;

  /** Memories drawn from {@code random}, unpaired surrogates and -0.0 included. */
  public RandomMemories(Random random) {
    this(random, true, true);
  }

  /**
   * Memories drawn from {@code random}; with {@code unpairedSurrogates} false no string holds one,
   * with {@code negativeZero} false no number is -0.0 (for stores that, like SQL, treat it as 0).
   */
  public RandomMemories(Random random, boolean unpairedSurrogates, boolean negativeZero) {
    this.random = random;
    this.pieces =
        unpairedSurrogates ? PIECES : PIECES.stream().filter(p -> !p.equals("\uD83D")).toList();
    this.numbers =
        negativeZero
            ? NUMBERS
            : NUMBERS.stream()
                .filter(n -> !(n instanceof Double d && d == 0 && 1 / d < 0))
                .toList();
  }

  /** The string pieces this generator uses. */
  public List<String> pieces() {
    return pieces;
  }

  /** A random memory of user "u" (70%) or "v", agent a1/a2/none and run r1/r2/none. */
  public MemoryItem item(String id) {
    String text = "memo " + string();
    String userId = random.nextInt(10) < 7 ? "u" : "v";
    Instant created =
        T0.plusSeconds(random.nextInt(4)).plusNanos(NANOS[random.nextInt(NANOS.length)]);
    Instant event =
        random.nextInt(10) < 3
            ? null
            : T0.minusSeconds(86_400L * random.nextInt(3))
                .plusNanos(NANOS[random.nextInt(NANOS.length)]);
    List<String> sources = new ArrayList<>();
    for (int i = random.nextInt(4); i > 0; i--) {
      sources.add(pick(SOURCES));
    }
    LocalDate expiration = random.nextInt(10) < 6 ? null : TODAY.plusDays(random.nextInt(7) - 3);
    Role role = random.nextInt(4) == 0 ? null : random.nextBoolean() ? Role.USER : Role.ASSISTANT;
    return new MemoryItem(
        id,
        text,
        Hashes.md5(text),
        metadata(),
        userId,
        maybe(AGENTS),
        maybe(List.of("r1", "r2")),
        maybe(ACTORS),
        role,
        created,
        created.plusNanos(random.nextInt(3)),
        event,
        sources,
        expiration);
  }

  /** Random metadata over {@link #KEYS}. */
  public Map<String, Object> metadata() {
    Map<String, Object> m = new LinkedHashMap<>();
    for (String key : KEYS) {
      int r = random.nextInt(20);
      if (r < 4) {
        continue;
      }
      m.put(
          key,
          r == 4
              ? null
              : r < 14 ? scalar() : r < 18 ? list() : Map.of("x", string(), "y", List.of(1)));
    }
    return m;
  }

  private List<Object> list() {
    List<Object> out = new ArrayList<>();
    for (int i = random.nextInt(5); i > 0; i--) {
      out.add(
          random.nextInt(10) == 0
              ? (random.nextBoolean() ? List.of(string()) : Map.of("x", 1))
              : scalar());
    }
    return out;
  }

  /** A metadata scalar: String, a Number of some class, or Boolean. */
  public Object scalar() {
    int r = random.nextInt(10);
    return r < 5 ? string() : r < 8 ? pick(numbers) : random.nextBoolean();
  }

  /**
   * One to three pieces, now and then far too long for a Lucene term (33,000 UTF-8 bytes of
   * fullwidth commas).
   */
  public String string() {
    StringBuilder sb = new StringBuilder();
    if (random.nextInt(50) == 0) {
      sb.append("，".repeat(11_000));
    }
    for (int i = 1 + random.nextInt(3); i > 0; i--) {
      sb.append(pick(pieces));
    }
    return sb.toString();
  }

  /** A random unit vector. */
  public float[] vector(int dim) {
    float[] v = new float[dim];
    double norm = 0;
    for (int i = 0; i < dim; i++) {
      v[i] = (float) random.nextGaussian();
      norm += (double) v[i] * v[i];
    }
    for (int i = 0; i < dim; i++) {
      v[i] = (float) (v[i] / Math.sqrt(norm));
    }
    return v;
  }

  /** A random element. */
  public <T> T pick(List<T> values) {
    return values.get(random.nextInt(values.size()));
  }

  private String maybe(List<String> values) {
    return random.nextInt(3) == 0 ? null : pick(values);
  }
}
