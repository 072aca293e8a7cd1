package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Fusion;
import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.InMemoryStorage;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The fusion an engine searches with unless one is chosen ({@link Fusion#defaultFor}): the cosine
 * fusion, but reciprocal rank fusion with context embeddings, whose list joins by reciprocal ranks.
 * Read from what a search explains, on the in-memory reference backend.
 */
class DefaultFusionTest {
  private static final Scope CHAT = Scope.user("chat");

  private static String fusionSearchedWith(UnaryOperator<Engram.Builder> settings)
      throws Exception {
    try (Memory memory =
        settings
            .apply(Engram.builder().storage(InMemoryStorage.create()).embedder(new HashEmbedder()))
            .build()) {
      memory.add(
          AddRequest.builder(CHAT).user("Ada bakes sourdough to destress.").infer(false).build());
      List<SearchHit> hits =
          memory
              .search(SearchRequest.builder(CHAT, "What does Ada bake?").explain(true).build())
              .hits();
      assertThat(hits).isNotEmpty();
      return hits.get(0).details().fusion();
    }
  }

  @Test
  void anEngineWithoutContextEmbeddingsFusesByCosine() throws Exception {
    assertThat(Fusion.defaultFor(false)).isEqualTo(Fusion.COSINE);
    assertThat(fusionSearchedWith(b -> b)).isEqualTo("COSINE");
  }

  @Test
  void anEngineWithContextEmbeddingsFusesByReciprocalRanks() throws Exception {
    assertThat(Fusion.defaultFor(true)).isEqualTo(Fusion.RRF);
    assertThat(fusionSearchedWith(b -> b.contextEmbeddings(true))).isEqualTo("RRF");
  }

  @Test
  void aChosenFusionIsKeptWhateverTheContextEmbeddings() throws Exception {
    assertThat(fusionSearchedWith(b -> b.contextEmbeddings(true).fusion(Fusion.COSINE)))
        .isEqualTo("COSINE");
    assertThat(fusionSearchedWith(b -> b.fusion(Fusion.WEIGHTED))).isEqualTo("WEIGHTED");
  }
}
