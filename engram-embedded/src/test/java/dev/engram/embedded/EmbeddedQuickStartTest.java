package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Scope;
import dev.engram.SearchResult;
import dev.engram.onnx.OnnxEmbedders;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Use it from Java" example, line for line, on the real default: the embedded storage
 * and the in-process ONNX embedder found on the class path, no setting given.
 */
class EmbeddedQuickStartTest {
  @TempDir Path tmp;

  @Test
  void theReadmeExampleRemembersAndFinds() {
    Path dataDir = tmp.resolve("engram-data");
    List<String> printed = new ArrayList<>();

    // --- the README's five lines (System.out.println replaced by printed::add)
    try (Memory memory = Engram.embedded(dataDir)) {
      memory.add(Scope.user("alice"), "I adopted a puppy called Max");
      SearchResult result = memory.search(Scope.user("alice"), "what pet does Alice have?");
      result.hits().forEach(hit -> printed.add(hit.memory().text()));
    }
    // ---

    assertThat(printed).isNotEmpty();
    assertThat(printed.get(0)).contains("puppy called Max");
    assertThat(dataDir.resolve(EmbeddedStorage.DATABASE_FILE)).exists();
  }

  @Test
  void theDefaultsAreTheEmbeddedStorageAndTheOnnxEmbedderAndTheDataStays() {
    Path dataDir = tmp.resolve("data");
    try (Memory memory = Engram.embedded(dataDir)) {
      memory.remember(Scope.user("bob"), "Bob is allergic to peanuts");
      assertThat(memory.tenant()).isEqualTo("default");
    }
    // the builder form with the default embedder: the directory records bge-small, so only it opens
    // the directory
    try (Memory memory = Engram.builder().storage(EmbeddedStorage.at(dataDir)).build()) {
      assertThat(memory.list(Scope.user("bob")).items())
          .extracting(MemoryItem::text)
          .containsExactly("Bob is allergic to peanuts");
      assertThat(memory.search(Scope.user("bob"), "food allergies", 1).hits()).hasSize(1);
    }
    try (Memory memory =
        Engram.builder()
            .embedded(dataDir)
            .embedder(OnnxEmbedders.byName(OnnxEmbedders.MINILM))
            .build()) {
      throw new AssertionError("opened a bge-small directory with another model: " + memory);
    } catch (dev.engram.DimensionMismatchException expected) {
      assertThat(expected).hasMessageContaining(OnnxEmbedders.BGE_SMALL);
    }
  }

  @Test
  void theBuilderFormTakesSettings() {
    Path dataDir = tmp.resolve("data");
    try (Memory memory = Engram.builder().embedded(dataDir).tenant("acme").build()) {
      assertThat(memory.tenant()).isEqualTo("acme");
      memory.remember(Scope.user("carol"), "Carol plays the cello");
      assertThat(memory.forTenant("default").list(Scope.user("carol")).items()).isEmpty();
      String id = memory.list(Scope.user("carol")).items().get(0).id();
      assertThat(memory.update(id, "Carol plays the viola").text())
          .isEqualTo("Carol plays the viola");
      assertThat(memory.search(Scope.user("carol"), "which instrument?").hits())
          .extracting(h -> h.memory().text())
          .containsExactly("Carol plays the viola");
    }
  }
}
