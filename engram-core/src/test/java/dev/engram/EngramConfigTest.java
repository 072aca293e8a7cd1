package dev.engram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.spi.Storage;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.InMemoryStorage;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * {@link Engram.Config} is made only by {@link Engram.Builder#build()}: no public constructor, no
 * accessor that can answer null (what may be absent is an {@link Optional}), and every setting
 * checked once, those that do not need the storage before a factory opens one.
 */
class EngramConfigTest {
  @Test
  void theConfigHasNoPublicConstructorAndOptionalsForWhatMayBeAbsent() {
    assertThat(Engram.Config.class.isRecord()).isFalse();
    assertThat(Engram.Config.class.getConstructors()).isEmpty();
    assertThat(Modifier.isFinal(Engram.Config.class.getModifiers())).isTrue();
    assertThat(
            Arrays.stream(Engram.Config.class.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()))
                .filter(m -> m.getReturnType() == Optional.class)
                .map(Method::getName))
        .containsExactlyInAnyOrder("summarizer", "graphExtractor");
  }

  @Test
  void aNullGraphExtractorOrSummarizerIsRefusedNamingTheSetting() {
    assertThatThrownBy(() -> Engram.builder().graph(null))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("graph"));
    assertThatThrownBy(() -> Engram.builder().summarizer(null))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("summarizer"));
  }

  @Test
  void aSettingOutOfRangeIsRefusedBeforeTheFactoryIsCalled() {
    AtomicBoolean called = new AtomicBoolean();
    assertThatThrownBy(() -> builder(called).windowSize(0).build())
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("windowSize"));
    assertThatThrownBy(() -> builder(called).ids(null).build())
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("ids"));
    assertThatThrownBy(() -> builder(called).sourceContext(false).contextEmbeddings(true).build())
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("contextEmbeddings"))
        .hasMessageContaining("needs sourceContext");
    assertThat(called).isFalse();
  }

  @Test
  void aGraphMemoryWithoutAGraphStoreIsRefusedAndTheStorageClosed() {
    AtomicBoolean closed = new AtomicBoolean();
    Storage storage = InMemoryStorage.create();
    assertThatThrownBy(
            () ->
                Engram.builder()
                    .embedder(new HashEmbedder())
                    .graph(OfflineGraphExtractor.create())
                    .storage(spec -> closing(storage, closed))
                    .build())
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("graph"))
        .hasMessageContaining("has no graph store");
    assertThat(closed).isTrue();
  }

  @Test
  void theDefaultsOpenAMemory() {
    try (Memory memory =
        Engram.builder().embedder(new HashEmbedder()).storage(InMemoryStorage.create()).build()) {
      memory.remember(Scope.user("alice"), "Alice keeps bees");
      assertThat(memory.search(Scope.user("alice"), "bees").hits()).hasSize(1);
    }
  }

  private static Engram.Builder builder(AtomicBoolean factoryCalled) {
    return Engram.builder()
        .embedder(new HashEmbedder())
        .storage(
            spec -> {
              factoryCalled.set(true);
              return InMemoryStorage.create();
            });
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
