package dev.engram.lucene;

import static dev.engram.lucene.Docs.ids;
import static dev.engram.lucene.Docs.query;
import static dev.engram.lucene.Docs.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.engram.Scope;
import dev.engram.StorageException;
import dev.engram.spi.IndexField;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.SearchIndex.IndexState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexOpeningTest {
  @TempDir Path dir;

  @Test
  void anIndexOfAnotherDimensionIsReplacedByAnEmptyOne() {
    Path dir = this.dir.resolve("index");
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, 4)) {
      index.apply(List.of(upsert("t", "m1", "tea", "alice", 4, 0)), 3, 2);
      index.commit();
    }
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, 8)) {
      assertThat(index.state()).isEqualTo(new IndexState(0, 0, 0));
      index.apply(List.of(upsert("t", "m2", "tea", "alice", 8, 5)), 1, 1);
      assertThat(
              ids(
                  index.dense(
                      query("t", Scope.user("alice")), IndexField.TEXT, Docs.axis(8, 5), 5)))
          .containsExactly("m2");
    }
  }

  @Test
  void anUnreadableIndexIsSetAsideAndReplacedByAnEmptyOne() throws IOException {
    Path dir = this.dir.resolve("index");
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, 4)) {
      index.apply(List.of(upsert("t", "m1", "tea", "alice", 4, 0)), 3, 2);
      index.commit();
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f :
          files.filter(p -> p.getFileName().toString().startsWith("segments_")).toList()) {
        Files.write(f, new byte[] {1, 2, 3});
      }
    }
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, 4)) {
      assertThat(index.state()).isEqualTo(new IndexState(0, 0, 0));
      index.apply(List.of(upsert("t", "m2", "tea", "alice", 4, 0)), 1, 1);
      assertThat(index.state().documents()).isEqualTo(1);
    }
    assertThat(this.dir.resolve("index.broken")).isDirectory();
    try (Stream<Path> files = Files.list(this.dir.resolve("index.broken"))) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .anyMatch(n -> n.startsWith("segments_"));
    }
  }

  @Test
  void aChecksumMismatchInsideASegmentIsFoundAtOpen() throws IOException {
    Path dir = this.dir.resolve("index");
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, 4)) {
      index.apply(List.of(upsert("t", "m1", "tea", "alice", 4, 0)), 3, 2);
      index.commit();
    }
    assertThat(IndexOpening.problem(dir, 4)).isEmpty();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".cfs")).toList()) {
        byte[] bytes = Files.readAllBytes(f);
        bytes[bytes.length / 2] ^= 0x5A;
        Files.write(f, bytes);
      }
    }
    assertThat(IndexOpening.problem(dir, 4))
        .hasValueSatisfying(p -> assertThat(p).contains("cannot be read"));
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, 4)) {
      assertThat(index.state()).isEqualTo(new IndexState(0, 0, 0));
    }
  }

  @Test
  void aLockFileWithContentIsAProblemAndRecreateStartsEmpty() throws IOException {
    Path dir = this.dir.resolve("index");
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, 4)) {
      index.apply(List.of(upsert("t", "m1", "tea", "alice", 4, 0)), 3, 2);
      index.commit();
      Files.writeString(dir.resolve("write.lock"), "garbage");
      assertThatThrownBy(index::commit).isInstanceOf(RuntimeException.class);
      assertThat(IndexOpening.problem(dir, 4))
          .hasValueSatisfying(p -> assertThat(p).contains("write.lock"));
      index.recreate();
      assertThat(index.state()).isEqualTo(new IndexState(0, 0, 0));
      index.apply(List.of(upsert("t", "m2", "tea", "alice", 4, 0)), 4, 2);
      index.commit();
      assertThat(
              ids(
                  index.dense(
                      query("t", Scope.user("alice")), IndexField.TEXT, Docs.axis(4, 0), 5)))
          .containsExactly("m2");
    }
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, 4)) {
      assertThat(index.state()).isEqualTo(new IndexState(2, 4, 1));
    }
  }

  @Test
  void vectorsWiderThanLucenesDefaultLimitWorkAcrossReopen() {
    int dim = 1536;
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, dim)) {
      index.apply(
          List.of(
              upsert("t", "x", "tea", "alice", dim, 7),
              upsert("t", "y", "tea", "alice", dim, 1500)),
          2,
          1);
    }
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, dim)) {
      assertThat(index.state()).isEqualTo(new IndexState(1, 2, 2));
      List<Candidate> hits =
          index.dense(query("t", Scope.user("alice")), IndexField.TEXT, Docs.axis(dim, 1500), 1);
      assertThat(ids(hits)).containsExactly("y");
      assertThat(hits.get(0).score()).isCloseTo(1.0, within(1e-6));
    }
  }

  @Test
  void aDirectoryHeldByAnotherWriterIsRefused() {
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, 4)) {
      assertThatThrownBy(() -> LuceneSearchIndex.open(dir, 4))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("locked")
          .hasMessageContaining(dir.toString());
      index.apply(List.of(upsert("t", "m1", "tea", "alice", 4, 0)), 1, 1);
      assertThat(index.state().documents()).isEqualTo(1);
    }
  }

  @Test
  void dimensionsOutsideTheSupportedRangeAreRejected() {
    assertThatThrownBy(() -> LuceneSearchIndex.open(dir, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dimension")
        .hasMessageContaining("0");
    assertThatThrownBy(() -> LuceneSearchIndex.open(dir, 5000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("4096");
  }
}
