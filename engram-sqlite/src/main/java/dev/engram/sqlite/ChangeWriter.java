package dev.engram.sqlite;

import dev.engram.ChangePipelines;
import dev.engram.EventType;
import dev.engram.HistoryEntry;
import dev.engram.MemoryNotFoundException;
import dev.engram.Message;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.RestoredMemory;
import dev.engram.spi.StoredMemory;
import dev.engram.spi.sql.ColumnCodecs;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Writes one {@link ChangeSet} inside the caller's write transaction, with cached prepared
 * statements: per memory change its memory row and one history row, then the window messages with
 * their trims, then the graph changes (into the graph tables, or as one outbox entry if the set
 * asks for {@link ChangeSet#graphToOutbox()}).
 *
 * <p>Sequence numbers are assigned here: the write lock and the {@code BEGIN IMMEDIATE} transaction
 * make this the only writer, so the next numbers follow the AUTOINCREMENT counter, which the
 * explicit inserts advance.
 */
final class ChangeWriter {
  private static final String INSERT_HISTORY =
      "INSERT INTO history (seq, tenant, memory_id, event, old_text,"
          + " new_text, actor_id, role, created_s, created_ns, pipeline) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String INSERT_MESSAGE =
      "INSERT INTO messages (tenant, scope_key, role, name, content,"
          + " ts_s, ts_ns, source_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String TRIM_WINDOW =
      "DELETE FROM messages WHERE tenant = ? AND scope_key = ? AND id <="
          + " (SELECT id FROM messages WHERE tenant = ? AND scope_key = ? ORDER BY id DESC LIMIT 1 OFFSET ?)";

  private ChangeWriter() {}

  /**
   * Writes the change set; returns the sequence number of its last memory change, or the last one
   * before it.
   */
  static long write(Handle db, ChangeSet set) throws SQLException {
    long seq = Schema.lastSeq(db);
    for (MemoryChange change : set.changes()) {
      seq++;
      writeMemory(db, change, seq);
      writeHistory(db, change, seq);
    }
    for (ChangeSet.WindowAppend window : set.windows()) {
      appendWindow(db, set.tenant(), window);
    }
    if (set.graphToOutbox()) {
      if (!set.graph().isEmpty()) {
        SqliteGraphOutbox.write(db, set.tenant(), set.graph());
      }
    } else {
      GraphRows.write(db, set.tenant(), set.graph());
    }
    return seq;
  }

  private static void writeMemory(Handle db, MemoryChange change, long seq) throws SQLException {
    StoredMemory m = change.memory();
    try {
      switch (change.event()) {
        case ADD -> {
          PreparedStatement ps = db.cached(MemoryRows.INSERT);
          MemoryRows.bindInsert(ps, m, seq);
          ps.executeUpdate();
        }
        case UPDATE -> {
          PreparedStatement ps = db.cached(MemoryRows.UPDATE);
          MemoryRows.bindUpdate(ps, m, seq);
          if (ps.executeUpdate() == 0) {
            throw new MemoryNotFoundException(m.id());
          }
        }
        case DELETE -> {
          PreparedStatement ps = db.cached(MemoryRows.DELETE);
          ps.setString(1, m.tenant());
          ps.setString(2, m.id());
          if (ps.executeUpdate() == 0) {
            throw new MemoryNotFoundException(m.id());
          }
        }
        default -> throw new IllegalArgumentException("a store cannot apply " + change.event());
      }
    } catch (SQLiteException e) {
      String why =
          e.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY
              ? "a memory with this id already exists in tenant '" + m.tenant() + "'"
              : e.getMessage();
      throw new SQLException(change.event() + " of memory " + m.id() + ": " + why, e);
    }
  }

  private static void writeHistory(Handle db, MemoryChange change, long seq) throws SQLException {
    StoredMemory m = change.memory();
    insertHistory(
        db,
        new HistoryEntry(
            seq,
            m.id(),
            change.event(),
            change.previousText(),
            change.event() == EventType.DELETE ? null : m.item().text(),
            change.actorId(),
            change.role(),
            change.at(),
            change.pipeline()),
        m.tenant());
  }

  /** Inserts one history row as given (its {@code seq} included). */
  private static void insertHistory(Handle db, HistoryEntry h, String tenant) throws SQLException {
    PreparedStatement ps = db.cached(INSERT_HISTORY);
    ps.setLong(1, h.seq());
    ps.setString(2, tenant);
    ps.setString(3, h.memoryId());
    ps.setString(4, h.event().name());
    ps.setString(5, h.oldText());
    ps.setString(6, h.newText());
    ps.setString(7, h.actorId());
    ps.setString(8, h.role() == null ? null : h.role().wireName());
    ColumnCodecs.bindInstant(ps, 9, h.at());
    ps.setString(11, h.pipeline());
    ps.executeUpdate();
  }

  /**
   * Writes restored memories inside the caller's write transaction: per memory its history rows as
   * given, each with the next sequence number, then its memory row (if any) with the sequence
   * number of its last history row.
   *
   * @return the last sequence number written, or the last one before the call if none
   */
  static long restore(Handle db, String tenant, List<RestoredMemory> memories) throws SQLException {
    long seq = Schema.lastSeq(db);
    for (RestoredMemory r : memories) {
      for (HistoryEntry h : r.history()) {
        seq++;
        insertHistory(
            db,
            new HistoryEntry(
                seq,
                r.id(),
                h.event(),
                h.oldText(),
                h.newText(),
                h.actorId(),
                h.role(),
                h.at(),
                h.pipeline()),
            tenant);
      }
      if (r.current().isPresent()) {
        writeMemory(
            db, MemoryChange.add(r.current().get(), null, null, ChangePipelines.IMPORT), seq);
      }
    }
    return seq;
  }

  private static void appendWindow(Handle db, String tenant, ChangeSet.WindowAppend window)
      throws SQLException {
    String key = window.scope().key();
    PreparedStatement insert = db.cached(INSERT_MESSAGE);
    for (Message msg : window.messages()) {
      insert.setString(1, tenant);
      insert.setString(2, key);
      insert.setString(3, msg.role().wireName());
      insert.setString(4, msg.name());
      insert.setString(5, msg.content());
      ColumnCodecs.bindInstant(insert, 6, msg.timestamp());
      insert.setString(8, msg.sourceId());
      insert.executeUpdate();
    }
    PreparedStatement trim = db.cached(TRIM_WINDOW);
    trim.setString(1, tenant);
    trim.setString(2, key);
    trim.setString(3, tenant);
    trim.setString(4, key);
    trim.setInt(5, window.keep());
    trim.executeUpdate();
  }
}
