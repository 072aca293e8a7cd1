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
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Add events in a SQL table: the one implementation behind {@code server.db} ({@link
 * SqliteAddEventStore}) and PostgreSQL ({@code PostgresAddEventStore}). A subclass gives the table,
 * the column of the lease's end, how a new row gets its sequence number and how the oldest
 * claimable event is claimed ({@link #claimNext}), which is where one server's file and a database
 * shared by several servers differ. Lease ends are epoch milliseconds; the other times are ISO-8601
 * text, kept exactly.
 */
public abstract class JdbcAddEventStore implements AddEventStore {
  /** The columns {@link #event} reads, in its order. */
  protected static final String COLUMNS =
      "id, tenant, status, payload, results, error, created_at, started_at," + " completed_at";

  private final SqlTransactions db;
  private final String table;
  private final String leaseColumn;

  /**
   * @param db where the SQL runs
   * @param table the events' table (a constant of the subclass, never user input)
   * @param leaseColumn the column holding a lease's end in epoch milliseconds (a constant too)
   */
  protected JdbcAddEventStore(SqlTransactions db, String table, String leaseColumn) {
    this.db = Objects.requireNonNull(db, "db");
    this.table = Objects.requireNonNull(table, "table");
    this.leaseColumn = Objects.requireNonNull(leaseColumn, "leaseColumn");
  }

  /**
   * The SQL value of a new row's {@code seq}: an expression, or {@code DEFAULT} where the column
   * has one.
   */
  protected abstract String newSeq();

  /** Where the SQL runs. */
  protected final SqlTransactions db() {
    return db;
  }

  /** The events' table. */
  protected final String table() {
    return table;
  }

  /** The lease column. */
  protected final String leaseColumn() {
    return leaseColumn;
  }

  /** The condition of a claimable row, with one parameter: now in epoch milliseconds. */
  protected final String claimable() {
    return "(status = 'PENDING' OR (status = 'RUNNING' AND ("
        + leaseColumn
        + " IS NULL OR "
        + leaseColumn
        + " <= ?)))";
  }

  @Override
  public void insert(AddEvent e) {
    if (e.status() != EventStatus.PENDING) {
      throw new IllegalArgumentException("a new event must be PENDING, got " + e.status());
    }
    write("store an add event", e, Optional.empty());
  }

  @Override
  public void insertFinished(AddEvent e, String owner) {
    if (e.status() != EventStatus.SUCCEEDED && e.status() != EventStatus.FAILED) {
      throw new IllegalArgumentException(
          "a finished event must be SUCCEEDED or FAILED, got " + e.status());
    }
    write("store a finished add event", e, Optional.of(owner));
  }

  private void write(String what, AddEvent e, Optional<String> owner) {
    db.write(
        what,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO "
                      + table
                      + " (id, tenant, status, payload, results, error,"
                      + " created_at, started_at, completed_at, owner, seq)"
                      + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                      + newSeq()
                      + ")")) {
            ps.setString(1, e.id());
            ps.setString(2, e.tenant());
            ps.setString(3, e.status().name());
            ps.setString(4, e.payload());
            ps.setString(5, e.results().orElse(null));
            ps.setString(6, e.error().orElse(null));
            ps.setString(7, e.createdAt().toString());
            ps.setString(8, e.startedAt().map(Instant::toString).orElse(null));
            ps.setString(9, e.completedAt().map(Instant::toString).orElse(null));
            ps.setString(10, owner.orElse(null));
            ps.executeUpdate();
          }
          return null;
        });
  }

  @Override
  public int renewLeases(Lease lease, Collection<String> ids) {
    if (ids.isEmpty()) {
      return 0;
    }
    List<String> list = List.copyOf(ids);
    return db.write(
        "renew add event leases",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE "
                      + table
                      + " SET "
                      + leaseColumn
                      + " = ?"
                      + " WHERE owner = ? AND status = 'RUNNING' AND id IN ("
                      + String.join(", ", Collections.nCopies(list.size(), "?"))
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
    return db.write(
        "end add event leases",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE "
                      + table
                      + " SET "
                      + leaseColumn
                      + " = ?"
                      + " WHERE status = 'RUNNING'")) {
            ps.setLong(1, now.toEpochMilli());
            return ps.executeUpdate();
          }
        });
  }

  @Override
  public boolean markSucceeded(String id, String owner, String resultsJson, Instant at) {
    return finish(
        "mark an add event succeeded",
        "UPDATE "
            + table
            + " SET status = 'SUCCEEDED', results = ?,"
            + " error = NULL, completed_at = ?, "
            + leaseColumn
            + " = NULL WHERE id = ? AND owner = ?"
            + " AND status = 'RUNNING'",
        resultsJson,
        at.toString(),
        id,
        owner);
  }

  @Override
  public boolean markFailed(String id, String owner, String error, Instant at) {
    return finish(
        "mark an add event failed",
        "UPDATE "
            + table
            + " SET status = 'FAILED', error = ?,"
            + " completed_at = ?, "
            + leaseColumn
            + " = NULL WHERE id = ? AND owner = ? AND status = 'RUNNING'",
        error,
        at.toString(),
        id,
        owner);
  }

  private boolean finish(String what, String sql, String... args) {
    return db.write(
        what,
        c -> {
          try (PreparedStatement ps = prepare(c, sql, args)) {
            return ps.executeUpdate() == 1;
          }
        });
  }

  @Override
  public Optional<AddEvent> get(String tenant, String id) {
    return db.read(
        "read an add event",
        c ->
            query(
                    c,
                    "SELECT " + COLUMNS + " FROM " + table + " WHERE tenant = ? AND id = ?",
                    tenant,
                    id)
                .stream()
                .findFirst());
  }

  @Override
  public List<AddEvent> list(String tenant, int offset, int limit) {
    return db.read(
        "list add events",
        c ->
            query(
                c,
                "SELECT "
                    + COLUMNS
                    + " FROM "
                    + table
                    + " WHERE tenant = ?"
                    + " ORDER BY seq DESC LIMIT "
                    + Math.max(0, limit)
                    + " OFFSET "
                    + Math.max(0, offset),
                tenant));
  }

  @Override
  public long count(String tenant) {
    return count("count add events", "SELECT COUNT(*) FROM " + table + " WHERE tenant = ?", tenant);
  }

  @Override
  public long countPending() {
    return count(
        "count pending add events", "SELECT COUNT(*) FROM " + table + " WHERE status = 'PENDING'");
  }

  @Override
  public long countUnfinished() {
    return count(
        "count unfinished add events",
        "SELECT COUNT(*) FROM " + table + " WHERE status IN ('PENDING', 'RUNNING')");
  }

  private long count(String what, String sql, String... args) {
    return db.read(
        what,
        c -> {
          try (PreparedStatement ps = prepare(c, sql, args);
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
          }
        });
  }

  /** The events {@code sql} (selecting {@link #COLUMNS}) finds with these text parameters. */
  protected static List<AddEvent> query(Connection c, String sql, String... args)
      throws SQLException {
    try (PreparedStatement ps = prepare(c, sql, args);
        ResultSet rs = ps.executeQuery()) {
      List<AddEvent> out = new ArrayList<>();
      while (rs.next()) {
        out.add(event(rs));
      }
      return out;
    }
  }

  /** The event in the current row, whose first columns are {@link #COLUMNS}. */
  protected static AddEvent event(ResultSet rs) throws SQLException {
    return new AddEvent(
        rs.getString(1),
        rs.getString(2),
        EventStatus.valueOf(rs.getString(3)),
        rs.getString(4),
        Optional.ofNullable(rs.getString(5)),
        Optional.ofNullable(rs.getString(6)),
        Instant.parse(rs.getString(7)),
        instant(rs.getString(8)),
        instant(rs.getString(9)));
  }

  /** A claim of the event in the current row, which was in {@code previousStatus} before. */
  protected static Claim claim(ResultSet rs, String previousStatus) throws SQLException {
    return new Claim(event(rs), previousStatus.equals(EventStatus.RUNNING.name()));
  }

  private static PreparedStatement prepare(Connection c, String sql, String... args)
      throws SQLException {
    PreparedStatement ps = c.prepareStatement(sql);
    try {
      for (int i = 0; i < args.length; i++) {
        ps.setString(i + 1, args[i]);
      }
      return ps;
    } catch (SQLException e) {
      ps.close();
      throw e;
    }
  }

  private static Optional<Instant> instant(String text) {
    return text == null ? Optional.empty() : Optional.of(Instant.parse(text));
  }
}
