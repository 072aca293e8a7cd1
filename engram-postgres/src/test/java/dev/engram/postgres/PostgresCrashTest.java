package dev.engram.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.EventType;
import dev.engram.HistoryEntry;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoredMemory;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process writing to PostgreSQL is killed with SIGKILL in the middle of its writes: every write
 * it acknowledged is in the database afterwards (adds present, updates with their text, deletes
 * gone), and the database and its change feed agree (the feed's latest state of every memory is the
 * stored one, and every stored memory is in the feed).
 */
class PostgresCrashTest {
  private static final int ACKS_BEFORE_KILL = 150;

  @TempDir Path dir;

  /**
   * The plain-array path; {@link NativePgvectorCrashTest} runs these tests on the pgvector path.
   */
  PostgresSettings settingsFor(Path dir) {
    return PostgresCluster.get().settingsFor(dir);
  }

  @Test
  void acknowledgedWritesSurviveAKilledWriter() throws Exception {
    PostgresSettings settings = settingsFor(dir);
    File stderr = dir.resolve("child-stderr.log").toFile();
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m",
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-cp",
            System.getProperty("java.class.path"),
            PostgresCrashWriter.class.getName(),
            settings.url(),
            settings.schema(),
            settings.vectors().toString());
    Process child = new ProcessBuilder(command).redirectError(stderr).start();
    Map<String, String> texts = new HashMap<>();
    Set<String> deleted = new HashSet<>();
    int acks = 0;
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while (acks < ACKS_BEFORE_KILL && (line = in.readLine()) != null) {
        String[] parts = line.split(" ", 4);
        switch (parts[1]) {
          case "add" -> texts.put(parts[2], null);
          case "update" -> texts.put(parts[2], parts[3]);
          case "delete" -> deleted.add(parts[2]);
          default -> throw new AssertionError("unexpected line " + line);
        }
        acks++;
      }
      child.destroyForcibly(); // SIGKILL on Unix
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(acks)
        .as(
            "acknowledged writes before the kill; child stderr:%n%s",
            Files.exists(stderr.toPath()) ? Files.readString(stderr.toPath()) : "")
        .isEqualTo(ACKS_BEFORE_KILL);

    try (PostgresStorage storage = PostgresStorage.open(settings, 64)) {
      assertThat(storage.vectors()).as("the vector path").isEqualTo(settings.vectors());
      MemoryStore store = storage.records();
      for (Map.Entry<String, String> e : texts.entrySet()) {
        var stored = store.get("default", e.getKey());
        if (deleted.contains(e.getKey())) {
          assertThat(stored).as("deleted %s", e.getKey()).isEmpty();
          assertThat(store.history("default", e.getKey()))
              .extracting(HistoryEntry::event)
              .contains(EventType.DELETE);
        } else {
          assertThat(stored).as("acknowledged %s", e.getKey()).isPresent();
          if (e.getValue() != null) {
            assertThat(stored.get().item().text()).isEqualTo(e.getValue());
          }
        }
      }
      Map<String, StoredMemory> fromFeed = new HashMap<>();
      List<Long> seqs = new ArrayList<>();
      store.changesSince(
          0,
          c -> {
            seqs.add(c.seq());
            if (c.current() != null) {
              fromFeed.put(c.memoryId(), c.current());
            }
          });
      Map<String, String> fromTable = new HashMap<>();
      store.forEach(m -> fromTable.put(m.id(), m.item().text()));
      assertThat(fromFeed.keySet()).isEqualTo(fromTable.keySet());
      fromFeed.forEach((id, m) -> assertThat(m.item().text()).isEqualTo(fromTable.get(id)));
      assertThat(seqs).isSorted().doesNotHaveDuplicates();
      assertThat(store.lastSeq()).isEqualTo(seqs.get(seqs.size() - 1));
      assertThat(store.count()).isEqualTo(fromTable.size());
      assertThat(storage.index().state().seq()).isEqualTo(store.lastSeq());
    }
  }
}
