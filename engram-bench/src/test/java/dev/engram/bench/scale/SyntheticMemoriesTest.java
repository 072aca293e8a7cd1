package dev.engram.bench.scale;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SyntheticMemoriesTest {

  @Test
  void factsHaveTenToFortyWordsMetadataAndEventTimes() {
    SyntheticMemories g = new SyntheticMemories(7);
    Set<String> categories = new HashSet<>();
    Set<String> texts = new HashSet<>();
    int shortest = Integer.MAX_VALUE;
    int longest = 0;
    for (int i = 0; i < 20_000; i++) {
      SyntheticMemories.Fact f = g.next();
      int words = SyntheticMemories.countWords(f.text());
      shortest = Math.min(shortest, words);
      longest = Math.max(longest, words);
      assertThat(f.text()).endsWith(".").doesNotContain("{").doesNotContain("}");
      assertThat(Character.isUpperCase(f.text().charAt(0))).as(f.text()).isTrue();
      assertThat(f.metadata())
          .containsEntry("source", "synthetic")
          .containsKeys("category", "importance");
      assertThat((Integer) f.metadata().get("importance")).isBetween(1, 5);
      assertThat(f.eventTime())
          .isBetween(Instant.parse("2022-01-01T00:00:00Z"), Instant.parse("2025-01-01T00:00:00Z"));
      categories.add((String) f.metadata().get("category"));
      texts.add(f.text());
    }
    assertThat(shortest).isGreaterThanOrEqualTo(SyntheticMemories.MIN_WORDS);
    assertThat(longest).isLessThanOrEqualTo(SyntheticMemories.MAX_WORDS).isGreaterThanOrEqualTo(30);
    assertThat(categories)
        .containsExactlyInAnyOrder(
            "work",
            "food",
            "health",
            "pets",
            "family",
            "travel",
            "hobbies",
            "plans",
            "preferences");
    assertThat(texts.size()).as("distinct texts").isGreaterThan(17_000);
  }

  @Test
  void sameSeedGivesSameSequence() {
    SyntheticMemories a = new SyntheticMemories(42);
    SyntheticMemories b = new SyntheticMemories(42);
    for (int i = 0; i < 100; i++) {
      assertThat(b.next()).isEqualTo(a.next());
      assertThat(b.query()).isEqualTo(a.query());
    }
    assertThat(new SyntheticMemories(43).next()).isNotEqualTo(new SyntheticMemories(42).next());
  }

  @Test
  void queriesAreShort() {
    SyntheticMemories g = new SyntheticMemories(1);
    for (int i = 0; i < 1000; i++) {
      assertThat(SyntheticMemories.countWords(g.query())).isBetween(3, 12);
    }
  }

  @Test
  void countsWords() {
    assertThat(SyntheticMemories.countWords("")).isZero();
    assertThat(SyntheticMemories.countWords("  one  two\tthree\n")).isEqualTo(3);
  }
}
