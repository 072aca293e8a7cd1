package dev.engram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.spi.EmbeddingSpec;
import dev.engram.spi.Storage;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.InMemoryStorage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The builder's defaults in the core alone, where neither engram-embedded nor engram-onnx is on the
 * class path: the errors name the missing module, and a factory is called once with the embedder's
 * spec, or not at all.
 */
class EngramDefaultsTest {
  @TempDir Path tmp;

  @Test
  void withoutEngramEmbeddedTheEmbeddedDefaultNamesTheModule() {
    assertThatThrownBy(() -> Engram.embedded(tmp))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("dev.engram:engram-embedded");
  }

  @Test
  void withoutEngramOnnxAMissingEmbedderIsNamedAndTheFactoryIsNotCalled() {
    AtomicBoolean called = new AtomicBoolean();
    assertThatThrownBy(
            () ->
                Engram.builder()
                    .storage(
                        spec -> {
                          called.set(true);
                          return InMemoryStorage.create();
                        })
                    .build())
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("embedder"))
        .hasMessageContaining("dev.engram:engram-onnx");
    assertThat(called).isFalse();
  }

  @Test
  void aNullEmbedderIsRefusedNotReplacedByTheDefault() {
    assertThatThrownBy(
            () -> Engram.builder().storage(spec -> InMemoryStorage.create()).embedder(null).build())
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("embedder"))
        .hasMessageContaining("is required");
  }

  @Test
  void theFactoryIsCalledOnceWithTheEmbeddersSpecAndItsStorageClosedWithTheMemory() {
    List<EmbeddingSpec> specs = new ArrayList<>();
    AtomicBoolean closed = new AtomicBoolean();
    try (Memory memory =
        Engram.builder()
            .embedder(new HashEmbedder(16, "hash-16"))
            .storage(
                spec -> {
                  specs.add(spec);
                  return closing(InMemoryStorage.create(), closed);
                })
            .build()) {
      memory.remember(Scope.user("alice"), "Alice keeps bees");
      assertThat(memory.search(Scope.user("alice"), "bees").hits()).hasSize(1);
    }
    assertThat(specs).containsExactly(new EmbeddingSpec("hash-16", 16));
    assertThat(closed).isTrue();
  }

  @Test
  void aFailureAfterTheFactoryOpenedTheStorageClosesIt() {
    AtomicBoolean closed = new AtomicBoolean();
    Storage recorded = InMemoryStorage.create();
    recorded.records().recordEmbeddingSpec(new EmbeddingSpec("other-model", 16));
    assertThatThrownBy(
            () ->
                Engram.builder()
                    .embedder(new HashEmbedder(16, "hash-16"))
                    .storage(spec -> closing(recorded, closed))
                    .build())
        .isInstanceOf(DimensionMismatchException.class);
    assertThat(closed).isTrue();
  }

  /** {@code storage}, noting its close in {@code closed}. */
  private static Storage closing(Storage storage, AtomicBoolean closed) {
    return new Storage() {
      @Override
      public dev.engram.spi.MemoryStore records() {
        return storage.records();
      }

      @Override
      public dev.engram.spi.SearchIndex index() {
        return storage.index();
      }

      @Override
      public void close() throws java.io.IOException {
        closed.set(true);
        storage.close();
      }
    };
  }
}
