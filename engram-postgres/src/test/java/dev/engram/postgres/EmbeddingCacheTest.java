package dev.engram.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link EmbeddingCache}: versions, tenants and the byte budget. */
class EmbeddingCacheTest {
  private static final long ENTRY = 4 * 4 + EmbeddingCache.ENTRY_OVERHEAD; // a 4-dimensional entry

  private static float[] v(float x) {
    return new float[] {x, 0, 0, 0};
  }

  @Test
  void anEntryServesOnlyItsOwnVersionOfItsOwnTenantsRow() {
    EmbeddingCache cache = new EmbeddingCache(1 << 20);
    cache.put("t1", "m", 5, v(1));
    float[][] found = cache.lookup("t1", new String[] {"m", "m2"}, new long[] {5, 5});
    assertThat(found[0]).containsExactly(1, 0, 0, 0);
    assertThat(found[1]).isNull();
    assertThat(cache.lookup("t1", new String[] {"m"}, new long[] {6})[0])
        .as("a newer version")
        .isNull();
    assertThat(cache.lookup("t1", new String[] {"m"}, new long[] {4})[0])
        .as("an older version")
        .isNull();
    assertThat(cache.lookup("t2", new String[] {"m"}, new long[] {5})[0])
        .as("another tenant")
        .isNull();
  }

  @Test
  void aRowsTwoVectorColumnsAreSeparateEntriesUnderOneBudgetAndARemovalDropsBoth() {
    EmbeddingCache cache = new EmbeddingCache(1 << 20);
    cache.put("t", "m", 5, v(1));
    cache.put(EmbeddingCache.Column.CONTEXT_EMBEDDING, "t", "m", 5, v(2));
    assertThat(cache.lookup("t", new String[] {"m"}, new long[] {5})[0])
        .containsExactly(1, 0, 0, 0);
    float[][] context =
        cache.lookup(
            EmbeddingCache.Column.CONTEXT_EMBEDDING,
            "t",
            new String[] {"m", "n"},
            new long[] {5, 5});
    assertThat(context[0]).containsExactly(2, 0, 0, 0);
    assertThat(context[1]).isNull();
    assertThat(cache.size()).isEqualTo(2);
    assertThat(cache.bytes()).isEqualTo(2 * ENTRY);
    cache.remove("t", "m");
    assertThat(cache.size()).isZero();
    assertThat(cache.bytes()).isZero();
    assertThat(
            cache
                .lookup(
                    EmbeddingCache.Column.CONTEXT_EMBEDDING,
                    "t",
                    new String[] {"m"},
                    new long[] {5})[0])
        .isNull();
  }

  @Test
  void aNewerVersionReplacesAnOlderOneButNeverTheReverse() {
    EmbeddingCache cache = new EmbeddingCache(1 << 20);
    cache.put("t", "m", 5, v(1));
    cache.put("t", "m", 7, v(2));
    cache.put("t", "m", 6, v(3)); // a late write-through of an older commit
    assertThat(cache.lookup("t", new String[] {"m"}, new long[] {7})[0])
        .containsExactly(2, 0, 0, 0);
    assertThat(cache.size()).isEqualTo(1);
    assertThat(cache.bytes()).isEqualTo(ENTRY);
  }

  @Test
  void leastRecentlyUsedEntriesLeaveBeyondTheBudget() {
    EmbeddingCache cache = new EmbeddingCache(3 * ENTRY);
    cache.put("t", "a", 1, v(1));
    cache.put("t", "b", 2, v(2));
    cache.put("t", "c", 3, v(3));
    cache.lookup("t", new String[] {"a"}, new long[] {1}); // a is now the most recently used
    cache.put("t", "d", 4, v(4));
    assertThat(cache.size()).isEqualTo(3);
    assertThat(cache.bytes()).isEqualTo(3 * ENTRY);
    float[][] found = cache.lookup("t", new String[] {"a", "b", "c", "d"}, new long[] {1, 2, 3, 4});
    assertThat(found[0]).isNotNull();
    assertThat(found[1]).as("the least recently used").isNull();
    assertThat(found[2]).isNotNull();
    assertThat(found[3]).isNotNull();
  }

  @Test
  void anEntryLargerThanTheBudgetIsNotKept() {
    EmbeddingCache cache = new EmbeddingCache(ENTRY - 1);
    cache.put("t", "a", 1, v(1));
    assertThat(cache.size()).isZero();
    assertThat(cache.bytes()).isZero();
    assertThatThrownBy(() -> new EmbeddingCache(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void removalsFreeTheirBytes() {
    EmbeddingCache cache = new EmbeddingCache(1 << 20);
    cache.put("t1", "a", 1, v(1));
    cache.put("t1", "b", 2, v(2));
    cache.put("t2", "a", 3, v(3));
    cache.remove("t1", "a");
    assertThat(cache.lookup("t1", new String[] {"a"}, new long[] {1})[0]).isNull();
    cache.removeTenant("t1");
    assertThat(cache.size()).isEqualTo(1);
    assertThat(cache.bytes()).isEqualTo(ENTRY);
    assertThat(cache.lookup("t2", new String[] {"a"}, new long[] {3})[0])
        .containsExactly(3, 0, 0, 0);
  }

  @Test
  void theBinaryArrayFormIsDecodedAndCodePointOrderIsUtf8ByteOrder() {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(20 + 2 * 8);
    b.putInt(1)
        .putInt(0)
        .putInt(700)
        .putInt(2)
        .putInt(1)
        .putInt(4)
        .putFloat(1.5f)
        .putInt(4)
        .putFloat(-2f);
    assertThat(CachedCosineSearch.floats(b.array())).containsExactly(1.5f, -2f);
    java.nio.ByteBuffer empty = java.nio.ByteBuffer.allocate(12).putInt(0).putInt(0).putInt(700);
    assertThat(CachedCosineSearch.floats(empty.array())).isEmpty();
    String bmpHigh = "\uFF21"; // U+FF21 sorts before U+1F600 in UTF-8, after it in UTF-16 units
    String astral = new String(Character.toChars(0x1F600));
    assertThat(bmpHigh.compareTo(astral)).isPositive();
    assertThat(CachedCosineSearch.compareCodePoints(bmpHigh, astral)).isNegative();
    assertThat(CachedCosineSearch.compareCodePoints("ab", "abc")).isNegative();
    assertThat(CachedCosineSearch.compareCodePoints("abc", "abc")).isZero();
  }
}
