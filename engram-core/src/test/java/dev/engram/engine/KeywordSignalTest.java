package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Ranking;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.InMemoryStorage;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The keyword signal through the engine ({@link KeywordSignal}): a question's keyword query is its
 * words without the question words ({@link QuestionWords}), on the in-memory reference backend.
 * engram-embedded (Lucene) and engram-postgres (PostgreSQL text search) run the same tests by
 * overriding {@link #storage}.
 */
class KeywordSignalTest {
  private static final Scope CHAT = Scope.user("chat");
  private Memory memory;

  /** The storage the tests run on: the in-memory reference backend. */
  Engram.Builder storage(Engram.Builder builder) {
    return builder.storage(InMemoryStorage.create());
  }

  @BeforeEach
  void open() {
    memory = storage(Engram.builder()).embedder(new HashEmbedder()).build();
  }

  @AfterEach
  void close() throws Exception {
    memory.close();
  }

  private void remember(String text) {
    memory.add(AddRequest.builder(CHAT).user(text).infer(false).build());
  }

  /** Each memory's rank in the keyword list (0: not in it), by text. */
  private Map<String, Integer> keywordRanks(String query, Ranking ranking) {
    Map<String, Integer> out = new HashMap<>();
    for (SearchHit h :
        memory
            .search(
                SearchRequest.builder(CHAT, query).topK(10).explain(true).ranking(ranking).build())
            .hits()) {
      out.put(h.memory().text(), h.details().keywordRank());
    }
    return out;
  }

  @Test
  void aMemorySharingOnlyTheQuestionWordsIsNoKeywordMatch() {
    remember("We will see what we can do.");
    remember("Ada bakes sourdough to destress.");
    for (Ranking ranking : new Ranking[] {Ranking.NONE, Ranking.DEFAULT}) {
      Map<String, Integer> ranks = keywordRanks("What does Ada do to destress?", ranking);
      assertThat(ranks)
          .containsEntry("Ada bakes sourdough to destress.", 1)
          .containsEntry("We will see what we can do.", 0);
    }
  }

  @Test
  void aNameSpeltLikeAQuestionWordIsSearched() {
    // without "May" both share only "fair", and the shorter text would rank first
    remember("The big fair opens its gates in May.");
    remember("The fair sells cider.");
    Map<String, Integer> ranks = keywordRanks("What can we buy at the fair in May?", Ranking.NONE);
    assertThat(ranks)
        .containsEntry("The big fair opens its gates in May.", 1)
        .containsEntry("The fair sells cider.", 2);
  }

  @Test
  void aQueryOfQuestionWordsAloneStillSearchesByItsWords() {
    remember("Rain might come tomorrow.");
    remember("Ada bakes sourdough.");
    assertThat(keywordRanks("Might?", Ranking.NONE))
        .containsEntry("Rain might come tomorrow.", 1)
        .containsEntry("Ada bakes sourdough.", 0);
  }
}
