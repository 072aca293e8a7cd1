package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.EventType;
import dev.engram.HistoryEntry;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.MemoryUpdate;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.testing.HashEmbedder;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A damaged index never makes the record unusable: every file of the index directory (write.lock
 * included) is corrupted, truncated, deleted or filled with garbage, at rest (after a close) and
 * again between two opens; after each reopen get, list, history and search return every
 * acknowledged memory, and the index is sound again.
 */
class IndexDamageTest {
  private static final Scope ALICE = Scope.user("alice");
  private static final Scope BOB = Scope.user("bob");

  @TempDir Path tmp;

  /** Ids of acknowledged memories and their current texts. */
  private final Map<String, String> acknowledged = new LinkedHashMap<>();

  private String updatedId;
  private Path pristine;

  /** Ways to damage one file. */
  enum Damage {
    /** A few bytes in the middle overwritten. */
    CORRUPT,
    /** Cut to half its length. */
    TRUNCATE,
    DELETE,
    /** Every byte replaced by random bytes (at least 64). */
    GARBAGE
  }

  @BeforeEach
  void writePristineDataDirectory() {
    pristine = tmp.resolve("pristine");
    try (Memory memory = open(pristine)) {
      for (int i = 0; i < 6; i++) {
        remember(memory, i % 2 == 0 ? ALICE : BOB, "note number" + i + " about topic" + i);
      }
      updatedId = acknowledged.keySet().iterator().next();
      memory.update(updatedId, MemoryUpdate.text("note number0 about topic0 revised"));
      acknowledged.put(updatedId, "note number0 about topic0 revised");
      String deleted = remember(memory, ALICE, "a note that is deleted again");
      memory.delete(deleted);
      acknowledged.remove(deleted);
    }
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void everyFileDamagedAtRestIsRepairedFromTheRecord(Damage damage) throws IOException {
    List<Path> files = indexFiles(pristine);
    assertThat(files)
        .extracting(p -> p.getFileName().toString())
        .contains("write.lock")
        .anyMatch(n -> n.startsWith("segments_"));
    for (Path file : files) {
      Path dir = copy(pristine, tmp.resolve(damage + "-" + file.getFileName()));
      damage(dir.resolve("index").resolve(file.getFileName()), damage);

      try (Memory memory = open(dir)) {
        assertEverythingReadable(memory, damage + " " + file.getFileName());
      }
      try (Memory memory = open(dir)) {
        assertEverythingReadable(memory, damage + " " + file.getFileName() + ", reopened");
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void everyFileDamagedAgainBetweenTwoOpensLosesNothing(Damage damage) throws IOException {
    Path dir = copy(pristine, tmp.resolve("data"));
    for (int round = 0; round < 3; round++) {
      for (Path file : indexFiles(dir)) {
        damage(file, damage);
      }
      try (Memory memory = open(dir)) {
        assertEverythingReadable(memory, damage + " round " + round);
        remember(
            memory,
            round % 2 == 0 ? ALICE : BOB,
            "note of round" + round + " written after the damage");
      }
    }
    try (Memory memory = open(dir)) {
      assertEverythingReadable(memory, damage + " after the last round");
    }
  }

  @Test
  void aCorruptSegmentFileIsSetAsideAndTheIndexRebuilt() throws IOException {
    Path dir = copy(pristine, tmp.resolve("data"));
    Path largest =
        indexFiles(dir).stream()
            .filter(p -> p.getFileName().toString().startsWith("_"))
            .max(java.util.Comparator.comparingLong(IndexDamageTest::size))
            .orElseThrow();
    damage(largest, Damage.CORRUPT);
    try (Memory memory = open(dir)) {
      assertEverythingReadable(memory, "corrupt " + largest.getFileName());
    }
    assertThat(dir.resolve("index.broken").resolve(largest.getFileName())).isRegularFile();
  }

  private static long size(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void theWholeIndexDirectoryReplacedByAFileIsRebuilt() throws IOException {
    Path dir = copy(pristine, tmp.resolve("data"));
    EmbeddedMemoryContractTest.deleteRecursively(dir.resolve("index"));
    Files.writeString(dir.resolve("index"), "not a directory");
    try (Memory memory = open(dir)) {
      assertEverythingReadable(memory, "index is a file");
    }
  }

  @Test
  void anIndexDamagedWhileOpenIsRecreatedAndNothingIsLost() throws IOException {
    Path dir = copy(pristine, tmp.resolve("data"));
    try (Memory memory = open(dir)) {
      // Lucene refuses to commit once its lock file changed: the next commit fails at run time.
      Files.writeString(dir.resolve("index").resolve("write.lock"), "garbage in the lock file");
      remember(memory, ALICE, "a note written while the lock file was damaged");
      memory
          .add(AddRequest.builder(BOB).user("and one more note for bob").infer(false).build())
          .events()
          .forEach(e -> acknowledged.put(e.id(), e.memory()));
      assertEverythingReadable(memory, "damaged while open");
    }
    try (Memory memory = open(dir)) {
      assertEverythingReadable(memory, "reopened after damage while open");
      remember(memory, BOB, "a note written after the reopen");
      assertEverythingReadable(memory, "written after the reopen");
    }
  }

  /** get, list, history and search see exactly the acknowledged memories. */
  private void assertEverythingReadable(Memory memory, String what) {
    List<String> listed = new ArrayList<>();
    for (Scope scope : List.of(ALICE, BOB)) {
      memory.list(ListRequest.of(scope).withPage(0, 100)).items().forEach(m -> listed.add(m.id()));
    }
    assertThat(listed)
        .as("list after %s", what)
        .containsExactlyInAnyOrderElementsOf(acknowledged.keySet());
    for (Map.Entry<String, String> e : acknowledged.entrySet()) {
      MemoryItem item =
          memory
              .get(e.getKey())
              .orElseThrow(() -> new AssertionError(what + ": get " + e.getKey()));
      assertThat(item.text()).as("get after %s", what).isEqualTo(e.getValue());
      List<HistoryEntry> history = memory.history(e.getKey());
      assertThat(history).as("history after %s", what).isNotEmpty();
      assertThat(history.get(0).event()).isEqualTo(EventType.ADD);
      assertThat(history.get(history.size() - 1).newText()).isEqualTo(e.getValue());
      Scope scope = "alice".equals(item.userId()) ? ALICE : BOB;
      assertThat(memory.search(SearchRequest.builder(scope, e.getValue()).topK(3).build()).hits())
          .as("search for '%s' after %s", e.getValue(), what)
          .anySatisfy(h -> assertThat(h.memory().id()).isEqualTo(e.getKey()));
    }
    assertThat(memory.history(updatedId))
        .extracting(HistoryEntry::event)
        .containsExactly(EventType.ADD, EventType.UPDATE);
  }

  private String remember(Memory memory, Scope scope, String text) {
    String id =
        memory.add(AddRequest.builder(scope).user(text).infer(false).build()).events().get(0).id();
    acknowledged.put(id, text);
    return id;
  }

  private static Memory open(Path dir) {
    return Engram.builder()
        .storage(EmbeddedStorage.open(dir, 64))
        .embedder(new HashEmbedder())
        .build();
  }

  private static List<Path> indexFiles(Path dataDir) throws IOException {
    Path index =
        dataDir.getFileName().toString().startsWith("index") ? dataDir : dataDir.resolve("index");
    try (Stream<Path> files = Files.list(index)) {
      return files.filter(Files::isRegularFile).sorted().toList();
    }
  }

  private static void damage(Path file, Damage damage) throws IOException {
    long size = Files.size(file);
    switch (damage) {
      case CORRUPT -> {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
          f.seek(size / 2);
          f.write(new byte[] {'X', 'X', 'X', 'X', 'X', 'X', 'X', 'X'});
        }
      }
      case TRUNCATE -> {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
          f.setLength(size / 2);
        }
      }
      case DELETE -> Files.delete(file);
      case GARBAGE -> {
        byte[] garbage = new byte[(int) Math.max(64, size)];
        new Random(size).nextBytes(garbage);
        Files.write(file, garbage);
      }
      default -> throw new IllegalArgumentException(damage.name());
    }
  }

  private static Path copy(Path from, Path to) {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : paths.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
      return to;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
