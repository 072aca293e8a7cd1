package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.DimensionMismatchException;
import dev.engram.Engram;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.ValidationException;
import dev.engram.sqlite.Durability;
import dev.engram.sqlite.SqliteMemoryStore;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code Engram.builder().build()} on a real data directory: an invalid setting fails with a {@link
 * ValidationException} naming it, and every failure closes the storage, so the directory opens
 * again.
 */
class BuildFailureTest {
  private static final Scope ALICE = Scope.user("alice");

  @TempDir Path tmp;

  static Stream<Arguments> invalidSettings() {
    return Stream.of(
        Arguments.of(
            "candidatesPerSignal", (UnaryOperator<Engram.Builder>) b -> b.candidatesPerSignal(0)),
        Arguments.of("windowSize", (UnaryOperator<Engram.Builder>) b -> b.windowSize(-1)),
        Arguments.of("maxTextLength", (UnaryOperator<Engram.Builder>) b -> b.maxTextLength(0)),
        Arguments.of(
            "maxMessagesPerAdd", (UnaryOperator<Engram.Builder>) b -> b.maxMessagesPerAdd(0)),
        Arguments.of("asyncThreads", (UnaryOperator<Engram.Builder>) b -> b.asyncThreads(0)),
        Arguments.of(
            "indexCommitInterval",
            (UnaryOperator<Engram.Builder>) b -> b.indexCommitInterval(Duration.ZERO)),
        Arguments.of(
            "graphEntityThreshold",
            (UnaryOperator<Engram.Builder>) b -> b.graphEntityThreshold(1.5)),
        Arguments.of(
            "graphAmbiguityFloor", (UnaryOperator<Engram.Builder>) b -> b.graphAmbiguityFloor(0)),
        Arguments.of("tenant", (UnaryOperator<Engram.Builder>) b -> b.tenant(" ")),
        Arguments.of("embedder", (UnaryOperator<Engram.Builder>) b -> b.embedder(null)),
        Arguments.of("clock", (UnaryOperator<Engram.Builder>) b -> b.clock(null)),
        Arguments.of("inference", (UnaryOperator<Engram.Builder>) b -> b.inference(null)),
        Arguments.of(
            "inference",
            (UnaryOperator<Engram.Builder>) b -> b.inference(new BadlyNamedInference())));
  }

  /** An inference whose pipeline name cannot be written to history rows. */
  private static final class BadlyNamedInference implements dev.engram.spi.MemoryInference {
    @Override
    public java.util.List<PlannedChange> plan(InferenceContext context) {
      return java.util.List.of();
    }

    @Override
    public String pipelineName() {
      return "My Pipeline";
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidSettings")
  void anInvalidSettingIsNamedAndReleasesTheDataDirectory(
      String setting, UnaryOperator<Engram.Builder> invalid) {
    Path dir = tmp.resolve("data");
    try (Memory memory = open(dir)) {
      memory.add(AddRequest.builder(ALICE).user("I keep bees").infer(false).build());
    }

    Engram.Builder builder =
        Engram.builder().storage(EmbeddedStorage.open(dir, 64)).embedder(new HashEmbedder());
    assertThatThrownBy(() -> invalid.apply(builder).build())
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo(setting))
        .hasMessageStartingWith(setting + ": ");

    try (Memory memory = open(dir)) {
      assertThat(memory.list(ListRequest.of(ALICE)).items())
          .extracting(m -> m.text())
          .containsExactly("I keep bees");
    }
  }

  @Test
  void aMissingStorageIsNamed() {
    assertThatThrownBy(() -> Engram.builder().embedder(new HashEmbedder()).build())
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("storage"));
  }

  @Test
  void anEmbedderOfAnotherModelFailsTheBuildAndReleasesTheDataDirectory() {
    Path dir = tmp.resolve("data");
    try (Memory memory = open(dir)) {
      memory.add(AddRequest.builder(ALICE).user("I keep bees").infer(false).build());
    }

    assertThatThrownBy(
            () ->
                Engram.builder()
                    .storage(EmbeddedStorage.open(dir, 64))
                    .embedder(new HashEmbedder(64, "another-model"))
                    .build())
        .isInstanceOf(DimensionMismatchException.class)
        .hasMessageContaining("another-model");

    try (Memory memory = open(dir)) {
      assertThat(memory.list(ListRequest.of(ALICE)).total()).isEqualTo(1);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidSettings")
  void anInvalidSettingIsNamedBeforeTheStorageFactoryOpensAnything(
      String setting, UnaryOperator<Engram.Builder> invalid) {
    Path dir = tmp.resolve("never-created");
    Engram.Builder builder =
        Engram.builder().storage(EmbeddedStorage.at(dir)).embedder(new HashEmbedder());
    assertThatThrownBy(() -> invalid.apply(builder).build())
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo(setting));
    assertThat(dir).doesNotExist();
  }

  @Test
  void aFactoryOpenedStorageIsClosedWhenTheEmbedderDoesNotMatch() {
    Path dir = tmp.resolve("data");
    try (Memory memory =
        Engram.builder().storage(EmbeddedStorage.at(dir)).embedder(new HashEmbedder()).build()) {
      memory.add(AddRequest.builder(ALICE).user("I keep bees").infer(false).build());
    }

    assertThatThrownBy(
            () ->
                Engram.builder()
                    .storage(EmbeddedStorage.at(dir))
                    .embedder(new HashEmbedder(64, "another-model"))
                    .build())
        .isInstanceOf(DimensionMismatchException.class)
        .hasMessageContaining("another-model");
    assertThatThrownBy(
            () ->
                Engram.builder()
                    .storage(EmbeddedStorage.at(dir))
                    .embedder(new HashEmbedder(32, "hash-32"))
                    .build())
        .isInstanceOf(DimensionMismatchException.class);

    try (Memory memory =
        Engram.builder().storage(EmbeddedStorage.at(dir)).embedder(new HashEmbedder()).build()) {
      assertThat(memory.list(ALICE).items())
          .extracting(m -> m.text())
          .containsExactly("I keep bees");
    }
  }

  @Test
  void theFactoryGetsTheEmbeddersModelAndDimension() {
    Path dir = tmp.resolve("data");
    java.util.List<dev.engram.spi.EmbeddingSpec> seen = new java.util.ArrayList<>();
    try (Memory memory =
        Engram.builder()
            .storage(
                spec -> {
                  seen.add(spec);
                  return EmbeddedStorage.open(dir, spec.dimension());
                })
            .embedder(new HashEmbedder(48, "hash-48"))
            .build()) {
      memory.add(AddRequest.builder(ALICE).user("I keep bees").infer(false).build());
    }
    assertThat(seen).containsExactly(new dev.engram.spi.EmbeddingSpec("hash-48", 48));
  }

  @Test
  void aFactoryThatOpensNothingIsNamed() {
    assertThatThrownBy(
            () -> Engram.builder().storage(spec -> null).embedder(new HashEmbedder()).build())
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("storage"));
  }

  @Test
  void invalidStorageSettingsAreNamed() {
    assertThatThrownBy(() -> EmbeddedStorage.at(null))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("dataDir"));
    assertThatThrownBy(() -> EmbeddedStorage.at(tmp).durability(null))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("durability"));
    assertThatThrownBy(() -> EmbeddedStorage.at(tmp).recordCacheBytes(-1))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("recordCacheBytes"));
    assertThatThrownBy(() -> EmbeddedStorage.open(tmp.resolve("d"), 64, Durability.NORMAL, -1))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("recordCacheBytes"));
    assertThat(EmbeddedStorage.at(tmp).durability(Durability.FULL).recordCacheBytes(0))
        .isEqualTo(new EmbeddedStorage.Opener(tmp, Durability.FULL, 0));
    assertThat(EmbeddedStorage.at(tmp).recordCacheBytes())
        .isEqualTo(SqliteMemoryStore.defaultRecordCacheBytes());
    assertThatThrownBy(() -> EmbeddedStorage.open(tmp.resolve("d"), 0))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("dimension"));
    assertThatThrownBy(() -> Engram.embedded(null))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("dataDir"));
  }

  private static Memory open(Path dir) {
    return Engram.builder()
        .storage(EmbeddedStorage.open(dir, 64))
        .embedder(new HashEmbedder())
        .build();
  }
}
