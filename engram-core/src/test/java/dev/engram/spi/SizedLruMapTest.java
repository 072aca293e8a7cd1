package dev.engram.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link SizedLruMap}: the budget, the order of eviction, replacing, removing. */
class SizedLruMapTest {
  private final SizedLruMap<String, String> map = new SizedLruMap<>(10, String::length);

  @Test
  void theLeastRecentlyUsedGoFirstWhenTheBudgetIsPassed() {
    map.put("a", "aaaa");
    map.put("b", "bbbb");
    assertThat(map.get("a")).contains("aaaa"); // a is now the most recently used
    map.put("c", "cc");
    assertThat(map.size()).isEqualTo(10);
    map.put("d", "d");
    assertThat(map.get("b")).isEmpty();
    assertThat(map.get("a")).contains("aaaa");
    assertThat(map.get("c")).contains("cc");
    assertThat(map.get("d")).contains("d");
    assertThat(map.size()).isEqualTo(7);
    assertThat(map.count()).isEqualTo(3);
  }

  @Test
  void replacingCountsTheNewSizeAndTooLargeAValueLeavesTheKeyEmpty() {
    map.put("a", "aaaa");
    map.put("a", "aa");
    assertThat(map.size()).isEqualTo(2);
    map.put("a", "aaaaaaaaaaa");
    assertThat(map.get("a")).isEmpty();
    assertThat(map.size()).isZero();
  }

  @Test
  void removingByKeyOrByTestFreesTheirSize() {
    map.put("t1/a", "aa");
    map.put("t1/b", "bbb");
    map.put("t2/a", "a");
    map.remove("t1/a");
    map.remove("missing");
    assertThat(map.size()).isEqualTo(4);
    map.removeIf((key, value) -> key.startsWith("t1/"));
    assertThat(map.get("t1/b")).isEmpty();
    assertThat(map.get("t2/a")).contains("a");
    assertThat(map.size()).isEqualTo(1);
  }

  @Test
  void aZeroBudgetKeepsNothingAndANegativeOneIsRefused() {
    SizedLruMap<String, String> none = new SizedLruMap<>(0, String::length);
    none.put("a", "a");
    assertThat(none.get("a")).isEmpty();
    assertThat(none.budget()).isZero();
    assertThatThrownBy(() -> new SizedLruMap<String, String>(-1, String::length))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("budget");
  }
}
