package dev.engram.sqlite;

import dev.engram.EntitySummary;
import dev.engram.EventType;
import dev.engram.HistoryEntry;
import dev.engram.ListRequest;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Page;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoredMemory;
import dev.engram.spi.sql.ColumnCodecs;
import dev.engram.spi.sql.FilterSql;
import dev.engram.spi.sql.Sql;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/** The store's queries, each run on a connection the caller provides. */
final class Reads {
  private static final String FROM = " FROM memories m";
  private static final String GET =
      "SELECT " + MemoryRows.STORED_COLUMNS + FROM + " WHERE m.tenant = ? AND m.id = ?";
  private static final String GET_ALL =
      "SELECT "
          + MemoryRows.STORED_COLUMNS
          + FROM
          + " WHERE m.tenant = ? AND m.id IN (SELECT value FROM json_each(?))";
  private static final String METADATA =
      "SELECT m.id, m.metadata"
          + FROM
          + " WHERE m.tenant = ? AND m.id IN (SELECT value FROM json_each(?))";
  private static final String EXPIRED =
      "SELECT m.id"
          + FROM
          + " WHERE m.tenant = ? AND m.expiration_day <= ? ORDER BY m.expiration_day, m.id LIMIT ?";
  private static final String HISTORY =
      "SELECT seq, memory_id, event, old_text, new_text, actor_id, role,"
          + " created_s, created_ns, pipeline FROM history WHERE tenant = ? AND memory_id = ? ORDER BY seq";
  private static final String MESSAGES =
      "SELECT role, name, content, ts_s, ts_ns, source_id FROM"
          + " (SELECT id, role, name, content, ts_s, ts_ns, source_id FROM messages"
          + " WHERE tenant = ? AND scope_key = ? ORDER BY id DESC LIMIT ?) ORDER BY id ASC";

  /**
   * The change feed after a sequence number. NOT INDEXED keeps SQLite on the rowid range of {@code
   * seq}: for the grouping it otherwise reads the whole of {@code history_memory}, every change
   * ever made, to find the few after the index's last commit.
   */
  static final String CHANGES =
      "SELECT c.s, c.tenant, c.memory_id, "
          + MemoryRows.STORED_COLUMNS
          + " FROM (SELECT tenant, memory_id, MAX(seq) AS s FROM history NOT INDEXED WHERE seq > ?"
          + " GROUP BY tenant, memory_id) c"
          + " LEFT JOIN memories m ON m.tenant = c.tenant AND m.id = c.memory_id ORDER BY c.s";

  private static final String ALL = "SELECT " + MemoryRows.STORED_COLUMNS + FROM;
  private static final FilterSql FILTERS = new FilterSql(new SqliteDialect());

  private Reads() {}

  static Optional<StoredMemory> get(Handle db, String tenant, String id) throws SQLException {
    PreparedStatement ps = db.cached(GET);
    ps.setString(1, tenant);
    ps.setString(2, id);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? Optional.of(MemoryRows.stored(rs, 1)) : Optional.empty();
    }
  }

  static List<StoredMemory> getAll(Handle db, String tenant, Collection<String> ids)
      throws SQLException {
    PreparedStatement ps = db.cached(GET_ALL);
    ps.setString(1, tenant);
    ps.setString(2, ColumnCodecs.json(ids));
    List<StoredMemory> out = new ArrayList<>(ids.size());
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(MemoryRows.stored(rs, 1));
      }
    }
    return out;
  }

  static Map<String, Map<String, Object>> metadata(Handle db, String tenant, Collection<String> ids)
      throws SQLException {
    PreparedStatement ps = db.cached(METADATA);
    ps.setString(1, tenant);
    ps.setString(2, ColumnCodecs.json(ids));
    Map<String, Map<String, Object>> out = new HashMap<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.put(rs.getString(1), ColumnCodecs.metadata(rs.getString(2)));
      }
    }
    return out;
  }

  static List<MemoryItem> findByHash(Handle db, String tenant, Scope scope, String hash)
      throws SQLException {
    return items(db, findByHashQuery(tenant, scope, hash));
  }

  /** The query of {@link #findByHash}, apart so that a test can read its plan. */
  static Sql findByHashQuery(String tenant, Scope scope, String hash) {
    // Without the hint SQLite prefers memories_listing (tenant, user_id, ...), which also gives the
    // order, and so
    // reads every row of the user to find one hash: a cost that grows with the scope, paid for
    // every fact added.
    Sql sql =
        new Sql()
            .append(
                "SELECT "
                    + MemoryRows.ITEM_COLUMNS
                    + FROM
                    + " INDEXED BY "
                    + Schema.HASH_INDEX
                    + " WHERE m.tenant = ")
            .param(tenant)
            .append(" AND m.hash = ")
            .param(hash);
    scope(sql, scope);
    return sql.append(MemoryRows.NEWEST_FIRST);
  }

  /** Runs the count and the page query; the caller runs this in one read snapshot. */
  static Page<MemoryItem> list(Handle db, String tenant, ListRequest request, LocalDate today)
      throws SQLException {
    Sql where = new Sql().append(" WHERE m.tenant = ").param(tenant);
    scope(where, request.scope());
    if (!request.includeExpired()) {
      where
          .append(" AND (m.expiration_day IS NULL OR m.expiration_day > ")
          .param(today.toEpochDay())
          .append(")");
    }
    if (!(request.filter() instanceof Filter.All)) {
      where.append(" AND ");
      FILTERS.append(where, request.filter());
    }
    long total;
    PreparedStatement count = db.cached("SELECT COUNT(*)" + FROM + where.text());
    where.bind(count, 1);
    try (ResultSet rs = count.executeQuery()) {
      rs.next();
      total = rs.getLong(1);
    }
    if (total <= request.offset()) {
      return new Page<>(List.of(), total, request.offset());
    }
    // The page's rowids first (from the covering memories_listing index when unfiltered), then only
    // their rows.
    Sql page =
        new Sql()
            .append(
                "SELECT "
                    + MemoryRows.ITEM_COLUMNS
                    + FROM
                    + " WHERE m.rowid IN (SELECT m.rowid"
                    + FROM)
            .append(where.text())
            .append(MemoryRows.NEWEST_FIRST + " LIMIT ? OFFSET ?)" + MemoryRows.NEWEST_FIRST);
    PreparedStatement ps = db.cached(page.text());
    int next = where.bind(ps, 1);
    ps.setInt(next, request.limit());
    ps.setInt(next + 1, request.offset());
    List<MemoryItem> items = new ArrayList<>(Math.min(request.limit(), 256));
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        items.add(MemoryRows.item(rs, 1));
      }
    }
    return new Page<>(items, total, request.offset());
  }

  /** The entities of one type, whose id is in {@code column}. */
  private static String entities(String column) {
    return "SELECT ?, id, COUNT(*), MIN(c), MAX(u) FROM (SELECT "
        + column
        + " AS id,"
        + " created_s * 1000000000 + created_ns AS c, updated_s * 1000000000 + updated_ns AS u"
        + " FROM memories WHERE tenant = ? AND "
        + column
        + " IS NOT NULL) GROUP BY id ORDER BY id";
  }

  static List<EntitySummary> entities(Handle db, String tenant) throws SQLException {
    List<EntitySummary> out = new ArrayList<>();
    for (EntitySummary.EntityType type : EntitySummary.EntityType.values()) {
      String column = type.wireName() + "_id";
      PreparedStatement ps = db.cached(entities(column));
      ps.setString(1, type.wireName());
      ps.setString(2, tenant);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(
              new EntitySummary(
                  type,
                  rs.getString(2),
                  rs.getLong(3),
                  nanos(rs.getLong(4)),
                  nanos(rs.getLong(5))));
        }
      }
    }
    return out;
  }

  private static Instant nanos(long epochNanos) {
    return Instant.ofEpochSecond(
        Math.floorDiv(epochNanos, 1_000_000_000L), Math.floorMod(epochNanos, 1_000_000_000L));
  }

  static List<String> expiredIds(Handle db, String tenant, LocalDate today, int limit)
      throws SQLException {
    PreparedStatement ps = db.cached(EXPIRED);
    ps.setString(1, tenant);
    ps.setLong(2, today.toEpochDay());
    ps.setInt(3, limit);
    List<String> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  /** See {@link dev.engram.spi.MemoryStore#memoryIds}. */
  static List<String> memoryIds(
      Handle db, String tenant, Optional<Scope> scope, String afterId, int limit)
      throws SQLException {
    Sql sql;
    if (scope.isPresent()) {
      sql = new Sql().append("SELECT m.id" + FROM + " WHERE m.tenant = ").param(tenant);
      scope(sql, scope.get());
      sql.append(" AND m.id > ").param(afterId).append(" ORDER BY m.id LIMIT ").param(limit);
    } else {
      // history_memory (tenant, memory_id) gives the distinct ids in order without a sort.
      sql =
          new Sql()
              .append("SELECT DISTINCT memory_id FROM history WHERE tenant = ")
              .param(tenant)
              .append(" AND memory_id > ")
              .param(afterId)
              .append(" ORDER BY memory_id LIMIT ")
              .param(limit);
    }
    PreparedStatement ps = db.cached(sql.text());
    sql.bind(ps, 1);
    List<String> out = new ArrayList<>(Math.min(limit, 1024));
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  static List<HistoryEntry> history(Handle db, String tenant, String memoryId) throws SQLException {
    PreparedStatement ps = db.cached(HISTORY);
    ps.setString(1, tenant);
    ps.setString(2, memoryId);
    List<HistoryEntry> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        String role = rs.getString(7);
        out.add(
            new HistoryEntry(
                rs.getLong(1),
                rs.getString(2),
                EventType.valueOf(rs.getString(3)),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                role == null ? null : Role.parse(role),
                ColumnCodecs.instant(rs, 8),
                rs.getString(10)));
      }
    }
    return out;
  }

  static List<Message> recentMessages(Handle db, String tenant, Scope scope, int limit)
      throws SQLException {
    PreparedStatement ps = db.cached(MESSAGES);
    ps.setString(1, tenant);
    ps.setString(2, scope.key());
    ps.setInt(3, limit);
    List<Message> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(
            new Message(
                Role.parse(rs.getString(1)),
                rs.getString(3),
                rs.getString(2),
                ColumnCodecs.instant(rs, 4),
                rs.getString(6)));
      }
    }
    return out;
  }

  /**
   * Streams the change feed after {@code seq}: one row per memory, in order of its latest change.
   */
  static void changesSince(Handle db, long seq, Consumer<MemoryStore.Change> visitor)
      throws SQLException {
    PreparedStatement ps = db.cached(CHANGES);
    ps.setLong(1, seq);
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        rs.getString(4);
        StoredMemory current = rs.wasNull() ? null : MemoryRows.stored(rs, 4);
        visitor.accept(
            new MemoryStore.Change(rs.getLong(1), rs.getString(2), rs.getString(3), current));
      }
    }
  }

  /** Streams every memory; rows are read one at a time, never all at once. */
  static void forEach(Handle db, Consumer<StoredMemory> visitor) throws SQLException {
    PreparedStatement ps = db.cached(ALL);
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        visitor.accept(MemoryRows.stored(rs, 1));
      }
    }
  }

  static long count(Handle db) throws SQLException {
    try (ResultSet rs = db.cached("SELECT COUNT(*) FROM memories").executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Appends the conditions of a scope: each id it sets must equal the memory's. */
  static void scope(Sql sql, Scope scope) {
    scope.userId().ifPresent(id -> sql.append(" AND m.user_id = ").param(id));
    scope.agentId().ifPresent(id -> sql.append(" AND m.agent_id = ").param(id));
    scope.runId().ifPresent(id -> sql.append(" AND m.run_id = ").param(id));
  }

  private static List<MemoryItem> items(Handle db, Sql sql) throws SQLException {
    PreparedStatement ps = db.cached(sql.text());
    sql.bind(ps, 1);
    List<MemoryItem> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(MemoryRows.item(rs, 1));
      }
    }
    return out;
  }
}
