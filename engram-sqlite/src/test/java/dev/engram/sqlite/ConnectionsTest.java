package dev.engram.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Connections}: what every connection of a store is opened with. */
class ConnectionsTest {
  @TempDir Path dir;

  private static long mmapSize(Handle h) throws java.sql.SQLException {
    try (Statement st = h.connection().createStatement();
        ResultSet rs = st.executeQuery("PRAGMA mmap_size")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void readersAndTheWriterReadTheFileMemoryMapped() throws Exception {
    try (Connections c = Connections.open(dir.resolve("engram.db"), Durability.NORMAL)) {
      assertThat(c.write("read mmap_size", ConnectionsTest::mmapSize))
          .isEqualTo(Connections.MMAP_BYTES);
      assertThat(c.read("read mmap_size", ConnectionsTest::mmapSize))
          .isEqualTo(Connections.MMAP_BYTES);
      // a reader opened while another is borrowed is opened the same way
      long nested =
          c.read("borrow one reader", h -> c.read("read mmap_size", ConnectionsTest::mmapSize));
      assertThat(nested).isEqualTo(Connections.MMAP_BYTES);
    }
  }
}
