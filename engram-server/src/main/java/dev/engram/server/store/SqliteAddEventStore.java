package dev.engram.server.store;

import dev.engram.server.events.AddEvent;
import dev.engram.server.events.AddEventStore;
import dev.engram.server.events.Claim;
import dev.engram.server.events.EventStatus;
import dev.engram.server.events.Lease;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Add events in {@code server.db}. One server uses a data directory at a time ({@link #singleProcess()}); leases
 * still decide who runs an event, as in the shared stores. Lease ends are epoch milliseconds; the other times are
 * ISO-8601 text, kept exactly.
 */
public final class SqliteAddEventStore implements AddEventStore {
  private static final String COLUMNS = "id, tenant, status, payload, results, error, created_at, started_at,"
      + " completed_at";
  private static final String CLAIMABLE = "(status = 'PENDING' OR (status = 'RUNNING' AND (lease_until IS NULL"
      + " OR lease_until <= ?)))";

  private final ServerDatabase db;
  private final boolean ownsDatabase;

  public SqliteAddEventStore(ServerDatabase db, boolean ownsDatabase) {
    this.db = Objects.requireNonNull(db, "db");
    this.ownsDatabase = ownsDatabase;
  }

  @Override
  public void insert(AddEvent e) {
    insert(e, Optional.empty());
  }

  @Override
  public void insertClaimed(AddEvent e, Lease lease) {
    insert(e, Optional.of(lease));
  }

  private void insert(AddEvent e, Optional<Lease> lease) {
    db.write("store an add event", c -> {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO add_events (" + COLUMNS + ", seq, owner,"
          + " lease_until) VALUES (?, ?, ?, ?, NULL, NULL, ?, ?, NULL,"
          + " (SELECT COALESCE(MAX(seq), 0) + 1 FROM add_events), ?, ?)")) {
        ps.setString(1, e.id());
        ps.setString(2, e.tenant());
        ps.setString(3, lease.isPresent() ? EventStatus.RUNNING.name() : EventStatus.PENDING.name());
        ps.setString(4, e.payload());
        ps.setString(5, e.createdAt().toString());
        ps.setString(6, lease.isPresent() ? e.createdAt().toString() : null);
        ps.setString(7, lease.map(Lease::owner).orElse(null));
        if (lease.isPresent()) {
          ps.setLong(8, lease.get().until().toEpochMilli());
        } else {
          ps.setNull(8, java.sql.Types.INTEGER);
        }
        ps.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public Optional<Claim> claimNext(Lease lease, Instant now) {
    return db.write("claim an add event", c -> {
      String id;
      String status;
      try (PreparedStatement ps = c.prepareStatement("SELECT id, status FROM add_events WHERE " + CLAIMABLE
          + " ORDER BY seq LIMIT 1")) {
        ps.setLong(1, now.toEpochMilli());
        try (ResultSet rs = ps.executeQuery()) {
          if (!rs.next()) {
            return Optional.empty();
          }
          id = rs.getString(1);
          status = rs.getString(2);
        }
      }
      try (PreparedStatement ps = c.prepareStatement("UPDATE add_events SET status = 'RUNNING', owner = ?,"
          + " lease_until = ?, started_at = ? WHERE id = ? AND " + CLAIMABLE)) {
        ps.setString(1, lease.owner());
        ps.setLong(2, lease.until().toEpochMilli());
        ps.setString(3, now.toString());
        ps.setString(4, id);
        ps.setLong(5, now.toEpochMilli());
        if (ps.executeUpdate() != 1) {
          return Optional.empty();
        }
      }
      AddEvent claimed = query(c, "SELECT " + COLUMNS + " FROM add_events WHERE id = ?", id).get(0);
      return Optional.of(new Claim(claimed, status.equals(EventStatus.RUNNING.name())));
    });
  }

  @Override
  public int renewLeases(Lease lease, Collection<String> ids) {
    if (ids.isEmpty()) {
      return 0;
    }
    List<String> list = List.copyOf(ids);
    return db.write("renew add event leases", c -> {
      try (PreparedStatement ps = c.prepareStatement("UPDATE add_events SET lease_until = ? WHERE owner = ?"
          + " AND status = 'RUNNING' AND id IN (" + String.join(", ", java.util.Collections.nCopies(list.size(), "?"))
          + ")")) {
        ps.setLong(1, lease.until().toEpochMilli());
        ps.setString(2, lease.owner());
        for (int i = 0; i < list.size(); i++) {
          ps.setString(3 + i, list.get(i));
        }
        return ps.executeUpdate();
      }
    });
  }

  @Override
  public int endAllLeases(Instant now) {
    return db.write("end add event leases", c -> {
      try (PreparedStatement ps = c.prepareStatement("UPDATE add_events SET lease_until = ? WHERE status ="
          + " 'RUNNING'")) {
        ps.setLong(1, now.toEpochMilli());
        return ps.executeUpdate();
      }
    });
  }

  @Override
  public boolean markSucceeded(String id, String owner, String resultsJson, Instant at) {
    return update("mark an add event succeeded", "UPDATE add_events SET status = 'SUCCEEDED', results = ?,"
        + " error = NULL, completed_at = ?, lease_until = NULL WHERE id = ? AND owner = ? AND status = 'RUNNING'",
        resultsJson, at.toString(), id, owner);
  }

  @Override
  public boolean markFailed(String id, String owner, String error, Instant at) {
    return update("mark an add event failed", "UPDATE add_events SET status = 'FAILED', error = ?,"
        + " completed_at = ?, lease_until = NULL WHERE id = ? AND owner = ? AND status = 'RUNNING'", error,
        at.toString(), id, owner);
  }

  private boolean update(String what, String sql, String... args) {
    return db.write(what, c -> {
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        for (int i = 0; i < args.length; i++) {
          ps.setString(i + 1, args[i]);
        }
        return ps.executeUpdate() == 1;
      }
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
    return count("count add events", "SELECT COUNT(*) FROM add_events WHERE tenant = ?", tenant);
  }

  @Override
  public long countPending() {
    return count("count pending add events", "SELECT COUNT(*) FROM add_events WHERE status = 'PENDING'");
  }

  @Override
  public long countUnfinished() {
    return count("count unfinished add events", "SELECT COUNT(*) FROM add_events WHERE status IN ('PENDING',"
        + " 'RUNNING')");
  }

  private long count(String what, String sql, String... args) {
    return db.read(what, c -> {
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        for (int i = 0; i < args.length; i++) {
          ps.setString(i + 1, args[i]);
        }
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return rs.getLong(1);
        }
      }
    });
  }

  /** True: the data directory's lock keeps {@code server.db} to one server. */
  @Override
  public boolean singleProcess() {
    return true;
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
