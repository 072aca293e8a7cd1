package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.ValidationException;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Index failures at run time, injected around the real Lucene index of a real data directory
 * ({@link FaultySearchIndex}): a failed search recreates the index from the record and succeeds on
 * the retry, a failed index write never fails the acknowledged add, and a caller's own error
 * recreates nothing.
 */
class IndexRunTimeFaultTest {
  private static final Scope ALICE = Scope.user("alice");

  @TempDir Path dir;

  private FaultySearchIndex faulty;

  @Test
  void aFailedSearchRecreatesTheIndexFromTheRecordAndIsRetried() {
    try (Memory memory = open()) {
      String id = add(memory, "I keep three beehives");
      faulty.failNextSearches(1);

      assertThat(memory.search(SearchRequest.builder(ALICE, "beehives").build()).hits())
          .extracting(h -> h.memory().id())
          .containsExactly(id);
      assertThat(faulty.recreated()).isEqualTo(1);
      assertThat(dir.resolve("index.broken")).isDirectory();
      assertThat(memory.search(SearchRequest.builder(ALICE, "beehives").build()).hits()).hasSize(1);
      assertThat(faulty.recreated()).isEqualTo(1);
    }
    try (Memory memory = open()) {
      assertThat(memory.search(SearchRequest.builder(ALICE, "beehives").build()).hits()).hasSize(1);
    }
  }

  @Test
  void failedIndexWritesNeverFailAnAcknowledgedAdd() {
    try (Memory memory = open()) {
      add(memory, "I keep three beehives");
      // the add's own apply and the catch-up of the repair fail: the index is recreated and rebuilt
      faulty.failNextApplies(2);
      String second = add(memory, "I sell honey at the market");
      assertThat(memory.list(ListRequest.of(ALICE)).total()).isEqualTo(2);

      assertThat(memory.search(SearchRequest.builder(ALICE, "honey market").build()).hits())
          .extracting(h -> h.memory().id())
          .contains(second);
      assertThat(faulty.recreated()).isEqualTo(1);

      String third = add(memory, "I painted the hives blue");
      assertThat(memory.search(SearchRequest.builder(ALICE, "painted hives blue").build()).hits())
          .extracting(h -> h.memory().id())
          .contains(third);
    }
  }

  @Test
  void aCallersOwnErrorRecreatesNothing() {
    try (Memory memory = open()) {
      add(memory, "I keep three beehives");
      faulty
          .throwing(() -> new ValidationException("filters", "injected bad filter"))
          .failNextSearches(1);

      assertThatThrownBy(() -> memory.search(SearchRequest.builder(ALICE, "beehives").build()))
          .isInstanceOf(ValidationException.class);
      assertThat(faulty.recreated()).isZero();
      assertThat(memory.search(SearchRequest.builder(ALICE, "beehives").build()).hits()).hasSize(1);
    }
  }

  private static String add(Memory memory, String text) {
    return memory
        .add(AddRequest.builder(ALICE).user(text).infer(false).build())
        .events()
        .get(0)
        .id();
  }

  private Memory open() {
    EmbeddedStorage storage = EmbeddedStorage.open(dir, 64);
    faulty = FaultySearchIndex.around(storage);
    return Engram.builder().storage(faulty.in(storage)).embedder(new HashEmbedder()).build();
  }
}
