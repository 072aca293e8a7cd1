package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.DataDirectoryLockedException;
import dev.engram.DimensionMismatchException;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.sqlite.Durability;
import dev.engram.testing.HashEmbedder;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The data directory: layout, the process lock, damaged indexes and the dimension check. */
class EmbeddedStorageTest {
  private static final Scope ALICE = Scope.user("alice");

  @TempDir Path tmp;

  @Test
  void openCreatesTheDirectoryLayoutAndCloseIsIdempotent() throws Exception {
    Path dir = tmp.resolve("a/b/engram-data");
    EmbeddedStorage storage = EmbeddedStorage.open(dir, 64);
    assertThat(storage.dataDir()).isEqualTo(dir.toAbsolutePath());
    assertThat(dir.resolve("engram.db")).isRegularFile();
    assertThat(dir.resolve("engram.lock")).isRegularFile();
    assertThat(dir.resolve("index")).isDirectory();
    assertThat(storage.records().count()).isZero();
    assertThat(storage.index().state().documents()).isZero();
    storage.close();
    storage.close();
    EmbeddedStorage.open(dir, 64, Durability.FULL).close();
  }

  @Test
  void aSecondOpenInTheSameJvmIsRefusedUntilTheFirstCloses() throws Exception {
    Path dir = tmp.resolve("data");
    try (EmbeddedStorage first = EmbeddedStorage.open(dir, 64)) {
      assertThatThrownBy(() -> EmbeddedStorage.open(dir, 64))
          .isInstanceOf(DataDirectoryLockedException.class)
          .hasMessageContaining(dir.toAbsolutePath().toString())
          .hasMessageContaining("locked by another process");
      assertThat(first.records().count()).isZero();
    }
    EmbeddedStorage.open(dir, 64).close();
  }

  @Test
  void aDirectoryHeldByAnotherProcessIsRefused() throws Exception {
    Path dir = tmp.resolve("data");
    Process holder = ChildJvm.start(tmp, LockHolder.class, "hold", dir.toString());
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      assertThat(line).as("child stderr: %s", ChildJvm.stderr(tmp)).startsWith("LOCKED ");

      assertThatThrownBy(() -> EmbeddedStorage.open(dir, 64))
          .isInstanceOf(DataDirectoryLockedException.class);

      holder.getOutputStream().close();
      assertThat(holder.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(holder.exitValue()).as("child stderr: %s", ChildJvm.stderr(tmp)).isZero();
    } finally {
      holder.destroyForcibly();
    }
    EmbeddedStorage.open(dir, 64).close();
  }

  @Test
  void anotherProcessIsRefusedWhileThisOneHoldsTheDirectory() throws Exception {
    Path dir = tmp.resolve("data");
    try (EmbeddedStorage storage = EmbeddedStorage.open(dir, 64)) {
      assertThat(runTry(dir)).startsWith("REFUSED data directory " + dir.toAbsolutePath());
    }
    assertThat(runTry(dir)).isEqualTo("OPENED " + dir.toAbsolutePath());
  }

  private String runTry(Path dir) throws Exception {
    Process p = ChildJvm.start(tmp, LockHolder.class, "try", dir.toString());
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as("child stderr: %s", ChildJvm.stderr(tmp)).isZero();
      return out;
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void aCorruptIndexIsRecreatedAndRebuiltFromTheRecord() throws Exception {
    Path dir = tmp.resolve("data");
    List<String> ids = new ArrayList<>();
    try (Memory memory = open(dir)) {
      for (int i = 0; i < 10; i++) {
        ids.add(
            memory
                .add(AddRequest.builder(ALICE).user("remember item" + i).infer(false).build())
                .events()
                .get(0)
                .id());
      }
    }
    try (Stream<Path> files = Files.list(dir.resolve("index"))) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        if (!f.getFileName().toString().equals("write.lock")) {
          Files.write(f, "this is not a lucene file".getBytes(StandardCharsets.UTF_8));
        }
      }
    }

    try (Memory memory = open(dir)) {
      for (int i = 0; i < 10; i++) {
        assertThat(
                memory
                    .search(SearchRequest.builder(ALICE, "item" + i).build())
                    .hits()
                    .get(0)
                    .memory()
                    .id())
            .isEqualTo(ids.get(i));
      }
    }
  }

  @Test
  void aDimensionMismatchIsReportedBeforeTheIndexIsTouchedAndReleasesTheLock() throws Exception {
    Path dir = tmp.resolve("data");
    try (Memory memory = open(dir)) {
      memory.add(AddRequest.builder(ALICE).user("sixty-four floats").infer(false).build());
    }

    assertThatThrownBy(() -> EmbeddedStorage.open(dir, 384))
        .isInstanceOf(DimensionMismatchException.class)
        .hasMessageContaining("64-dimensional embeddings from model 'test-hash-64'")
        .hasMessageContaining("384-dimensional");

    try (Memory memory = open(dir)) {
      assertThat(memory.search(SearchRequest.builder(ALICE, "floats").build()).hits()).hasSize(1);
    }
  }

  private static Memory open(Path dir) {
    return Engram.builder()
        .storage(EmbeddedStorage.open(dir, 64))
        .embedder(new HashEmbedder())
        .build();
  }
}
