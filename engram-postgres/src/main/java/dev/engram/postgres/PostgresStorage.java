package dev.engram.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.engram.Scope;
import dev.engram.StorageException;
import dev.engram.ValidationException;
import dev.engram.spi.GraphStore;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.ScopeLease;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.Storage;
import dev.engram.spi.StorageFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Engram on PostgreSQL 15 or newer: the record ({@link PostgresMemoryStore}), the search over it
 * ({@link PostgresSearchIndex}) and the graph memory ({@link PostgresGraphStore}) in one schema,
 * shared by any number of Engram processes. Opening migrates the schema with Flyway (creating it if
 * missing) and pools connections with HikariCP. Every process sees every committed write: the only
 * per-process cache, the plain-array path's decoded embeddings ({@link EmbeddingCache}), holds each
 * embedding under the row version it belongs to and is used only for rows whose current version a
 * search reads in the database. Adds to one scope are serialised across processes by advisory locks
 * ({@link #lockScope}).
 *
 * <p>Vectors live in a {@code real[]} column. With pgvector ({@link VectorMode}: chosen, or
 * detected by {@code auto}) a generated {@code vector(n)} column with an HNSW index serves dense
 * search ({@link PgVector}); without it they are scored exactly, in Java over cached embeddings
 * ({@link PostgresSettings#vectorCacheMb}) or in SQL, which {@code auto} logs as a warning once at
 * open, since that path reads every row of the searched scope.
 *
 * <p>With a pool of one connection ({@code poolSize} 1, for servers such as PGlite that serve one
 * connection at a time) the migration runs on the pool's one connection and scope locks are session
 * advisory locks taken and released on it, so nothing ever waits for a second connection.
 */
public final class PostgresStorage implements Storage {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresStorage.class);

  private final HikariDataSource pool;
  private final PostgresMemoryStore records;
  private final PostgresSearchIndex index;
  private final PostgresGraphStore graph;
  private final ScopeLocks locks;
  private final boolean pgvectorAvailable;
  private final VectorMode vectors;
  private final Optional<EmbeddingCache> cache;

  private PostgresStorage(
      HikariDataSource pool,
      Database db,
      PostgresSettings settings,
      boolean pgvectorAvailable,
      Optional<PgVector> pgvector) {
    this.pool = pool;
    Optional<EmbeddingCache> cache =
        pgvector.isEmpty() && settings.vectorCacheMb() > 0
            ? Optional.of(
                new EmbeddingCache(
                    cacheBudget(settings.vectorCacheMb(), Runtime.getRuntime().maxMemory())))
            : Optional.empty();
    this.cache = cache;
    this.records = new PostgresMemoryStore(db, cache);
    this.index = new PostgresSearchIndex(db, pgvector, cache.map(CachedCosineSearch::new));
    this.graph = new PostgresGraphStore(db);
    this.locks = new ScopeLocks(pool, settings.schema(), settings.poolSize() == 1);
    this.pgvectorAvailable = pgvectorAvailable;
    this.vectors = pgvector.isPresent() ? VectorMode.PGVECTOR : VectorMode.ARRAY;
  }

  /**
   * The factory for {@code Engram.builder().storage(...)}: connects, migrates and opens the storage
   * when the memory is built, for the embedder's dimension.
   *
   * @throws ValidationException naming {@code settings} if it is null
   */
  public static StorageFactory with(PostgresSettings settings) {
    if (settings == null) {
      throw new ValidationException("settings", "is required");
    }
    return embedding -> open(settings, embedding.dimension());
  }

  /**
   * Connects, migrates the schema and opens the storage.
   *
   * @param settings where the database is
   * @param dimension the embedder's vector size (the engine checks it against the recorded model)
   * @throws StorageException if the server cannot be reached, refuses the credentials, or the
   *     migration fails; the message names the URL, user and schema, never the password
   */
  public static PostgresStorage open(PostgresSettings settings, int dimension) {
    if (dimension < 1) {
      throw new ValidationException("dimension", "must be positive, got " + dimension);
    }
    HikariDataSource pool = PostgresPools.open(settings, "engram-postgres", settings.poolSize());
    try {
      Database db =
          new Database(
              pool, settings.poolSize() == 1 ? Optional.of(settings.schema()) : Optional.empty());
      boolean pgvector = withConnection(db, PgVector::available);
      Optional<PgVector> vectorPath = Optional.empty();
      switch (settings.vectors()) {
        case PGVECTOR -> {
          if (!pgvector) {
            throw new StorageException(
                "store.vectors is pgvector, but the server has no 'vector' extension"
                    + " (install pgvector, or set store.vectors to array or auto)");
          }
          vectorPath =
              Optional.of(
                  withConnection(
                      db,
                      c ->
                          PgVector.prepare(
                              c, settings.schema(), dimension, settings.exactSearchLimit())));
        }
        case AUTO -> {
          if (pgvector) {
            vectorPath =
                Optional.of(
                    withConnection(
                        db,
                        c ->
                            PgVector.prepare(
                                c, settings.schema(), dimension, settings.exactSearchLimit())));
          } else {
            LOG.warn(
                "PostgreSQL at {} has no 'vector' extension (pgvector): vectors are scored exactly over"
                    + " real[] columns (in Java over this process's embedding cache, store.vector_cache_mb, or in"
                    + " SQL), which reads every memory of the searched scope; fine for scopes of thousands of"
                    + " memories, slow for millions (set store.vectors: array to choose this path and silence this"
                    + " warning)",
                settings.url());
          }
        }
        case ARRAY -> {}
        default -> throw new IllegalStateException("unknown vector mode " + settings.vectors());
      }
      return new PostgresStorage(pool, db, settings, pgvector, vectorPath);
    } catch (RuntimeException e) {
      pool.close();
      throw PostgresPools.failure(settings, e);
    }
  }

  /**
   * {@code mb} MiB, but at most a quarter of {@code maxHeap} (so that the default fits a small
   * heap).
   */
  static long cacheBudget(int mb, long maxHeap) {
    return Math.max(1, Math.min((long) mb << 20, maxHeap / 4));
  }

  private static <T> T withConnection(Database db, SqlWork<T> work) {
    try (Connection c = db.connection()) {
      return work.run(c);
    } catch (SQLException e) {
      throw new StorageException("could not prepare the vector search: " + e.getMessage(), e);
    }
  }

  @Override
  public MemoryStore records() {
    return records;
  }

  @Override
  public SearchIndex index() {
    return index;
  }

  /** The graph memory in the same schema ({@link PostgresGraphStore}). */
  @Override
  public Optional<GraphStore> graph() {
    return Optional.of(graph);
  }

  /** True: an add's graph changes commit in the same transaction as its memories. */
  @Override
  public boolean graphCommitsWithRecords() {
    return true;
  }

  /**
   * {@code pg_advisory_xact_lock} on (schema, tenant, scope), held until the lease closes; see
   * {@link ScopeLocks}.
   */
  @Override
  public ScopeLease lockScope(String tenant, Scope scope) {
    return locks.lock(tenant, scope);
  }

  /** True if the server offers the {@code vector} extension (detected at open). */
  public boolean pgvectorAvailable() {
    return pgvectorAvailable;
  }

  /**
   * The embedding cache of the plain-array path (for tests): empty on the pgvector path or when
   * turned off.
   */
  Optional<EmbeddingCache> embeddingCache() {
    return cache;
  }

  /**
   * The vector path in use: {@link VectorMode#PGVECTOR} or {@link VectorMode#ARRAY} (never {@code
   * AUTO}).
   */
  public VectorMode vectors() {
    return vectors;
  }

  /** Closes the connection pool. */
  @Override
  public void close() {
    pool.close();
  }
}
