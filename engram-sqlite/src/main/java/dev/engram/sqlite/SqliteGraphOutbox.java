package dev.engram.sqlite;

import dev.engram.StorageException;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.GraphChangesJson;
import dev.engram.spi.GraphOutbox;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The graph outbox of a {@link SqliteMemoryStore}: the {@code graph_outbox} table, one row per
 * change set written with {@link dev.engram.spi.ChangeSet#graphToOutbox()}, in the same transaction
 * as its memory changes. The graph changes are kept as {@link GraphChangesJson} text; {@code seq}
 * is an AUTOINCREMENT key, so entries are read back in the order they were written. Thread-safe.
 */
final class SqliteGraphOutbox implements GraphOutbox {
  private static final String INSERT =
      "INSERT INTO " + Schema.GRAPH_OUTBOX + " (tenant, changes) VALUES (?, ?)";
  private static final String PENDING =
      "SELECT seq, tenant, changes FROM " + Schema.GRAPH_OUTBOX + " ORDER BY seq";
  private static final String DONE = "DELETE FROM " + Schema.GRAPH_OUTBOX + " WHERE seq = ?";

  private final Connections db;

  SqliteGraphOutbox(Connections db) {
    this.db = db;
  }

  /** Adds an entry inside the caller's write transaction. */
  static void write(Handle h, String tenant, GraphChanges changes) throws SQLException {
    PreparedStatement ps = h.cached(INSERT);
    ps.setString(1, tenant);
    ps.setString(2, GraphChangesJson.encode(changes));
    ps.executeUpdate();
  }

  /**
   * {@inheritDoc}
   *
   * @throws StorageException if SQLite fails or an entry cannot be decoded
   */
  @Override
  public List<Pending> pending() {
    return db.read(
        "read the graph outbox",
        h -> {
          List<Pending> out = new ArrayList<>();
          try (ResultSet rs = h.cached(PENDING).executeQuery()) {
            while (rs.next()) {
              long seq = rs.getLong(1);
              GraphChanges changes;
              try {
                changes = GraphChangesJson.decode(rs.getString(3));
              } catch (IllegalArgumentException e) {
                throw new StorageException(
                    "graph outbox entry "
                        + seq
                        + " of SQLite store "
                        + db.file()
                        + " cannot be decoded: "
                        + e.getMessage(),
                    e);
              }
              out.add(new Pending(seq, rs.getString(2), changes));
            }
          }
          return out;
        });
  }

  @Override
  public void done(long seq) {
    db.write(
        "remove graph outbox entry " + seq,
        h -> {
          PreparedStatement ps = h.cached(DONE);
          ps.setLong(1, seq);
          ps.executeUpdate();
          return null;
        });
  }

  @Override
  public String toString() {
    return "SqliteGraphOutbox[" + db.file() + "]";
  }
}
