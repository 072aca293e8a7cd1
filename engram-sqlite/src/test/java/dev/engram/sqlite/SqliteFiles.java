package dev.engram.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.ChangePipelines;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.StoredMemory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Plain JDBC on a database file behind the store's back: to read what it wrote, or to write as an
 * older version.
 */
final class SqliteFiles {
  private SqliteFiles() {}

  /** The first column of every row {@code sql} selects. */
  static List<String> rows(Path db, String sql) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      List<String> out = new ArrayList<>();
      while (rs.next()) {
        out.add(rs.getString(1));
      }
      return out;
    }
  }

  /**
   * A database file {@code db} as an Engram from before {@code table.column} left it: {@code
   * memory} added (tenant {@code t1}, raw) by today's store, then the column dropped behind its
   * back.
   */
  static void writeWithoutColumn(Path db, StoredMemory memory, String table, String column)
      throws Exception {
    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      store.apply(
          ChangeSet.of("t1", List.of(MemoryChange.add(memory, null, null, ChangePipelines.RAW))));
    }
    exec(db, "ALTER TABLE " + table + " DROP COLUMN " + column);
    assertThat(
            rows(
                db,
                "SELECT name FROM pragma_table_info('"
                    + table
                    + "') WHERE name = '"
                    + column
                    + "'"))
        .isEmpty();
  }

  /** Runs each statement in its own autocommit. */
  static void exec(Path db, String... statements) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }
}
