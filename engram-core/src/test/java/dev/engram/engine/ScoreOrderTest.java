package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Fusion;
import dev.engram.Memory;
import dev.engram.Ranking;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.testing.InMemoryStorage;
import dev.engram.testing.TopicEmbedder;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * The order of the kept hits when the fusion's support gives two of them the same score. "dog" is
 * nearest to "pet cook" by embedding (cosine 0.707) and shares no word with it; "cook cook music"
 * is further (0.632) but the only keyword match, so every fusion ranks it first and its support
 * lifts it to dog's relevance. Under a score fusion (cosine, the default) the tie goes to the own
 * relevance times the share of the best fused score, which the keyword match earns here; under
 * reciprocal rank fusion to the own relevance alone. The embedder is a topic fake (no model runs in
 * tests).
 */
class ScoreOrderTest {
  private static final Scope CHAT = Scope.user("chat");
  private static final TopicEmbedder EMBEDDER =
      new TopicEmbedder(Map.of("pet", 0, "dog", 0, "cook", 1, "music", 2), 4);

  @Test
  void underTheCosineFusionTheFusionsFirstKeepsItsPlaceWhenItsShareOutweighsTheNearerHit() {
    assertTiedInOrder(Fusion.COSINE, "cook cook music", "dog");
  }

  @Test
  void underReciprocalRankFusionTheHitNearerByItsOwnRelevanceComesFirst() {
    assertTiedInOrder(Fusion.RRF, "dog", "cook cook music");
  }

  /**
   * The two hits come in the order given, both at dog's own relevance (which "dog" earns by its
   * embedding), and the fusion ranks "cook cook music" first.
   */
  private static void assertTiedInOrder(Fusion fusion, String first, String second) {
    List<SearchHit> hits = search(fusion);
    assertThat(hits).extracting(h -> h.memory().text()).containsExactly(first, second);
    Map<String, SearchHit> byText =
        hits.stream().collect(Collectors.toMap(h -> h.memory().text(), h -> h));
    SearchHit dog = byText.get("dog");
    SearchHit cook = byText.get("cook cook music");
    assertThat(cook.score()).isEqualTo(dog.score());
    assertThat(dog.score())
        .isCloseTo(
            EMBEDDER.relevanceCalibration().probability(Math.sqrt(0.5)), Offset.offset(1e-6));
    assertThat(cook.details().fused())
        .as("the fusion's first")
        .isGreaterThan(dog.details().fused());
  }

  private static List<SearchHit> search(Fusion fusion) {
    try (Memory memory =
        Engram.builder()
            .storage(InMemoryStorage.create())
            .embedder(EMBEDDER)
            .fusion(fusion)
            .build()) {
      memory.remember(CHAT, "dog");
      memory.remember(CHAT, "cook cook music");
      return memory
          .search(
              SearchRequest.builder(CHAT, "pet cook").explain(true).ranking(Ranking.NONE).build())
          .hits();
    }
  }
}
