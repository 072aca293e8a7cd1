package dev.engram.sqlite;

import dev.engram.DimensionMismatchException;
import dev.engram.EntitySummary;
import dev.engram.EventType;
import dev.engram.HistoryEntry;
import dev.engram.ListRequest;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Page;
import dev.engram.Scope;
import dev.engram.StorageException;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.EmbeddingSpec;
import dev.engram.spi.GraphOutbox;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.RestoredMemory;
import dev.engram.spi.StoredMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The system of record on SQLite: memories with their embeddings, their history (which is also the
 * change feed) and each scope's message window, in one database file run in WAL mode. See {@link
 * Schema} for the tables.
 *
 * <p><b>Durability.</b> {@link #apply} writes a whole change set in one transaction: when it
 * returns the set is committed with the guarantee the chosen {@link Durability} gives ({@link
 * Durability#NORMAL} survives a process crash or {@code kill -9}, {@link Durability#FULL} also
 * power loss); when it throws, nothing of it was written.
 *
 * <p><b>Threading.</b> Thread-safe. Writes are serialised on one connection; reads run concurrently
 * on a small pool of read-only connections and never wait for a write (WAL). A busy timeout on
 * every connection keeps {@code SQLITE_BUSY} from reaching callers. SQL failures surface as {@link
 * StorageException}s naming the operation.
 *
 * <p><b>Caching.</b> The memories {@link #getAll} and {@link #metadata} read are kept ({@link
 * RecordCache}, least recently used dropped beyond {@link #defaultRecordCacheBytes} or the budget
 * given to {@link #open(Path, Durability, long)}): a search reads a few hundred, mostly the same
 * for one scope's queries. Each write drops what it wrote once it has ended, so a read after {@link
 * #apply} returns sees it. The store must be its file's only writer, as {@code EmbeddedStorage}'s
 * lock makes it.
 *
 * <p><b>Filters</b> are translated to SQL and applied inside SQLite, with the exact semantics of
 * {@link dev.engram.filter.FilterEvaluator} (see {@code dev.engram.spi.sql.FilterSql}); {@code
 * icontains} lower-cases with Java's Unicode rules, not SQLite's ASCII-only {@code lower()}.
 *
 * <p><b>Values.</b> Times round-trip exactly (nanosecond precision). Metadata is stored as JSON:
 * integral numbers come back as Integer, Long or BigInteger (the smallest that fits), other numbers
 * as Double.
 */
public final class SqliteMemoryStore implements MemoryStore {
  private final Connections db;
  private final SqliteGraphStore graph;
  private final SqliteGraphOutbox outbox;
  private final RecordCache records;
  private volatile EmbeddingSpec spec;

  private SqliteMemoryStore(Connections db, EmbeddingSpec spec, long recordCacheBytes) {
    this.db = db;
    this.spec = spec;
    this.records = new RecordCache(recordCacheBytes);
    this.graph = new SqliteGraphStore(db, recordCacheBytes);
    this.outbox = new SqliteGraphOutbox(db);
  }

  /**
   * The graph memory kept in the same database. {@link #apply} writes a change set's graph changes
   * in the same transaction as its memory changes; {@link #reset} also clears the tenant's graph.
   * Closed with this store.
   */
  public SqliteGraphStore graph() {
    return graph;
  }

  /**
   * Opens a store, creating the file and its schema if needed. History rows take their times from
   * the changes ({@link MemoryChange#at()}, the engine's clock): the store reads no clock.
   *
   * @param dbFile the database file; its directory is created if missing
   * @param durability how commits are synced
   * @throws StorageException if the file cannot be opened, is not an Engram database of this schema
   *     version, or cannot run in WAL mode
   */
  public static SqliteMemoryStore open(Path dbFile, Durability durability) {
    return open(dbFile, durability, defaultRecordCacheBytes());
  }

  /**
   * The memories a store keeps by default ({@link #open(Path, Durability, long)}): 64 MiB of
   * estimated bytes (about 20,000 memories of 384 dimensions), or a sixteenth of a smaller heap.
   */
  public static long defaultRecordCacheBytes() {
    return RecordCache.defaultBudget(Runtime.getRuntime().maxMemory());
  }

  /**
   * Opens a store as {@link #open(Path, Durability)} does, keeping at most {@code recordCacheBytes}
   * estimated bytes of the memories it read, and as many of the graph relations it read (0 keeps
   * none).
   *
   * @throws IllegalArgumentException if {@code recordCacheBytes} is negative
   */
  public static SqliteMemoryStore open(Path dbFile, Durability durability, long recordCacheBytes) {
    Objects.requireNonNull(dbFile, "dbFile");
    Objects.requireNonNull(durability, "durability");
    if (recordCacheBytes < 0) {
      throw new IllegalArgumentException(
          "recordCacheBytes must be 0 (keep none) or more, got " + recordCacheBytes);
    }
    Path file = dbFile.toAbsolutePath().normalize();
    try {
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
    } catch (IOException e) {
      throw new StorageException(
          "could not create the directory of SQLite store " + file + ": " + e.getMessage(), e);
    }
    Connections connections;
    try {
      connections = Connections.open(file, durability);
    } catch (SQLException e) {
      throw new StorageException("could not open SQLite store " + file + ": " + e.getMessage(), e);
    }
    try {
      connections.writeRaw("check the journal mode", SqliteMemoryStore::checkWal);
      EmbeddingSpec spec =
          connections.write(
              "create the schema",
              h -> {
                Schema.create(h, file.toString());
                return readSpec(h);
              });
      return new SqliteMemoryStore(connections, spec, recordCacheBytes);
    } catch (RuntimeException e) {
      try {
        connections.close();
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  private static Void checkWal(Handle h) throws SQLException {
    try (Statement st = h.connection().createStatement();
        ResultSet rs = st.executeQuery("PRAGMA journal_mode")) {
      String mode = rs.next() ? rs.getString(1) : "unknown";
      if (!"wal".equalsIgnoreCase(mode)) {
        throw new SQLException(
            "the database runs in journal mode '"
                + mode
                + "', not WAL (is it on a network "
                + "file system, or open in another program?)");
      }
    }
    return null;
  }

  private static EmbeddingSpec readSpec(Handle h) throws SQLException {
    Optional<String> model = Schema.get(h, Schema.EMBEDDING_MODEL);
    Optional<String> dimension = Schema.get(h, Schema.EMBEDDING_DIMENSION);
    if (model.isEmpty() || dimension.isEmpty()) {
      return null;
    }
    return new EmbeddingSpec(model.get(), Integer.parseInt(dimension.get()));
  }

  /** The database file (absolute). */
  public Path file() {
    return db.file();
  }

  @Override
  public Optional<EmbeddingSpec> embeddingSpec() {
    return Optional.ofNullable(spec);
  }

  /**
   * Records the embedding model. Recording the same spec again does nothing.
   *
   * @throws IllegalStateException if another spec is already recorded
   */
  @Override
  public void recordEmbeddingSpec(EmbeddingSpec newSpec) {
    Objects.requireNonNull(newSpec, "spec");
    spec =
        db.write(
            "record the embedding spec " + newSpec,
            h -> {
              EmbeddingSpec existing = readSpec(h);
              if (existing != null) {
                if (!existing.equals(newSpec)) {
                  throw new IllegalStateException(
                      "SQLite store "
                          + db.file()
                          + " already records embedding model "
                          + existing
                          + "; cannot record "
                          + newSpec);
                }
                return existing;
              }
              Schema.put(h, Schema.EMBEDDING_MODEL, newSpec.modelId());
              Schema.put(h, Schema.EMBEDDING_DIMENSION, Integer.toString(newSpec.dimension()));
              return newSpec;
            });
  }

  /**
   * Writes the memory rows, one history row per change, the window messages and the graph changes
   * in one transaction; the graph changes go into {@link #graph()}, or into {@link #graphOutbox()}
   * as one entry if the set asks for {@link ChangeSet#graphToOutbox()}.
   *
   * @return the sequence number of the set's last memory change, or {@link #lastSeq()} if it has
   *     none
   * @throws dev.engram.MemoryNotFoundException if an UPDATE or DELETE names a memory the tenant
   *     does not have (nothing is written)
   * @throws DimensionMismatchException if an embedding's length differs from the recorded spec
   * @throws StorageException if SQLite fails, for example on an ADD of an existing id (nothing is
   *     written)
   */
  @Override
  public long apply(ChangeSet changes) {
    Objects.requireNonNull(changes, "changes");
    if (changes.isEmpty()) {
      return lastSeq();
    }
    checkDimensions(changes);
    try {
      return db.write(
          "apply "
              + changes.changes().size()
              + " memory changes and "
              + changes.windows().size()
              + " window appends to tenant '"
              + changes.tenant()
              + "'",
          h -> ChangeWriter.write(h, changes));
    } finally {
      records.invalidate(
          changes.tenant(), changes.changes().stream().map(c -> c.memory().id()).toList());
      if (!changes.graph().isEmpty() && !changes.graphToOutbox()) {
        graph.invalidate(changes.tenant(), changes.graph());
      }
    }
  }

  /**
   * {@inheritDoc}
   *
   * @throws DimensionMismatchException if an embedding's length differs from the recorded spec
   * @throws StorageException if SQLite fails, for example on a memory id the tenant already has
   *     (nothing is written)
   */
  @Override
  public long restore(String tenant, List<RestoredMemory> memories) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(memories, "memories");
    if (memories.isEmpty()) {
      return lastSeq();
    }
    for (RestoredMemory r : memories) {
      if (r.current().isPresent()) {
        StoredMemory m = r.current().get();
        if (!m.tenant().equals(tenant)) {
          throw new IllegalArgumentException(
              "memory " + m.id() + " of tenant " + m.tenant() + " restored into tenant " + tenant);
        }
        checkDimension(m);
      }
    }
    try {
      return db.write(
          "restore " + memories.size() + " memories into tenant '" + tenant + "'",
          h -> ChangeWriter.restore(h, tenant, memories));
    } finally {
      records.invalidate(tenant);
    }
  }

  /**
   * Ids by the memories table (scope) or the history table's tenant index (whole tenant), in id
   * order.
   */
  @Override
  public List<String> memoryIds(String tenant, Optional<Scope> scope, String afterId, int limit) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(afterId, "afterId");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive, got " + limit);
    }
    return db.read(
        "list memory ids of "
            + scope.map(Scope::toString).orElse("the whole tenant")
            + " in tenant '"
            + tenant
            + "'",
        h -> Reads.memoryIds(h, tenant, scope, afterId, limit));
  }

  /**
   * {@inheritDoc}
   *
   * <p>The {@code graph_outbox} table of this database; {@link #reset} drops the tenant's entries.
   */
  @Override
  public Optional<GraphOutbox> graphOutbox() {
    return Optional.of(outbox);
  }

  private void checkDimensions(ChangeSet changes) {
    EmbeddingSpec s = spec;
    if (s == null) {
      return;
    }
    for (MemoryChange c : changes.changes()) {
      if (c.event() != EventType.DELETE) {
        checkDimension(c.memory());
      }
    }
  }

  private void checkDimension(StoredMemory m) {
    EmbeddingSpec s = spec;
    int length = m.embeddingView().length;
    if (s != null && length != s.dimension()) {
      throw new DimensionMismatchException(
          "memory "
              + m.id()
              + " has a "
              + length
              + "-dimensional embedding, but SQLite store "
              + db.file()
              + " holds "
              + s.dimension()
              + "-dimensional ones from model '"
              + s.modelId()
              + "'");
    }
  }

  @Override
  public Optional<StoredMemory> get(String tenant, String id) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(id, "id");
    return db.read(
        "get memory " + id + " of tenant '" + tenant + "'", h -> Reads.get(h, tenant, id));
  }

  @Override
  public List<StoredMemory> getAll(String tenant, Collection<String> ids) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(ids, "ids");
    if (ids.isEmpty()) {
      return List.of();
    }
    long version = records.version(tenant);
    Map<String, StoredMemory> kept = records.memories(tenant, ids);
    List<String> unread = ids.stream().filter(id -> !kept.containsKey(id)).toList();
    if (unread.isEmpty()) {
      return List.copyOf(kept.values());
    }
    List<StoredMemory> read =
        db.read(
            "get " + unread.size() + " memories of tenant '" + tenant + "'",
            h -> Reads.getAll(h, tenant, unread));
    records.putMemories(tenant, version, read);
    List<StoredMemory> out = new ArrayList<>(kept.size() + read.size());
    out.addAll(kept.values());
    out.addAll(read);
    return out;
  }

  /**
   * The metadata of memories kept whole or alone; of the others, reads the id and metadata columns
   * only: no text, context or embedding is decoded.
   */
  @Override
  public Map<String, Map<String, Object>> metadata(String tenant, Collection<String> ids) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(ids, "ids");
    if (ids.isEmpty()) {
      return Map.of();
    }
    long version = records.version(tenant);
    Map<String, Map<String, Object>> out = records.metadata(tenant, ids);
    List<String> unread = ids.stream().filter(id -> !out.containsKey(id)).toList();
    if (!unread.isEmpty()) {
      Map<String, Map<String, Object>> read =
          db.read(
              "read the metadata of " + unread.size() + " memories of tenant '" + tenant + "'",
              h -> Reads.metadata(h, tenant, unread));
      records.putMetadata(tenant, version, read);
      out.putAll(read);
    }
    return out;
  }

  @Override
  public List<MemoryItem> findByHash(String tenant, Scope scope, String hash) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(hash, "hash");
    return db.read(
        "find memories with hash " + hash + " in " + scope + " of tenant '" + tenant + "'",
        h -> Reads.findByHash(h, tenant, scope, hash));
  }

  @Override
  public Page<MemoryItem> list(String tenant, ListRequest request, LocalDate today) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(today, "today");
    return db.readSnapshot(
        "list memories of " + request.scope() + " in tenant '" + tenant + "'",
        h -> Reads.list(h, tenant, request, today));
  }

  @Override
  public List<String> expiredIds(String tenant, LocalDate today, int limit) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(today, "today");
    if (limit < 1) {
      return List.of();
    }
    return db.read(
        "find expired memories of tenant '" + tenant + "'",
        h -> Reads.expiredIds(h, tenant, today, limit));
  }

  @Override
  public List<HistoryEntry> history(String tenant, String memoryId) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(memoryId, "memoryId");
    return db.read(
        "read the history of memory " + memoryId + " of tenant '" + tenant + "'",
        h -> Reads.history(h, tenant, memoryId));
  }

  @Override
  public List<Message> recentMessages(String tenant, Scope scope, int limit) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(scope, "scope");
    if (limit < 1) {
      return List.of();
    }
    return db.read(
        "read the message window of " + scope + " in tenant '" + tenant + "'",
        h -> Reads.recentMessages(h, tenant, scope, limit));
  }

  @Override
  public Optional<String> summary(String tenant, Scope scope) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(scope, "scope");
    return db.read(
        "read the summary of " + scope + " in tenant '" + tenant + "'",
        h -> {
          var ps = h.cached("SELECT text FROM summaries WHERE tenant = ? AND scope_key = ?");
          ps.setString(1, tenant);
          ps.setString(2, scope.key());
          try (var rs = ps.executeQuery()) {
            return rs.next() ? Optional.of(rs.getString(1)) : Optional.<String>empty();
          }
        });
  }

  @Override
  public void saveSummary(String tenant, Scope scope, String summary) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(summary, "summary");
    db.write(
        "save the summary of " + scope + " in tenant '" + tenant + "'",
        h -> {
          var ps =
              h.cached(
                  "INSERT INTO summaries (tenant, scope_key, text) VALUES (?, ?, ?)"
                      + " ON CONFLICT (tenant, scope_key) DO UPDATE SET text = excluded.text");
          ps.setString(1, tenant);
          ps.setString(2, scope.key());
          ps.setString(3, summary);
          ps.executeUpdate();
          return null;
        });
  }

  @Override
  public long lastSeq() {
    return db.read("read the last sequence number", Schema::lastSeq);
  }

  @Override
  public long generation() {
    return db.read(
        "read the generation", h -> Long.parseLong(Schema.get(h, Schema.GENERATION).orElse("0")));
  }

  /**
   * Streams the feed from one read snapshot; {@code visitor} may call this store (it gets other
   * connections).
   */
  @Override
  public void changesSince(long seq, Consumer<Change> visitor) {
    Objects.requireNonNull(visitor, "visitor");
    db.read(
        "read the changes after seq " + seq,
        h -> {
          Reads.changesSince(h, seq, visitor);
          return null;
        });
  }

  /**
   * Streams every memory from one read snapshot without loading them all; {@code visitor} may call
   * this store.
   */
  @Override
  public void forEach(Consumer<StoredMemory> visitor) {
    Objects.requireNonNull(visitor, "visitor");
    db.read(
        "read all memories",
        h -> {
          Reads.forEach(h, visitor);
          return null;
        });
  }

  /**
   * Deletes the tenant's memories, history rows, window messages, summaries, graph and graph outbox
   * entries and increases the generation, in one transaction. Sequence numbers are never reused:
   * {@link #lastSeq()} does not go back.
   */
  @Override
  public void reset(String tenant) {
    Objects.requireNonNull(tenant, "tenant");
    try {
      resetRows(tenant);
    } finally {
      records.invalidate(tenant);
      graph.invalidate(tenant);
    }
  }

  private void resetRows(String tenant) {
    db.write(
        "reset tenant '" + tenant + "'",
        h -> {
          for (String table :
              List.of("memories", "history", "messages", "summaries", Schema.GRAPH_OUTBOX)) {
            var ps = h.cached("DELETE FROM " + table + " WHERE tenant = ?");
            ps.setString(1, tenant);
            ps.executeUpdate();
          }
          SqliteGraphStore.deleteTenant(h, tenant);
          long generation = Long.parseLong(Schema.get(h, Schema.GENERATION).orElse("0"));
          Schema.put(h, Schema.GENERATION, Long.toString(generation + 1));
          return null;
        });
  }

  @Override
  public long count() {
    return db.read("count memories", Reads::count);
  }

  @Override
  public List<EntitySummary> entities(String tenant) {
    Objects.requireNonNull(tenant, "tenant");
    return db.read("list the entities of tenant '" + tenant + "'", h -> Reads.entities(h, tenant));
  }

  /**
   * Closes every connection. Calls made afterwards fail with a {@link StorageException}.
   * Idempotent.
   */
  @Override
  public void close() {
    db.close();
  }

  @Override
  public String toString() {
    return "SqliteMemoryStore[" + db.file() + "]";
  }
}
