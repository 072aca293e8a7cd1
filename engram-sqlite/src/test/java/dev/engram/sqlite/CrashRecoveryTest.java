package dev.engram.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Durability#NORMAL} keeps every acknowledged change set when the process is killed with
 * SIGKILL at a random moment, and a change set is never half there: memory pairs and their history
 * rows come and go together.
 */
class CrashRecoveryTest {
  static final long SEED = Long.getLong("engram.seed", 7L);
  static final int KILLS = 5;

  @TempDir Path dir;

  @Test
  void acknowledgedChangeSetsSurviveKillMinusNine() throws Exception {
    Random rnd = new Random(SEED);
    Path db = dir.resolve("crash.db");
    Set<String> acknowledged = new HashSet<>();
    for (int round = 0; round < KILLS; round++) {
      int acksBeforeKill = 5 + rnd.nextInt(60);
      Process child = start(db);
      try (BufferedReader out =
          new BufferedReader(
              new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        for (int seen = 0; seen < acksBeforeKill; ) {
          String line = out.readLine();
          assertThat(line).as("seed %d round %d: the child stopped early", SEED, round).isNotNull();
          if (line.startsWith("ACK ")) {
            String[] ids = line.split(" ");
            acknowledged.add(ids[1]);
            acknowledged.add(ids[2]);
            seen++;
          }
        }
        child.destroyForcibly();
        child.waitFor();
      }

      try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
        List<String> missing = new ArrayList<>();
        for (String id : acknowledged) {
          if (store.get("t1", id).isEmpty() || store.history("t1", id).size() != 1) {
            missing.add(id);
          }
        }
        assertThat(missing).as("seed %d round %d: acknowledged but lost", SEED, round).isEmpty();
        long count = store.count();
        assertThat(count % 2)
            .as("seed %d round %d: a change set was half written", SEED, round)
            .isZero();
        assertThat(store.lastSeq()).isEqualTo(count);
        assertThat(store.recentMessages("t1", dev.engram.Scope.user("alice"), 10)).hasSize(5);
      }
    }
  }

  private static Process start(Path db) throws Exception {
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    return new ProcessBuilder(
            java.toString(),
            "-cp",
            classpath,
            CrashChild.class.getName(),
            db.toString(),
            Durability.NORMAL.name())
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
  }
}
