package dev.engram.server.store;

import dev.engram.server.events.AddEvent;
import dev.engram.server.events.Claim;
import dev.engram.server.events.EventStatus;
import dev.engram.server.events.Lease;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Optional;

/**
 * Add events in {@code server.db} ({@code add_events}). One server uses a data directory at a time
 * ({@link #singleProcess()}); leases still decide who runs an event, as in the shared stores. A
 * claim reads the oldest claimable row and updates it in one write transaction, which SQLite runs
 * alone.
 */
public final class SqliteAddEventStore extends JdbcAddEventStore {
  private final ServerDatabase db;
  private final boolean ownsDatabase;

  /**
   * @param db the server's database
   * @param ownsDatabase whether {@link #close()} closes it
   */
  public SqliteAddEventStore(ServerDatabase db, boolean ownsDatabase) {
    super(db, "add_events", "lease_until");
    this.db = db;
    this.ownsDatabase = ownsDatabase;
  }

  @Override
  protected String newSeq() {
    return "(SELECT COALESCE(MAX(seq), 0) + 1 FROM add_events)";
  }

  @Override
  public Optional<Claim> claimNext(Lease lease, Instant now) {
    return db.write(
        "claim an add event",
        c -> {
          String id;
          String status;
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT id, status FROM add_events WHERE "
                      + claimable()
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
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE add_events SET status = 'RUNNING', owner = ?,"
                      + " lease_until = ?, started_at = ? WHERE id = ? AND "
                      + claimable())) {
            ps.setString(1, lease.owner());
            ps.setLong(2, lease.until().toEpochMilli());
            ps.setString(3, now.toString());
            ps.setString(4, id);
            ps.setLong(5, now.toEpochMilli());
            if (ps.executeUpdate() != 1) {
              return Optional.empty();
            }
          }
          AddEvent claimed =
              query(c, "SELECT " + COLUMNS + " FROM add_events WHERE id = ?", id).get(0);
          return Optional.of(new Claim(claimed, status.equals(EventStatus.RUNNING.name())));
        });
  }

  /** True: the data directory's lock keeps {@code server.db} to one server. */
  @Override
  public boolean singleProcess() {
    return true;
  }

  @Override
  public void close() {
    if (ownsDatabase) {
      db.close();
    }
  }
}
