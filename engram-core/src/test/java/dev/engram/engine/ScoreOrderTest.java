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
    List<SearchHit> hits = search(Fusion.COSINE);
    assertThat(hits).extracting(h -> h.memory().text()).containsExactly("cook cook music", "dog");
    assertTied(hits, hits.get(1));
    assertThat(hits.get(0).details().fused())
        .as("the fusion's first")
        .isGreaterThan(hits.get(1).details().fused());
  }

  @Test
  void underReciprocalRankFusionTheHitNearerByItsOwnRelevanceComesFirst() {
    List<SearchHit> hits = search(Fusion.RRF);
    assertThat(hits).extracting(h -> h.memory().text()).containsExactly("dog", "cook cook music");
    assertTied(hits, hits.get(0));
    assertThat(hits.get(1).details().fused())
        .as("the fusion's first")
        .isGreaterThan(hits.get(0).details().fused());
  }

  /** Both hits score dog's own relevance, which {@code dog} earns by its embedding. */
  private static void assertTied(List<SearchHit> hits, SearchHit dog) {
    assertThat(hits.get(0).score()).isEqualTo(hits.get(1).score());
    assertThat(dog.score())
        .isCloseTo(
            EMBEDDER.relevanceCalibration().probability(Math.sqrt(0.5)), Offset.offset(1e-6));
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
