package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.Engram;
import dev.engram.EventType;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryEvent;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The offline extractor's check for near-verbatim repeats on the real index (SQLite and Lucene): a
 * repeat is found by its words in the scope's full-text index, and only there: another user's or
 * tenant's memory never makes a fact a repeat.
 */
class OfflineRepeatsScenarioTest {
  private static final Instant MAY_8 = Instant.parse("2023-05-08T13:56:00Z");
  private static final String FIRST =
      "Caroline adopted a playful puppy named Max from the shelter in Boston.";
  private static final String REPEAT =
      "Caroline adopted a playful puppy named Max from the animal shelter in Boston.";

  @TempDir Path dir;

  private static List<EventType> say(Memory memory, Scope scope, String text) {
    AddResult r =
        memory.add(
            AddRequest.builder(scope)
                .message(new Message(Role.USER, text, "Caroline", MAY_8, null))
                .build());
    return r.events().stream().map(MemoryEvent::event).toList();
  }

  @Test
  void aNearVerbatimRepeatIsFoundByItsWordsInItsOwnScopeOnly() {
    Scope alice = Scope.user("alice");
    try (Memory memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .build()) {
      assertThat(say(memory, alice, FIRST)).containsExactly(EventType.ADD);
      // filler memories that share some words, so the repeat has to be ranked first among several
      // candidates
      assertThat(
              say(memory, alice, "Melanie adopted two cats from a shelter in Boston last spring."))
          .containsExactly(EventType.ADD);
      assertThat(say(memory, alice, "Caroline walks her neighbour's puppy every Sunday morning."))
          .containsExactly(EventType.ADD);

      assertThat(say(memory, alice, REPEAT))
          .as("a repeat in the same scope")
          .containsExactly(EventType.NOOP);
      assertThat(say(memory, alice, "Caroline adopted a kitten named Luna."))
          .as("a new fact")
          .containsExactly(EventType.ADD);
      assertThat(memory.list(ListRequest.of(alice)).items()).hasSize(4);

      assertThat(say(memory, Scope.user("bob"), REPEAT))
          .as("another user's scope")
          .containsExactly(EventType.ADD);
      assertThat(say(memory.forTenant("other"), alice, REPEAT))
          .as("another tenant")
          .containsExactly(EventType.ADD);
    }
  }

  /**
   * The repeat check reads the index without refreshing it: a repeat is found whether its original
   * was written before the last search (the searchers see it) or after it (only the writes since
   * the last refresh hold it).
   */
  @Test
  void aRepeatIsFoundBeforeAndAfterTheIndexIsRefreshedBySearches() {
    Scope alice = Scope.user("alice");
    String painted = "Caroline painted a sunrise over the lake near her home last summer.";
    String paintedAgain = "Caroline painted a sunrise over the lake near her home last summer!";
    try (Memory memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .indexCommitInterval(Duration.ofHours(1))
            .build()) {
      assertThat(say(memory, alice, FIRST)).containsExactly(EventType.ADD);
      assertThat(memory.search(SearchRequest.builder(alice, "puppy").build()).hits()).isNotEmpty();
      assertThat(say(memory, alice, painted)).containsExactly(EventType.ADD);

      assertThat(say(memory, alice, REPEAT))
          .as("written before the search")
          .containsExactly(EventType.NOOP);
      assertThat(say(memory, alice, paintedAgain))
          .as("written after it")
          .containsExactly(EventType.NOOP);
      assertThat(memory.list(ListRequest.of(alice)).items())
          .extracting(MemoryItem::text)
          .containsExactlyInAnyOrder(FIRST, painted);
    }
  }
}
