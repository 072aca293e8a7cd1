package dev.engram.postgres;

import dev.engram.MemoryItem;
import dev.engram.Role;
import dev.engram.spi.StoredMemory;
import dev.engram.spi.sql.ColumnCodecs;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a memory is laid out in the {@code memories} table: instants, metadata and source ids as
 * {@link ColumnCodecs} writes them, the expiration as an epoch day, the embedding as {@code
 * real[]}, the source context with its {@code english} tsvector ({@code context}, {@code
 * context_tsv}, migration V12), the context embedding as {@code real[]} ({@code context_embedding},
 * migration V13; {@code '{}'} for none), and {@code folded}: every string of the memory lower-cased
 * in Java (root locale), so that {@code icontains} agrees with {@link
 * dev.engram.filter.FilterEvaluator} whatever the database's locale.
 */
final class MemoryRows {
  /** The columns {@link #item} reads, from alias {@code m}. */
  static final String ITEM_COLUMNS =
      "m.tenant, m.id, m.user_id, m.agent_id, m.run_id, m.actor_id, m.role, m.text,"
          + " m.hash, m.metadata, m.created_s, m.created_ns, m.updated_s, m.updated_ns, m.event_s, m.event_ns,"
          + " m.source_ids, m.expiration_day";

  /**
   * The columns {@link #stored} reads: the item's, the embedding, the source context and its
   * embedding.
   */
  static final String STORED_COLUMNS =
      ITEM_COLUMNS + ", m.embedding, m.context, m.context_embedding";

  /** How many columns {@link #ITEM_COLUMNS} has. */
  static final int ITEM_WIDTH = 18;

  /** The list order: newest first, then id. */
  static final String NEWEST_FIRST = " ORDER BY m.created_s DESC, m.created_ns DESC, m.id";

  /**
   * The value of {@code context_tsv}: the tsvector of the context, bound a second time (migration
   * V12 says why it is written here rather than generated).
   */
  private static final String CONTEXT_TSV = "to_tsvector('english'::regconfig, ?)";

  static final String INSERT =
      "INSERT INTO memories (user_id, agent_id, run_id, actor_id, role, text, hash,"
          + " metadata, folded, created_s, created_ns, updated_s, updated_ns, event_s, event_ns, source_ids,"
          + " expiration_day, embedding, seq, context, context_tsv, context_embedding, tenant, id)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?::json, ?::json, ?, ?, ?, ?, ?, ?, ?::json, ?, ?, ?, ?, "
          + CONTEXT_TSV
          + ", ?, ?, ?)";
  static final String UPDATE =
      "UPDATE memories SET user_id = ?, agent_id = ?, run_id = ?, actor_id = ?, role = ?,"
          + " text = ?, hash = ?, metadata = ?::json, folded = ?::json, created_s = ?, created_ns = ?, updated_s = ?,"
          + " updated_ns = ?, event_s = ?, event_ns = ?, source_ids = ?::json, expiration_day = ?, embedding = ?,"
          + " seq = ?, context = ?, context_tsv = "
          + CONTEXT_TSV
          + ", context_embedding = ?"
          + " WHERE tenant = ? AND id = ?";

  private MemoryRows() {}

  /**
   * Binds {@link #INSERT} or {@link #UPDATE}: they take the same parameters in the same order; the
   * source context twice, for {@code context} and for {@code context_tsv}.
   */
  static void bind(PreparedStatement ps, StoredMemory stored, long seq) throws SQLException {
    MemoryItem m = stored.item();
    int i = 1;
    ps.setString(i++, m.userId());
    ps.setString(i++, m.agentId());
    ps.setString(i++, m.runId());
    ps.setString(i++, m.actorId());
    ps.setString(i++, m.role() == null ? null : m.role().wireName());
    ps.setString(i++, m.text());
    ps.setString(i++, m.hash());
    ps.setString(i++, ColumnCodecs.json(m.metadata()));
    ps.setString(i++, ColumnCodecs.json(folded(m)));
    i = ColumnCodecs.bindInstant(ps, i, m.createdAt());
    i = ColumnCodecs.bindInstant(ps, i, m.updatedAt());
    i = ColumnCodecs.bindInstant(ps, i, m.eventTime());
    ps.setString(i++, ColumnCodecs.json(m.sourceIds()));
    if (m.expirationDate() == null) {
      ps.setNull(i++, Types.INTEGER);
    } else {
      ps.setInt(i++, Math.toIntExact(m.expirationDate().toEpochDay()));
    }
    ps.setArray(
        i++,
        ps.getConnection().createArrayOf("float4", Float4Arrays.boxed(stored.embeddingView())));
    ps.setLong(i++, seq);
    ps.setString(i++, stored.context());
    ps.setString(i++, stored.context());
    ps.setArray(
        i++,
        ps.getConnection()
            .createArrayOf("float4", Float4Arrays.boxed(stored.contextEmbeddingView())));
    ps.setString(i++, stored.tenant());
    ps.setString(i, m.id());
  }

  /** The memory's strings lower-cased in the root locale, under the filter field names. */
  static Map<String, Object> folded(MemoryItem m) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("user_id", lower(m.userId()));
    out.put("agent_id", lower(m.agentId()));
    out.put("run_id", lower(m.runId()));
    out.put("actor_id", lower(m.actorId()));
    out.put("role", m.role() == null ? null : lower(m.role().wireName()));
    out.put("hash", lower(m.hash()));
    out.put("memory", lower(m.text()));
    out.put("source_id", m.sourceIds().stream().map(MemoryRows::lower).toList());
    out.put("metadata", lowerAll(m.metadata()));
    return out;
  }

  private static String lower(String s) {
    return s == null ? null : s.toLowerCase(Locale.ROOT);
  }

  private static Object lowerAll(Object v) {
    if (v instanceof String s) {
      return lower(s);
    }
    if (v instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, x) -> out.put((String) k, lowerAll(x)));
      return out;
    }
    if (v instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(x -> out.add(lowerAll(x)));
      return out;
    }
    return v;
  }

  /** Reads {@link #ITEM_COLUMNS} starting at {@code first} (the tenant). */
  static MemoryItem item(ResultSet rs, int first) throws SQLException {
    int c = first + 1;
    String id = rs.getString(c++);
    String userId = rs.getString(c++);
    String agentId = rs.getString(c++);
    String runId = rs.getString(c++);
    String actorId = rs.getString(c++);
    String role = rs.getString(c++);
    String text = rs.getString(c++);
    String hash = rs.getString(c++);
    Map<String, Object> metadata = ColumnCodecs.metadata(rs.getString(c++));
    Instant created = ColumnCodecs.instant(rs, c);
    Instant updated = ColumnCodecs.instant(rs, c + 2);
    Instant event = ColumnCodecs.instant(rs, c + 4);
    c += 6;
    List<String> sources = ColumnCodecs.strings(rs.getString(c++));
    int day = rs.getInt(c);
    LocalDate expiration = rs.wasNull() ? null : LocalDate.ofEpochDay(day);
    return new MemoryItem(
        id,
        text,
        hash,
        metadata,
        userId,
        agentId,
        runId,
        actorId,
        role == null ? null : Role.parse(role),
        created,
        updated,
        event,
        sources,
        expiration);
  }

  /** Reads {@link #STORED_COLUMNS} starting at {@code first}. */
  static StoredMemory stored(ResultSet rs, int first) throws SQLException {
    MemoryItem item = item(rs, first);
    return new StoredMemory(
        rs.getString(first),
        item,
        floats(rs.getArray(first + ITEM_WIDTH)),
        rs.getString(first + ITEM_WIDTH + 1),
        floats(rs.getArray(first + ITEM_WIDTH + 2)));
  }

  static float[] floats(Array array) throws SQLException {
    Object[] values = (Object[]) array.getArray();
    float[] out = new float[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = ((Number) values[i]).floatValue();
    }
    return out;
  }
}
