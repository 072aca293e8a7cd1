package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash consistency of the graph: a child adds with the offline graph on and is killed with SIGKILL
 * at a random point; afterwards every acknowledged memory exists, and the memories and the graph
 * relations that came from them were committed together (every memory has its relations, every
 * relation's memory exists).
 */
class GraphCrashTest {
  private static final int ROUNDS = 3;

  @TempDir Path tmp;

  @Test
  void graphAndMemoriesCommitTogetherAcrossSigkill() throws Exception {
    long seed = Long.getLong("engram.crash.seed", System.nanoTime());
    Random random = new Random(seed);
    Path dir = tmp.resolve("engram-data");
    Set<String> acked = new HashSet<>();
    for (int round = 1; round <= ROUNDS; round++) {
      int target = 1 + random.nextInt(15);
      Process child =
          ChildJvm.start(
              tmp,
              GraphCrashWriter.class,
              dir.toString(),
              Integer.toString(round),
              Long.toString(random.nextLong()));
      int acks = 0;
      try (BufferedReader out =
          new BufferedReader(
              new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null) {
          if (line.startsWith("ACK add ")) {
            acked.add(line.substring(8));
            if (++acks == target) {
              child.toHandle().destroyForcibly();
            }
          }
        }
      } finally {
        child.destroyForcibly();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
      }
      assertThat(acks)
          .as("seed %d round %d; stderr:%n%s", seed, round, ChildJvm.stderr(tmp))
          .isGreaterThanOrEqualTo(target);
      Set<String> memories = ids(dir, "SELECT id FROM memories");
      Set<String> linked = new HashSet<>();
      ObjectMapper json = new ObjectMapper();
      for (String ids : ids(dir, "SELECT memory_ids FROM graph_relations")) {
        json.readTree(ids).forEach(n -> linked.add(n.asText()));
      }
      assertThat(memories).as("seed %d round %d", seed, round).containsAll(acked);
      assertThat(linked)
          .as("seed %d round %d: memories and relations", seed, round)
          .isEqualTo(memories);
    }
  }

  private static Set<String> ids(Path dir, String sql) throws Exception {
    Set<String> out = new HashSet<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("engram.db"));
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }
}
