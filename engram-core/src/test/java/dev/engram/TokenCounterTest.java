package dev.engram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.testing.HashEmbedder;
import dev.engram.testing.InMemoryStorage;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenCounterTest {
  private static final Scope ALICE = Scope.user("alice");

  @Test
  void cl100kCountsAsOpenAisTokenizerDoes() {
    TokenCounter cl100k = TokenCounter.cl100k();
    assertThat(cl100k.count("")).isZero();
    assertThat(cl100k.count("hello world")).isEqualTo(2);
    assertThat(cl100k.count("Alice adopted a puppy called Max")).isEqualTo(6);
    assertThat(cl100k.count("我喜欢在早上喝绿茶")).isEqualTo(15);
    // special tokens are ordinary text: a memory cannot smuggle one in, nor make the count fail
    assertThat(cl100k.count("<|endoftext|>")).isEqualTo(7);
    // counted again (remembered) and past the remembered length: the same counts
    assertThat(cl100k.count("hello world")).isEqualTo(2);
    String passage = String.join(" ", java.util.Collections.nCopies(200, "hello world"));
    assertThat(passage.length()).isBetween(1_000, Cl100kTokenCounter.CACHED_LENGTH);
    assertThat(cl100k.count(passage)).isEqualTo(400);
    assertThat(cl100k.count(passage)).isEqualTo(400); // remembered
    String longText = String.join(" ", java.util.Collections.nCopies(3_000, "hello world"));
    assertThat(longText.length()).isGreaterThan(Cl100kTokenCounter.CACHED_LENGTH);
    assertThat(cl100k.count(longText)).isEqualTo(6_000);
    assertThatThrownBy(() -> cl100k.count(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void theRememberedCountsStayBounded() {
    Cl100kTokenCounter counter = Cl100kTokenCounter.INSTANCE;
    for (int i = 0; i <= Cl100kTokenCounter.CACHED_TEXTS; i++) {
      assertThat(counter.count("memory " + i)).isBetween(2, 4);
      assertThat(counter.remembered()).isLessThanOrEqualTo(Cl100kTokenCounter.CACHED_TEXTS);
    }
    assertThat(counter.count("hello world")).isEqualTo(2);
  }

  @Test
  void theRememberedCharactersStayBounded() {
    Cl100kTokenCounter counter = Cl100kTokenCounter.INSTANCE;
    String filler = "hello world ".repeat((Cl100kTokenCounter.CACHED_LENGTH - 20) / 12);
    int expected = counter.count(filler + "end");
    long texts = Cl100kTokenCounter.CACHED_CHARACTERS / filler.length() + 10;
    for (int i = 0; i < texts; i++) {
      assertThat(counter.count(filler + i)).isGreaterThan(600);
      assertThat(counter.rememberedCharacters())
          .isLessThanOrEqualTo(Cl100kTokenCounter.CACHED_CHARACTERS);
    }
    assertThat(counter.remembered()).isLessThan((int) texts); // forgotten once at least
    assertThat(counter.count(filler + "end")).isEqualTo(expected);
  }

  @Test
  void theEstimateIsTokenEstimator() {
    for (String text :
        List.of("", "hello world", "我喜欢在早上喝绿茶", "Alice adopted a puppy called Max")) {
      assertThat(TokenCounter.estimate().count(text)).isEqualTo(TokenEstimator.estimate(text));
    }
  }

  @Test
  void aSearchBudgetCountsWithTheEnginesCounter() {
    List<String> texts =
        List.of(
            "tea with lemon in the morning",
            "iced tea in summer",
            "green tea at noon",
            "tea before bed",
            "tea and biscuits");
    try (Memory oneTokenEach =
            Engram.builder()
                .storage(InMemoryStorage.create())
                .embedder(new HashEmbedder())
                .tokenCounter(text -> 1)
                .build();
        Memory byDefault =
            Engram.builder()
                .storage(InMemoryStorage.create())
                .embedder(new HashEmbedder())
                .build();
        Memory estimated =
            Engram.builder()
                .storage(InMemoryStorage.create())
                .embedder(new HashEmbedder())
                .tokenCounter(TokenCounter.estimate())
                .build()) {
      for (Memory m : List.of(oneTokenEach, byDefault, estimated)) {
        texts.forEach(t -> m.add(AddRequest.builder(ALICE).user(t).infer(false).build()));
      }
      assertThat(
              oneTokenEach
                  .search(SearchRequest.builder(ALICE, "tea").maxTokens(3).threshold(0).build())
                  .hits())
          .hasSize(3);
      // 14 cl100k tokens hold three of these memories (3 to 6 tokens each); the estimate (4 to 8)
      // fits only two
      List<SearchHit> exact =
          byDefault
              .search(SearchRequest.builder(ALICE, "tea").maxTokens(14).threshold(0).build())
              .hits();
      assertThat(exact.stream().mapToInt(h -> TokenCounter.cl100k().count(h.memory().text())).sum())
          .isLessThanOrEqualTo(14);
      List<SearchHit> rough =
          estimated
              .search(SearchRequest.builder(ALICE, "tea").maxTokens(14).threshold(0).build())
              .hits();
      assertThat(rough.stream().mapToInt(h -> TokenEstimator.estimate(h.memory().text())).sum())
          .isLessThanOrEqualTo(14);
      assertThat(exact).hasSizeGreaterThan(rough.size());
    }
  }

  @Test
  void aNegativeCountIsRefusedInsteadOfWideningTheBudget() {
    try (Memory broken =
        Engram.builder()
            .storage(InMemoryStorage.create())
            .embedder(new HashEmbedder())
            .tokenCounter(text -> -1)
            .build()) {
      broken.add(AddRequest.builder(ALICE).user("tea with lemon").infer(false).build());
      assertThat(broken.search(SearchRequest.builder(ALICE, "tea").threshold(0).build()).hits())
          .hasSize(1);
      assertThatThrownBy(
              () -> broken.search(SearchRequest.builder(ALICE, "tea").maxTokens(5).build()))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("never negative");
    }
  }

  @Test
  void anEngineNeedsACounter() {
    assertThatThrownBy(
            () ->
                Engram.builder()
                    .storage(InMemoryStorage.create())
                    .embedder(new HashEmbedder())
                    .tokenCounter(null)
                    .build())
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("tokenCounter"));
  }
}
