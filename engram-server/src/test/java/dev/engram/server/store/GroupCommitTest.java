package dev.engram.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.StorageException;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes from many threads at once share transactions (group commit) but keep their own outcome:
 * each returns after a commit that holds it (visible to a fresh connection, as after a kill), and
 * one that fails is rolled back alone while the writes beside it commit.
 */
class GroupCommitTest {
  @TempDir Path dir;

  @Test
  void concurrentWritesAllCommitAndAFailingOneFailsAlone() throws Exception {
    try (ServerDatabase db = ServerDatabase.open(dir)) {
      db.write(
          "create a table",
          c -> {
            try (PreparedStatement ps =
                c.prepareStatement("CREATE TABLE t (n INTEGER PRIMARY KEY)")) {
              ps.execute();
            }
            return null;
          });
      int threads = 16;
      int each = 50;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      ConcurrentHashMap<Integer, Throwable> failures = new ConcurrentHashMap<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < each; i++) {
                    int n = thread * each + i;
                    try {
                      db.write(
                          "insert " + n,
                          c -> {
                            insert(c, n);
                            if (n % 10 == 7) {
                              insert(c, n); // a duplicate key: this write fails, and only this one
                            }
                            return null;
                          });
                      assertThat(count(dir, n)).as("committed before returning: %s", n).isOne();
                    } catch (StorageException e) {
                      failures.put(n, e);
                    }
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(120, TimeUnit.SECONDS);
      }
      pool.shutdown();
      int total = threads * each;
      assertThat(failures.keySet()).allMatch(n -> n % 10 == 7);
      assertThat(failures).hasSize(total / 10);
      for (int n = 0; n < total; n++) {
        assertThat(count(dir, n)).as("row %s", n).isEqualTo(n % 10 == 7 ? 0 : 1);
      }
      assertThatThrownBy(
              () ->
                  db.write(
                      "fail",
                      c -> {
                        throw new IllegalArgumentException("a bug in a write");
                      }))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  private static void insert(java.sql.Connection c, int n) throws java.sql.SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO t (n) VALUES (?)")) {
      ps.setInt(1, n);
      ps.executeUpdate();
    }
  }

  /** Rows with {@code n}, read by a connection of its own: only what is committed. */
  private static int count(Path dir, int n) throws java.sql.SQLException {
    try (var c =
            java.sql.DriverManager.getConnection(
                "jdbc:sqlite:" + dir.resolve(ServerDatabase.FILE_NAME));
        PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM t WHERE n = ?")) {
      ps.setInt(1, n);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }
}
