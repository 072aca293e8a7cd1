package dev.engram.server.postgres;

import dev.engram.server.events.Claim;
import dev.engram.server.events.Lease;
import dev.engram.server.store.JdbcAddEventStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Add events in PostgreSQL ({@code server_add_events}), shared by every server on the schema. A
 * claim is one statement: the oldest claimable row is locked with {@code FOR UPDATE SKIP LOCKED}
 * (servers claiming at once take different rows and never wait for each other) and updated to
 * RUNNING under the claimer's lease in the same statement. Lease ends are epoch milliseconds from
 * the servers' clocks, which are assumed to agree to well within a lease. Does not own the pool.
 */
public final class PostgresAddEventStore extends JdbcAddEventStore {

  /**
   * @param pool connections to the migrated schema ({@link dev.engram.postgres.PostgresPools})
   */
  public PostgresAddEventStore(DataSource pool) {
    super(
        new Transactions(Objects.requireNonNull(pool, "pool")),
        "server_add_events",
        "lease_until_ms");
  }

  /** The column's identity sequence. */
  @Override
  protected String newSeq() {
    return "DEFAULT";
  }

  @Override
  public Optional<Claim> claimNext(Lease lease, Instant now) {
    return db().write(
            "claim an add event",
            c -> {
              try (PreparedStatement ps =
                  c.prepareStatement(
                      "WITH next AS (SELECT id, status FROM server_add_events"
                          + " WHERE "
                          + claimable()
                          + " ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)"
                          + " UPDATE server_add_events e SET status = 'RUNNING', owner = ?, lease_until_ms = ?, started_at = ?"
                          + " FROM next WHERE e.id = next.id RETURNING e.id, e.tenant, e.status, e.payload, e.results, e.error,"
                          + " e.created_at, e.started_at, e.completed_at, next.status")) {
                ps.setLong(1, now.toEpochMilli());
                ps.setString(2, lease.owner());
                ps.setLong(3, lease.until().toEpochMilli());
                ps.setString(4, now.toString());
                try (ResultSet rs = ps.executeQuery()) {
                  return rs.next()
                      ? Optional.of(claim(rs, rs.getString(10)))
                      : Optional.<Claim>empty();
                }
              }
            });
  }

  /** False: any number of servers share the schema. */
  @Override
  public boolean singleProcess() {
    return false;
  }

  /** Nothing to close: the pool belongs to the caller. */
  @Override
  public void close() {}
}
