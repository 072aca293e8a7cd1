package dev.engram.postgres;

import dev.engram.DimensionMismatchException;
import dev.engram.EventType;
import dev.engram.HistoryEntry;
import dev.engram.ListRequest;
import dev.engram.MemoryItem;
import dev.engram.MemoryNotFoundException;
import dev.engram.Message;
import dev.engram.Page;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.StorageException;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.EmbeddingSpec;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.RestoredMemory;
import dev.engram.spi.StoredMemory;
import dev.engram.spi.sql.ColumnCodecs;
import dev.engram.spi.sql.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The system of record in PostgreSQL: memories, history (the change feed), message windows and
 * summaries, shared by any number of processes. It keeps no cache of rows: every read sees the
 * latest commit of any process.
 *
 * <p><b>Writes.</b> {@link #apply} is one transaction. It first advances {@code
 * store_state.last_seq} by the number of memory changes; the row lock that takes orders writers
 * across processes, so sequence numbers are committed in increasing order and a reader of the
 * change feed never sees a later number before an earlier one. A memory row and its history row are
 * written together or not at all, and so are the graph changes of the same change set (unless it
 * asks for an outbox, which this store does not have: those are left to the engine).
 */
public final class PostgresMemoryStore implements MemoryStore {
  private static final String INSERT_HISTORY =
      "INSERT INTO history (seq, tenant, memory_id, event, old_text,"
          + " new_text, actor_id, role, at_s, at_ns, pipeline) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String INSERT_MESSAGE =
      "INSERT INTO messages (tenant, scope_key, role, name, content,"
          + " ts_s, ts_ns, source_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String TRIM_WINDOW =
      "DELETE FROM messages WHERE tenant = ? AND scope_key = ? AND id <="
          + " (SELECT id FROM messages WHERE tenant = ? AND scope_key = ? ORDER BY id DESC LIMIT 1 OFFSET ?)";
  private static final String CHANGES =
      "SELECT c.s, c.tenant, c.memory_id, "
          + MemoryRows.STORED_COLUMNS
          + " FROM (SELECT tenant, memory_id, max(seq) AS s FROM history WHERE seq > ? GROUP BY tenant, memory_id) c"
          + " LEFT JOIN memories m ON m.tenant = c.tenant AND m.id = c.memory_id ORDER BY c.s";

  private final Database db;
  private final Optional<EmbeddingCache> embeddings;
  private volatile EmbeddingSpec spec;

  /**
   * A store on {@code db}; {@code embeddings}, if present, receives the embedding of every row
   * version this store commits (write-through: a (tenant, id, seq) names one embedding forever, see
   * {@link EmbeddingCache}).
   */
  PostgresMemoryStore(Database db, Optional<EmbeddingCache> embeddings) {
    this.db = db;
    this.embeddings = embeddings;
  }

  @Override
  public Optional<EmbeddingSpec> embeddingSpec() {
    EmbeddingSpec s = spec;
    if (s != null) {
      return Optional.of(s); // recorded once, never changed afterwards
    }
    Optional<EmbeddingSpec> read =
        db.read(
            "read the embedding model",
            c -> {
              try (PreparedStatement ps =
                      c.prepareStatement(
                          "SELECT embedding_model, embedding_dimension FROM store_state WHERE id = 1");
                  ResultSet rs = ps.executeQuery()) {
                rs.next();
                String model = rs.getString(1);
                return model == null
                    ? Optional.<EmbeddingSpec>empty()
                    : Optional.of(new EmbeddingSpec(model, rs.getInt(2)));
              }
            });
    read.ifPresent(r -> spec = r);
    return read;
  }

  /**
   * Records the model unless another process recorded one first (then that one stays and is
   * returned next).
   */
  @Override
  public void recordEmbeddingSpec(EmbeddingSpec spec) {
    Objects.requireNonNull(spec, "spec");
    db.write(
        "record the embedding model",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE store_state SET embedding_model = ?,"
                      + " embedding_dimension = ? WHERE id = 1 AND embedding_model IS NULL")) {
            ps.setString(1, spec.modelId());
            ps.setInt(2, spec.dimension());
            return ps.executeUpdate();
          }
        });
    this.spec = null;
    embeddingSpec();
  }

  @Override
  public long apply(ChangeSet changes) {
    Objects.requireNonNull(changes, "changes");
    if (changes.isEmpty()) {
      return lastSeq();
    }
    checkDimensions(changes);
    long last =
        db.write(
            "apply "
                + changes.changes().size()
                + " memory changes and "
                + changes.windows().size()
                + " window appends to tenant '"
                + changes.tenant()
                + "'",
            c -> write(c, changes));
    embeddings.ifPresent(
        cache -> {
          long seq = last - changes.changes().size();
          for (MemoryChange change : changes.changes()) {
            seq++; // the numbering of write(): the row of change i carries seq (last - size + i +
            // 1)
            StoredMemory m = change.memory();
            if (change.event() == EventType.DELETE) {
              cache.remove(m.tenant(), m.id());
            } else {
              keep(cache, m, seq);
            }
          }
        });
    return last;
  }

  /**
   * Keeps the vectors of a row version this store committed: its embedding, and its context
   * embedding if any.
   */
  private static void keep(EmbeddingCache cache, StoredMemory m, long seq) {
    cache.put(m.tenant(), m.id(), seq, m.embedding());
    if (m.contextEmbeddingView().length > 0) {
      cache.put(
          EmbeddingCache.Column.CONTEXT_EMBEDDING, m.tenant(), m.id(), seq, m.contextEmbedding());
    }
  }

  private long write(Connection c, ChangeSet set) throws SQLException {
    long last;
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE store_state SET last_seq = last_seq + ? WHERE id = 1 RETURNING last_seq")) {
      ps.setLong(1, set.changes().size());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        last = rs.getLong(1);
      }
    }
    long seq = last - set.changes().size();
    try (PreparedStatement insert = c.prepareStatement(MemoryRows.INSERT);
        PreparedStatement update = c.prepareStatement(MemoryRows.UPDATE);
        PreparedStatement delete =
            c.prepareStatement("DELETE FROM memories WHERE tenant = ? AND id = ?");
        PreparedStatement history = c.prepareStatement(INSERT_HISTORY)) {
      for (MemoryChange change : set.changes()) {
        seq++;
        writeMemory(c, change, seq, insert, update, delete);
        writeHistory(history, change, seq);
      }
    }
    for (ChangeSet.WindowAppend window : set.windows()) {
      appendWindow(c, set.tenant(), window);
    }
    if (!set.graphToOutbox()) {
      GraphRows.write(c, set.tenant(), set.graph()); // the graph commits with the memories
    }
    return last;
  }

  /**
   * Writes imported memories in one transaction: each one's history rows as given, with fresh
   * sequence numbers reserved on {@code store_state} like {@link #apply}, then its memory row with
   * the sequence number of its last history row. An id that already has a memory row fails the
   * whole call.
   */
  @Override
  public long restore(String tenant, List<RestoredMemory> restored) {
    Objects.requireNonNull(tenant, "tenant");
    if (restored.isEmpty()) {
      return lastSeq();
    }
    EmbeddingSpec wanted = spec;
    int rows = 0;
    for (RestoredMemory r : restored) {
      rows += r.history().size();
      if (wanted != null
          && r.current().isPresent()
          && r.current().get().embeddingView().length != wanted.dimension()) {
        throw new DimensionMismatchException(
            "memory "
                + r.id()
                + " has a "
                + r.current().get().embeddingView().length
                + "-dimensional embedding; the store holds "
                + wanted.dimension()
                + "-dimensional ones");
      }
    }
    int historyRows = rows;
    List<Runnable> cachePuts = new ArrayList<>();
    long restoredLast =
        db.write(
            "restore " + restored.size() + " imported memories to tenant '" + tenant + "'",
            c -> {
              long last;
              try (PreparedStatement ps =
                  c.prepareStatement(
                      "UPDATE store_state SET last_seq = last_seq + ? WHERE id = 1 RETURNING last_seq")) {
                ps.setLong(1, historyRows);
                try (ResultSet rs = ps.executeQuery()) {
                  rs.next();
                  last = rs.getLong(1);
                }
              }
              long seq = last - historyRows;
              try (PreparedStatement insert = c.prepareStatement(MemoryRows.INSERT);
                  PreparedStatement history = c.prepareStatement(INSERT_HISTORY);
                  PreparedStatement exists =
                      c.prepareStatement("SELECT 1 FROM memories WHERE tenant = ? AND id = ?")) {
                for (RestoredMemory r : restored) {
                  for (HistoryEntry h : r.history()) {
                    seq++;
                    history.setLong(1, seq);
                    history.setString(2, tenant);
                    history.setString(3, r.id());
                    history.setString(4, h.event().name());
                    history.setString(5, h.oldText());
                    history.setString(6, h.newText());
                    history.setString(7, h.actorId());
                    history.setString(8, h.role() == null ? null : h.role().wireName());
                    ColumnCodecs.bindInstant(history, 9, h.at());
                    history.setString(11, h.pipeline());
                    history.executeUpdate();
                  }
                  if (r.current().isPresent()) {
                    exists.setString(1, tenant);
                    exists.setString(2, r.id());
                    try (ResultSet rs = exists.executeQuery()) {
                      if (rs.next()) {
                        throw new StorageException(
                            "restore of memory "
                                + r.id()
                                + ": a memory with this id already exists"
                                + " in tenant '"
                                + tenant
                                + "'");
                      }
                    }
                    MemoryRows.bind(insert, r.current().get(), seq);
                    insert.executeUpdate();
                    long rowSeq = seq;
                    StoredMemory row = r.current().get();
                    embeddings.ifPresent(cache -> cachePuts.add(() -> keep(cache, row, rowSeq)));
                  }
                }
              }
              return last;
            });
    cachePuts.forEach(
        Runnable::run); // only once committed: a rolled-back number may be reserved again
    return restoredLast;
  }

  @Override
  public List<String> memoryIds(String tenant, Optional<Scope> scope, String afterId, int limit) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(afterId, "afterId");
    StringBuilder sql = new StringBuilder();
    List<String> args = new ArrayList<>();
    args.add(tenant);
    if (scope.isPresent()) {
      sql.append("SELECT id FROM memories WHERE tenant = ?");
      scope
          .get()
          .userId()
          .ifPresent(
              v -> {
                sql.append(" AND user_id = ?");
                args.add(v);
              });
      scope
          .get()
          .agentId()
          .ifPresent(
              v -> {
                sql.append(" AND agent_id = ?");
                args.add(v);
              });
      scope
          .get()
          .runId()
          .ifPresent(
              v -> {
                sql.append(" AND run_id = ?");
                args.add(v);
              });
      sql.append(" AND id COLLATE \"C\" > ? ORDER BY id COLLATE \"C\" LIMIT ?");
    } else {
      sql.append(
          "SELECT DISTINCT memory_id COLLATE \"C\" AS m FROM history WHERE tenant = ?"
              + " AND memory_id COLLATE \"C\" > ? ORDER BY m LIMIT ?");
    }
    args.add(afterId);
    return db.read(
        "page the memory ids of tenant '" + tenant + "'",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            for (int i = 0; i < args.size(); i++) {
              ps.setString(i + 1, args.get(i));
            }
            ps.setInt(args.size() + 1, Math.max(1, limit));
            List<String> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                out.add(rs.getString(1));
              }
            }
            return out;
          }
        });
  }

  private static void writeMemory(
      Connection c,
      MemoryChange change,
      long seq,
      PreparedStatement insert,
      PreparedStatement update,
      PreparedStatement delete)
      throws SQLException {
    StoredMemory m = change.memory();
    switch (change.event()) {
      case ADD -> {
        try (PreparedStatement exists =
            c.prepareStatement("SELECT 1 FROM memories WHERE tenant = ? AND id = ?")) {
          exists.setString(1, m.tenant());
          exists.setString(2, m.id());
          try (ResultSet rs = exists.executeQuery()) {
            if (rs.next()) {
              throw new StorageException(
                  "ADD of memory "
                      + m.id()
                      + ": a memory with this id already exists in"
                      + " tenant '"
                      + m.tenant()
                      + "'");
            }
          }
        }
        MemoryRows.bind(insert, m, seq);
        insert.executeUpdate();
      }
      case UPDATE -> {
        MemoryRows.bind(update, m, seq);
        if (update.executeUpdate() == 0) {
          throw new MemoryNotFoundException(m.id());
        }
      }
      case DELETE -> {
        delete.setString(1, m.tenant());
        delete.setString(2, m.id());
        if (delete.executeUpdate() == 0) {
          throw new MemoryNotFoundException(m.id());
        }
      }
      default -> throw new IllegalArgumentException("a store cannot apply " + change.event());
    }
  }

  private void writeHistory(PreparedStatement ps, MemoryChange change, long seq)
      throws SQLException {
    StoredMemory m = change.memory();
    ps.setLong(1, seq);
    ps.setString(2, m.tenant());
    ps.setString(3, m.id());
    ps.setString(4, change.event().name());
    ps.setString(5, change.previousText());
    ps.setString(6, change.event() == EventType.DELETE ? null : m.item().text());
    ps.setString(7, change.actorId());
    ps.setString(8, change.role() == null ? null : change.role().wireName());
    ColumnCodecs.bindInstant(ps, 9, change.at());
    ps.setString(11, change.pipeline());
    ps.executeUpdate();
  }

  private static void appendWindow(Connection c, String tenant, ChangeSet.WindowAppend window)
      throws SQLException {
    String key = window.scope().key();
    try (PreparedStatement insert = c.prepareStatement(INSERT_MESSAGE)) {
      for (Message msg : window.messages()) {
        insert.setString(1, tenant);
        insert.setString(2, key);
        insert.setString(3, msg.role().wireName());
        insert.setString(4, msg.name());
        insert.setString(5, msg.content());
        ColumnCodecs.bindInstant(insert, 6, msg.timestamp());
        insert.setString(8, msg.sourceId());
        insert.addBatch();
      }
      insert.executeBatch();
    }
    try (PreparedStatement trim = c.prepareStatement(TRIM_WINDOW)) {
      trim.setString(1, tenant);
      trim.setString(2, key);
      trim.setString(3, tenant);
      trim.setString(4, key);
      trim.setInt(5, window.keep());
      trim.executeUpdate();
    }
  }

  private void checkDimensions(ChangeSet changes) {
    Optional<EmbeddingSpec> s = embeddingSpec();
    if (s.isEmpty()) {
      return;
    }
    for (MemoryChange c : changes.changes()) {
      int length = c.memory().embeddingView().length;
      if (c.event() != EventType.DELETE && length != s.get().dimension()) {
        throw new DimensionMismatchException(
            "memory "
                + c.memory().id()
                + " has a "
                + length
                + "-dimensional embedding, but the database holds "
                + s.get().dimension()
                + "-dimensional ones from '"
                + s.get().modelId()
                + "'");
      }
    }
  }

  @Override
  public Optional<StoredMemory> get(String tenant, String id) {
    return db.read(
        "read memory " + id,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT "
                      + MemoryRows.STORED_COLUMNS
                      + " FROM memories m WHERE m.tenant = ? AND m.id = ?")) {
            ps.setString(1, tenant);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next()
                  ? Optional.of(MemoryRows.stored(rs, 1))
                  : Optional.<StoredMemory>empty();
            }
          }
        });
  }

  @Override
  public List<StoredMemory> getAll(String tenant, Collection<String> ids) {
    return readByIds(
        "read " + ids.size() + " memories",
        MemoryRows.STORED_COLUMNS,
        tenant,
        ids,
        rs -> MemoryRows.stored(rs, 1));
  }

  /** Reads the id and metadata columns only: no text, context or embedding is decoded. */
  @Override
  public Map<String, Map<String, Object>> metadata(String tenant, Collection<String> ids) {
    Map<String, Map<String, Object>> out = new HashMap<>();
    readByIds(
            "read the metadata of " + ids.size() + " memories",
            "m.id, m.metadata",
            tenant,
            ids,
            rs -> Map.entry(rs.getString(1), ColumnCodecs.metadata(rs.getString(2))))
        .forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }

  /** Reads one value from the current row of a result. */
  @FunctionalInterface
  private interface RowReader<T> {
    T read(ResultSet rs) throws SQLException;
  }

  /** {@code columns} of the memories of {@code tenant} with these ids that exist, one per row. */
  private <T> List<T> readByIds(
      String what, String columns, String tenant, Collection<String> ids, RowReader<T> row) {
    if (ids.isEmpty()) {
      return List.of();
    }
    return db.read(
        what,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT " + columns + " FROM memories m WHERE m.tenant = ? AND m.id = ANY (?)")) {
            ps.setString(1, tenant);
            ps.setArray(2, c.createArrayOf("text", ids.toArray()));
            List<T> out = new ArrayList<>(ids.size());
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                out.add(row.read(rs));
              }
            }
            return out;
          }
        });
  }

  @Override
  public List<MemoryItem> findByHash(String tenant, Scope scope, String hash) {
    Sql sql =
        new Sql()
            .append("SELECT " + MemoryRows.ITEM_COLUMNS + " FROM memories m WHERE m.tenant = ")
            .param(tenant)
            .append(" AND m.hash = ")
            .param(hash);
    Restriction.scope(sql, scope);
    sql.append(MemoryRows.NEWEST_FIRST);
    return db.read("find memories by hash", c -> items(c, sql));
  }

  /** The count and the page come from one snapshot. */
  @Override
  public Page<MemoryItem> list(String tenant, ListRequest request, LocalDate today) {
    Sql where =
        Restriction.where(
            tenant, request.scope(), request.filter(), request.includeExpired(), today);
    return db.read(
        "list memories",
        true,
        c -> {
          long total;
          try (PreparedStatement count =
              c.prepareStatement("SELECT count(*) FROM memories m" + where.text())) {
            where.bind(count, 1);
            try (ResultSet rs = count.executeQuery()) {
              rs.next();
              total = rs.getLong(1);
            }
          }
          if (total <= request.offset()) {
            return new Page<MemoryItem>(List.of(), total, request.offset());
          }
          Sql page =
              new Sql()
                  .append("SELECT " + MemoryRows.ITEM_COLUMNS + " FROM memories m")
                  .append(where)
                  .append(MemoryRows.NEWEST_FIRST + " LIMIT ")
                  .param(request.limit())
                  .append(" OFFSET ")
                  .param(request.offset());
          return new Page<>(items(c, page), total, request.offset());
        });
  }

  @Override
  public List<String> expiredIds(String tenant, LocalDate today, int limit) {
    return db.read(
        "find expired memories",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT id FROM memories WHERE tenant = ? AND"
                      + " expiration_day <= ? ORDER BY expiration_day, id LIMIT ?")) {
            ps.setString(1, tenant);
            ps.setInt(2, Math.toIntExact(today.toEpochDay()));
            ps.setInt(3, limit);
            List<String> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                out.add(rs.getString(1));
              }
            }
            return out;
          }
        });
  }

  @Override
  public List<HistoryEntry> history(String tenant, String memoryId) {
    return db.read(
        "read the history of " + memoryId,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT seq, memory_id, event, old_text, new_text, actor_id,"
                      + " role, at_s, at_ns, pipeline FROM history WHERE tenant = ? AND memory_id = ? ORDER BY seq")) {
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
        });
  }

  @Override
  public List<Message> recentMessages(String tenant, Scope scope, int limit) {
    return db.read(
        "read the message window",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT role, name, content, ts_s, ts_ns, source_id FROM"
                      + " (SELECT id, role, name, content, ts_s, ts_ns, source_id FROM messages WHERE tenant = ? AND"
                      + " scope_key = ? ORDER BY id DESC LIMIT ?) w ORDER BY id")) {
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
        });
  }

  @Override
  public Optional<String> summary(String tenant, Scope scope) {
    return db.read(
        "read the summary",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("SELECT text FROM summaries WHERE tenant = ? AND scope_key = ?")) {
            ps.setString(1, tenant);
            ps.setString(2, scope.key());
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? Optional.of(rs.getString(1)) : Optional.<String>empty();
            }
          }
        });
  }

  @Override
  public void saveSummary(String tenant, Scope scope, String summary) {
    Objects.requireNonNull(summary, "summary");
    db.write(
        "save the summary",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO summaries (tenant, scope_key, text)"
                      + " VALUES (?, ?, ?) ON CONFLICT (tenant, scope_key) DO UPDATE SET text = EXCLUDED.text")) {
            ps.setString(1, tenant);
            ps.setString(2, scope.key());
            ps.setString(3, summary);
            return ps.executeUpdate();
          }
        });
  }

  @Override
  public long lastSeq() {
    return stateColumn("last_seq");
  }

  @Override
  public long generation() {
    return stateColumn("generation");
  }

  private long stateColumn(String column) {
    return db.read(
        "read " + column,
        c -> {
          try (PreparedStatement ps =
                  c.prepareStatement("SELECT " + column + " FROM store_state WHERE id = 1");
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
          }
        });
  }

  /**
   * Streams the feed from one snapshot with a cursor; {@code visitor} may call this store (other
   * connections).
   */
  @Override
  public void changesSince(long seq, Consumer<Change> visitor) {
    Objects.requireNonNull(visitor, "visitor");
    db.read(
        "read the changes after seq " + seq,
        true,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(CHANGES)) {
            ps.setFetchSize(500);
            ps.setLong(1, seq);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                rs.getString(4);
                StoredMemory current = rs.wasNull() ? null : MemoryRows.stored(rs, 4);
                visitor.accept(
                    new Change(rs.getLong(1), rs.getString(2), rs.getString(3), current));
              }
            }
          }
          return null;
        });
  }

  @Override
  public void forEach(Consumer<StoredMemory> visitor) {
    Objects.requireNonNull(visitor, "visitor");
    db.read(
        "read all memories",
        true,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("SELECT " + MemoryRows.STORED_COLUMNS + " FROM memories m")) {
            ps.setFetchSize(500);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                visitor.accept(MemoryRows.stored(rs, 1));
              }
            }
          }
          return null;
        });
  }

  /**
   * Deletes the tenant's rows (its graph included) and increases the generation in one transaction;
   * sequence numbers go on.
   */
  @Override
  public void reset(String tenant) {
    Objects.requireNonNull(tenant, "tenant");
    db.write(
        "reset tenant '" + tenant + "'",
        c -> {
          try (PreparedStatement lock =
              c.prepareStatement(
                  "UPDATE store_state SET generation = generation + 1 WHERE id = 1")) {
            lock.executeUpdate();
          }
          for (String table : List.of("memories", "history", "messages", "summaries")) {
            try (PreparedStatement ps =
                c.prepareStatement("DELETE FROM " + table + " WHERE tenant = ?")) {
              ps.setString(1, tenant);
              ps.executeUpdate();
            }
          }
          GraphRows.deleteTenant(c, tenant);
          return null;
        });
    embeddings.ifPresent(cache -> cache.removeTenant(tenant));
  }

  @Override
  public long count() {
    return db.read(
        "count memories",
        c -> {
          try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM memories");
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
          }
        });
  }

  /** Nothing to close: the {@link PostgresStorage} owns the pool. */
  @Override
  public void close() {}

  private static List<MemoryItem> items(Connection c, Sql sql) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.text())) {
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
}
