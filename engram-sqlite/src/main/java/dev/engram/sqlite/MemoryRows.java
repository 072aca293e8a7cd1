package dev.engram.sqlite;

import dev.engram.MemoryItem;
import dev.engram.Role;
import dev.engram.spi.StoredMemory;
import dev.engram.spi.sql.ColumnCodecs;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;

/**
 * The {@code memories} table's columns: SQL fragments, binding of a memory, and reading one back.
 */
final class MemoryRows {
  /**
   * Columns that make a {@link MemoryItem}, in the order {@link #item} reads them; table alias
   * {@code m}.
   */
  static final String ITEM_COLUMNS =
      "m.id, m.text, m.hash, m.metadata, m.user_id, m.agent_id, m.run_id, "
          + "m.actor_id, m.role, m.created_s, m.created_ns, m.updated_s, m.updated_ns, m.event_s, m.event_ns, "
          + "m.source_ids, m.expiration_day";

  /**
   * Item columns plus tenant, embedding, source context and context embedding, in the order {@link
   * #stored} reads them.
   */
  static final String STORED_COLUMNS =
      "m.tenant, " + ITEM_COLUMNS + ", m.embedding, m.context, m.context_embedding";

  /** Number of columns in {@link #STORED_COLUMNS}. */
  static final int STORED_COLUMN_COUNT = 21;

  /** The newest-first order of listings: created_at descending, then id ascending. */
  static final String NEWEST_FIRST = " ORDER BY m.created_s DESC, m.created_ns DESC, m.id ASC";

  private static final String VALUE_COLUMNS =
      "user_id, agent_id, run_id, actor_id, role, text, hash, metadata, "
          + "created_s, created_ns, updated_s, updated_ns, event_s, event_ns, source_ids, expiration_day, embedding, seq, "
          + "context, context_embedding";

  static final String INSERT =
      "INSERT INTO memories (tenant, id, "
          + VALUE_COLUMNS
          + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  static final String UPDATE =
      "UPDATE memories SET user_id = ?, agent_id = ?, run_id = ?, actor_id = ?, role = ?, "
          + "text = ?, hash = ?, metadata = ?, created_s = ?, created_ns = ?, updated_s = ?, updated_ns = ?, "
          + "event_s = ?, event_ns = ?, source_ids = ?, expiration_day = ?, embedding = ?, seq = ?, context = ?, "
          + "context_embedding = ? "
          + "WHERE tenant = ? AND id = ?";
  static final String DELETE = "DELETE FROM memories WHERE tenant = ? AND id = ?";

  private MemoryRows() {}

  /** Binds {@link #INSERT}'s parameters. */
  static void bindInsert(PreparedStatement ps, StoredMemory m, long seq) throws SQLException {
    ps.setString(1, m.tenant());
    ps.setString(2, m.id());
    bindValues(ps, 3, m, seq);
  }

  /** Binds {@link #UPDATE}'s parameters. */
  static void bindUpdate(PreparedStatement ps, StoredMemory m, long seq) throws SQLException {
    int next = bindValues(ps, 1, m, seq);
    ps.setString(next, m.tenant());
    ps.setString(next + 1, m.id());
  }

  private static int bindValues(PreparedStatement ps, int first, StoredMemory m, long seq)
      throws SQLException {
    MemoryItem it = m.item();
    int i = first;
    ps.setString(i++, it.userId());
    ps.setString(i++, it.agentId());
    ps.setString(i++, it.runId());
    ps.setString(i++, it.actorId());
    ps.setString(i++, it.role() == null ? null : it.role().wireName());
    ps.setString(i++, it.text());
    ps.setString(i++, it.hash());
    ps.setString(i++, ColumnCodecs.json(it.metadata()));
    i = ColumnCodecs.bindInstant(ps, i, it.createdAt());
    i = ColumnCodecs.bindInstant(ps, i, it.updatedAt());
    i = ColumnCodecs.bindInstant(ps, i, it.eventTime());
    ps.setString(i++, ColumnCodecs.json(it.sourceIds()));
    if (it.expirationDate() == null) {
      ps.setNull(i++, Types.INTEGER);
    } else {
      ps.setLong(i++, it.expirationDate().toEpochDay());
    }
    ps.setBytes(i++, Codecs.embedding(m.embeddingView()));
    ps.setLong(i++, seq);
    ps.setString(i++, m.context());
    ps.setBytes(i++, Codecs.embedding(m.contextEmbeddingView()));
    return i;
  }

  /** Reads the {@link #ITEM_COLUMNS} starting at {@code first}. */
  static MemoryItem item(ResultSet rs, int first) throws SQLException {
    int c = first;
    String id = rs.getString(c);
    String text = rs.getString(c + 1);
    String hash = rs.getString(c + 2);
    String metadata = rs.getString(c + 3);
    String userId = rs.getString(c + 4);
    String agentId = rs.getString(c + 5);
    String runId = rs.getString(c + 6);
    String actorId = rs.getString(c + 7);
    String role = rs.getString(c + 8);
    long expiration = rs.getLong(c + 16);
    LocalDate expirationDate = rs.wasNull() ? null : LocalDate.ofEpochDay(expiration);
    return new MemoryItem(
        id,
        text,
        hash,
        ColumnCodecs.metadata(metadata),
        userId,
        agentId,
        runId,
        actorId,
        role == null ? null : Role.parse(role),
        ColumnCodecs.instant(rs, c + 9),
        ColumnCodecs.instant(rs, c + 11),
        ColumnCodecs.instant(rs, c + 13),
        ColumnCodecs.strings(rs.getString(c + 15)),
        expirationDate);
  }

  /** Reads the {@link #STORED_COLUMNS} starting at {@code first}. */
  static StoredMemory stored(ResultSet rs, int first) throws SQLException {
    String tenant = rs.getString(first);
    MemoryItem item = item(rs, first + 1);
    byte[] contextEmbedding = rs.getBytes(first + 20); // a zero-length blob (none) may read as null
    return new StoredMemory(
        tenant,
        item,
        Codecs.embedding(rs.getBytes(first + 18)),
        rs.getString(first + 19),
        contextEmbedding == null ? new float[0] : Codecs.embedding(contextEmbedding));
  }
}
