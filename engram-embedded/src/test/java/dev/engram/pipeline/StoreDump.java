package dev.engram.pipeline;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A logical dump of every table of an embedded data directory's SQLite record, for before/after
 * comparisons.
 */
final class StoreDump {
  private StoreDump() {}

  static String of(Path dataDir) {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("engram.db"));
        Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rs =
          s.executeQuery(
              "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
        while (rs.next()) {
          tables.add(rs.getString(1));
        }
      }
      StringBuilder out = new StringBuilder();
      for (String t : tables) {
        out.append("## ").append(t).append('\n');
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT * FROM \"" + t + "\"")) {
          ResultSetMetaData md = rs.getMetaData();
          while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= md.getColumnCount(); i++) {
              Object v = rs.getObject(i);
              row.append(v instanceof byte[] b ? Arrays.hashCode(b) : String.valueOf(v))
                  .append('|');
            }
            rows.add(row.toString());
          }
        }
        rows.sort(null);
        rows.forEach(r -> out.append(r).append('\n'));
      }
      return out.toString();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot dump " + dataDir, e);
    }
  }
}
