package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Ranking;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.testing.InMemoryStorage;
import dev.engram.testing.TopicEmbedder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The order of the kept hits when the fusion's support gives two of them the same score: the one
 * nearer the query by its own relevance comes first, not the fusion's first. The embedder is a
 * topic fake (no model runs in tests).
 */
class ScoreOrderTest {
  private static final Scope CHAT = Scope.user("chat");
  private static final TopicEmbedder EMBEDDER =
      new TopicEmbedder(Map.of("pet", 0, "dog", 0, "cook", 1, "music", 2), 4);

  @Test
  void aHitLiftedToTheBestScoreByTheFusionComesAfterTheHitThatEarnsItByItsOwnRelevance() {
    try (Memory memory =
        Engram.builder().storage(InMemoryStorage.create()).embedder(EMBEDDER).build()) {
      // "dog" is nearest to "pet cook" by embedding (cosine 0.707) and shares no word with it;
      // "cook cook music" is
      // further (0.632) but the only keyword match, so the fusion ranks it first and its support
      // lifts it to 0.707
      String dog = memory.remember(CHAT, "dog").events().get(0).id();
      String cook = memory.remember(CHAT, "cook cook music").events().get(0).id();
      List<SearchHit> hits =
          memory
              .search(
                  SearchRequest.builder(CHAT, "pet cook")
                      .explain(true)
                      .ranking(Ranking.NONE)
                      .build())
              .hits();
      assertThat(hits).extracting(h -> h.memory().id()).containsExactly(dog, cook);
      assertThat(hits.get(1).details().fused())
          .as("the fusion's first")
          .isGreaterThan(hits.get(0).details().fused());
      assertThat(hits.get(1).score()).isEqualTo(hits.get(0).score());
      assertThat(hits.get(0).score())
          .isCloseTo(
              EMBEDDER.relevanceCalibration().probability(Math.sqrt(0.5)),
              org.assertj.core.data.Offset.offset(1e-6));
      assertThat(hits.get(1).details().semantic())
          .isCloseTo(2 / Math.sqrt(10), org.assertj.core.data.Offset.offset(1e-6));
    }
  }
}
