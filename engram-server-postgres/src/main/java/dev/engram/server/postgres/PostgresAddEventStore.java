package dev.engram.server.postgres;

import dev.engram.server.events.AddEvent;
import dev.engram.server.events.AddEventStore;
import dev.engram.server.events.Claim;
import dev.engram.server.events.EventStatus;
import dev.engram.server.events.Lease;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Add events in PostgreSQL ({@code server_add_events}), shared by every server on the schema. A claim is one
 * statement: the oldest claimable row is locked with {@code FOR UPDATE SKIP LOCKED} (servers claiming at once take
 * different rows and never wait for each other) and updated to RUNNING under the claimer's lease in the same
 * statement. Lease ends are epoch milliseconds from the servers' clocks, which are assumed to agree to well within
 * a lease. Does not own the pool.
 */
public final class PostgresAddEventStore implements AddEventStore {
  private static final String COLUMNS = "id, tenant, status, payload, results, error, created_at, started_at,"
      + " completed_at";
  private static final String CLAIMABLE = "(status = 'PENDING' OR (status = 'RUNNING' AND (lease_until_ms IS NULL"
      + " OR lease_until_ms <= ?)))";

  private final Transactions db;

  /** @param pool connections to the migrated schema ({@link dev.engram.postgres.PostgresPools}) */
  public PostgresAddEventStore(DataSource pool) {
    this.db = new Transactions(Objects.requireNonNull(pool, "pool"));
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
    db.run("store an add event", c -> {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO server_add_events (id, tenant, status, payload,"
          + " created_at, started_at, owner, lease_until_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
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
          ps.setNull(8, Types.BIGINT);
        }
        ps.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public Optional<Claim> claimNext(Lease lease, Instant now) {
    return db.run("claim an add event", c -> {
      try (PreparedStatement ps = c.prepareStatement("WITH next AS (SELECT id, status FROM server_add_events"
          + " WHERE " + CLAIMABLE + " ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)"
          + " UPDATE server_add_events e SET status = 'RUNNING', owner = ?, lease_until_ms = ?, started_at = ?"
          + " FROM next WHERE e.id = next.id RETURNING e.id, e.tenant, e.status, e.payload, e.results, e.error,"
          + " e.created_at, e.started_at, e.completed_at, next.status")) {
        ps.setLong(1, now.toEpochMilli());
        ps.setString(2, lease.owner());
        ps.setLong(3, lease.until().toEpochMilli());
        ps.setString(4, now.toString());
        try (ResultSet rs = ps.executeQuery()) {
          if (!rs.next()) {
            return Optional.empty();
          }
          return Optional.of(new Claim(event(rs), rs.getString(10).equals(EventStatus.RUNNING.name())));
        }
      }
    });
  }

  @Override
  public int renewLeases(Lease lease, Collection<String> ids) {
    if (ids.isEmpty()) {
      return 0;
    }
    return db.run("renew add event leases", c -> {
      try (PreparedStatement ps = c.prepareStatement("UPDATE server_add_events SET lease_until_ms = ?"
          + " WHERE owner = ? AND status = 'RUNNING' AND id = ANY (?)")) {
        ps.setLong(1, lease.until().toEpochMilli());
        ps.setString(2, lease.owner());
        ps.setArray(3, c.createArrayOf("text", ids.toArray()));
        return ps.executeUpdate();
      }
    });
  }

  /** Ends every lease; never called by the servers on this store, which is shared ({@link #singleProcess()}). */
  @Override
  public int endAllLeases(Instant now) {
    return db.run("end add event leases", c -> {
      try (PreparedStatement ps = c.prepareStatement("UPDATE server_add_events SET lease_until_ms = ?"
          + " WHERE status = 'RUNNING'")) {
        ps.setLong(1, now.toEpochMilli());
        return ps.executeUpdate();
      }
    });
  }

  @Override
  public boolean markSucceeded(String id, String owner, String resultsJson, Instant at) {
    return finish("mark an add event succeeded", "UPDATE server_add_events SET status = 'SUCCEEDED', results = ?,"
        + " error = NULL, completed_at = ?, lease_until_ms = NULL WHERE id = ? AND owner = ? AND status = 'RUNNING'",
        resultsJson, at.toString(), id, owner);
  }

  @Override
  public boolean markFailed(String id, String owner, String error, Instant at) {
    return finish("mark an add event failed", "UPDATE server_add_events SET status = 'FAILED', error = ?,"
        + " completed_at = ?, lease_until_ms = NULL WHERE id = ? AND owner = ? AND status = 'RUNNING'", error,
        at.toString(), id, owner);
  }

  private boolean finish(String what, String sql, String... args) {
    return db.run(what, c -> {
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
    return db.run("read an add event", c -> query(c, "SELECT " + COLUMNS + " FROM server_add_events"
        + " WHERE tenant = ? AND id = ?", tenant, id).stream().findFirst());
  }

  @Override
  public List<AddEvent> list(String tenant, int offset, int limit) {
    return db.run("list add events", c -> query(c, "SELECT " + COLUMNS + " FROM server_add_events WHERE tenant = ?"
        + " ORDER BY seq DESC LIMIT " + Math.max(0, limit) + " OFFSET " + Math.max(0, offset), tenant));
  }

  @Override
  public long count(String tenant) {
    return count("count add events", "SELECT count(*) FROM server_add_events WHERE tenant = ?", tenant);
  }

  @Override
  public long countPending() {
    return count("count pending add events", "SELECT count(*) FROM server_add_events WHERE status = 'PENDING'");
  }

  @Override
  public long countUnfinished() {
    return count("count unfinished add events", "SELECT count(*) FROM server_add_events"
        + " WHERE status IN ('PENDING', 'RUNNING')");
  }

  /** False: any number of servers share the schema. */
  @Override
  public boolean singleProcess() {
    return false;
  }

  private long count(String what, String sql, String... args) {
    return db.run(what, c -> {
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

  private static List<AddEvent> query(Connection c, String sql, String... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setString(i + 1, args[i]);
      }
      List<AddEvent> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(event(rs));
        }
      }
      return out;
    }
  }

  private static AddEvent event(ResultSet rs) throws SQLException {
    return new AddEvent(rs.getString(1), rs.getString(2), EventStatus.valueOf(rs.getString(3)), rs.getString(4),
        Optional.ofNullable(rs.getString(5)), Optional.ofNullable(rs.getString(6)), Instant.parse(rs.getString(7)),
        instant(rs.getString(8)), instant(rs.getString(9)));
  }

  private static Optional<Instant> instant(String text) {
    return text == null ? Optional.empty() : Optional.of(Instant.parse(text));
  }

  /** Nothing to close: the pool belongs to the caller. */
  @Override
  public void close() {}
}
