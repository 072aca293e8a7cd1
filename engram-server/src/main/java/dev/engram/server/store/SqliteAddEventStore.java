package dev.engram.server.store;

import dev.engram.server.events.AddEvent;
import dev.engram.server.events.AddEventStore;
import dev.engram.server.events.EventStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Add events in {@code server.db}. */
public final class SqliteAddEventStore implements AddEventStore {
  private static final String COLUMNS = "id, tenant, status, payload, results, error, created_at, started_at,"
      + " completed_at";

  private final ServerDatabase db;
  private final boolean ownsDatabase;

  public SqliteAddEventStore(ServerDatabase db, boolean ownsDatabase) {
    this.db = Objects.requireNonNull(db, "db");
    this.ownsDatabase = ownsDatabase;
  }

  @Override
  public void insert(AddEvent e) {
    db.write("store an add event", c -> {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO add_events (" + COLUMNS + ", seq) VALUES"
          + " (?, ?, ?, ?, NULL, NULL, ?, NULL, NULL, (SELECT COALESCE(MAX(seq), 0) + 1 FROM add_events))")) {
        ps.setString(1, e.id());
        ps.setString(2, e.tenant());
        ps.setString(3, e.status().name());
        ps.setString(4, e.payload());
        ps.setString(5, e.createdAt().toString());
        ps.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public void markRunning(String id, Instant at) {
    update("mark an add event running", "UPDATE add_events SET status = 'RUNNING', started_at = ? WHERE id = ?",
        at.toString(), id);
  }

  @Override
  public void markSucceeded(String id, String resultsJson, Instant at) {
    update("mark an add event succeeded", "UPDATE add_events SET status = 'SUCCEEDED', results = ?, error = NULL,"
        + " completed_at = ? WHERE id = ?", resultsJson, at.toString(), id);
  }

  @Override
  public void markFailed(String id, String error, Instant at) {
    update("mark an add event failed", "UPDATE add_events SET status = 'FAILED', error = ?, completed_at = ?"
        + " WHERE id = ?", error, at.toString(), id);
  }

  private void update(String what, String sql, String... args) {
    db.write(what, c -> {
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        for (int i = 0; i < args.length; i++) {
          ps.setString(i + 1, args[i]);
        }
        ps.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public Optional<AddEvent> get(String tenant, String id) {
    return db.read("read an add event", c -> {
      List<AddEvent> found = query(c, "SELECT " + COLUMNS + " FROM add_events WHERE tenant = ? AND id = ?",
          tenant, id);
      return found.stream().findFirst();
    });
  }

  @Override
  public List<AddEvent> list(String tenant, int offset, int limit) {
    return db.read("list add events", c -> query(c, "SELECT " + COLUMNS + " FROM add_events WHERE tenant = ?"
        + " ORDER BY seq DESC LIMIT " + Math.max(0, limit) + " OFFSET " + Math.max(0, offset), tenant));
  }

  @Override
  public long count(String tenant) {
    return db.read("count add events", c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM add_events WHERE tenant = ?")) {
        ps.setString(1, tenant);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return rs.getLong(1);
        }
      }
    });
  }

  @Override
  public List<AddEvent> unfinished() {
    return db.read("list unfinished add events", c -> query(c, "SELECT " + COLUMNS + " FROM add_events"
        + " WHERE status IN ('PENDING', 'RUNNING') ORDER BY seq"));
  }

  private static List<AddEvent> query(Connection c, String sql, String... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setString(i + 1, args[i]);
      }
      List<AddEvent> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new AddEvent(rs.getString(1), rs.getString(2), EventStatus.valueOf(rs.getString(3)),
              rs.getString(4), Optional.ofNullable(rs.getString(5)), Optional.ofNullable(rs.getString(6)),
              Instant.parse(rs.getString(7)), instant(rs.getString(8)), instant(rs.getString(9))));
        }
      }
      return out;
    }
  }

  private static Optional<Instant> instant(String text) {
    return text == null ? Optional.empty() : Optional.of(Instant.parse(text));
  }

  @Override
  public void close() {
    if (ownsDatabase) {
      db.close();
    }
  }
}
