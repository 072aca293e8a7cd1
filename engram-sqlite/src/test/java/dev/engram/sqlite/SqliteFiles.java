package dev.engram.sqlite;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Plain JDBC on a database file behind the store's back: to read what it wrote, or to write as an older version. */
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

  /** Runs each statement in its own autocommit. */
  static void exec(Path db, String... statements) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }
}
