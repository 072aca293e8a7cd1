package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.GraphRelation;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.TokenCounter;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search with a token budget and the graph on (the offline graph on the embedded store): memories
 * and relations together fit into the budget, relations take at most their share of it and never
 * repeat a returned memory's text.
 */
class GraphBudgetTest {
  private static final Scope CONV = Scope.user("conv");
  private static final Instant MAY = Instant.parse("2023-05-08T13:56:00Z");
  private static final List<String> SAID =
      List.of(
          "Melanie painted a sunrise at the lake.", "Melanie ran a charity race for mental health.",
          "Caroline went to the support group with Melanie.",
              "Melanie took her kids camping in Oregon.",
          "Caroline is researching adoption agencies.",
              "Melanie signed up for a pottery class in Boston.",
          "Jon opened a dance studio in Paris.", "Melanie read a book about Rome.",
          "Caroline gave a talk at a school in Denver.",
              "Melanie and Caroline watched fireworks in Ohio.");

  @TempDir Path dir;
  @TempDir Path plainDir;

  private static int tokens(SearchResult r) {
    return r.hits().stream().mapToInt(h -> TokenCounter.cl100k().count(h.memory().text())).sum()
        + r.relations().stream().mapToInt(g -> TokenCounter.cl100k().count(g.fact())).sum();
  }

  @Test
  void memoriesAndRelationsShareTheBudget() {
    try (Memory memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .graph(OfflineGraphExtractor.create())
            .build()) {
      for (int i = 0; i < SAID.size(); i++) {
        memory.add(
            AddRequest.builder(CONV)
                .message(new Message(Role.USER, SAID.get(i), "Narrator", MAY, "d" + i))
                .infer(false)
                .build());
      }
      String query = "What did Melanie do?";
      SearchResult unbudgeted = memory.search(SearchRequest.builder(CONV, query).build());
      assertThat(unbudgeted.relations()).hasSize(SearchRequest.DEFAULT_TOP_K);

      for (int budget : List.of(20, 40, 80)) {
        SearchResult r =
            memory.search(SearchRequest.builder(CONV, query).maxTokens(budget).build());
        assertThat(tokens(r)).as("budget %d", budget).isLessThanOrEqualTo(budget);
        assertThat(
                r.relations().stream().mapToInt(g -> TokenCounter.cl100k().count(g.fact())).sum())
            .as("relations' share of %d", budget)
            .isLessThanOrEqualTo(budget * 30 / 100);
        Set<String> texts =
            r.hits().stream().map(h -> h.memory().text()).collect(Collectors.toSet());
        assertThat(r.relations())
            .extracting(GraphRelation::fact)
            .doesNotContainAnyElementsOf(texts);
        assertThat(r.hits()).isNotEmpty();
        if (budget == 40) {
          // Room for relations: the graph's entity-centred half brings memories the budgeted memory
          // search left out.
          assertThat(r.relations()).isNotEmpty();
          assertThat(r.relations()).extracting(GraphRelation::fact).allMatch(SAID::contains);
        }
      }
      // Without the graph's share the memories alone fill the same budget.
      try (Memory plain =
          Engram.builder()
              .storage(EmbeddedStorage.open(plainDir, 64))
              .embedder(new HashEmbedder())
              .build()) {
        for (int i = 0; i < SAID.size(); i++) {
          plain.add(
              AddRequest.builder(CONV)
                  .message(new Message(Role.USER, SAID.get(i), "Narrator", MAY, "d" + i))
                  .infer(false)
                  .build());
        }
        SearchResult alone = plain.search(SearchRequest.builder(CONV, query).maxTokens(80).build());
        assertThat(alone.relations()).isEmpty();
        assertThat(
                alone.hits().stream()
                    .mapToInt(h -> TokenCounter.cl100k().count(h.memory().text()))
                    .sum())
            .isLessThanOrEqualTo(80);
        List<String> withGraph =
            memory.search(SearchRequest.builder(CONV, query).maxTokens(80).build()).hits().stream()
                .map(SearchHit::memory)
                .map(m -> m.text())
                .toList();
        assertThat(alone.hits().stream().map(h -> h.memory().text()).toList())
            .containsAll(withGraph);
      }
    }
  }
}
