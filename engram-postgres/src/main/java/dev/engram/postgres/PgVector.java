package dev.engram.postgres;

import dev.engram.StorageException;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.sql.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pgvector path of {@link PostgresSearchIndex}: an {@code embedding_vector vector(n)} column
 * generated from the {@code real[]} embedding (so every writer, of any version or mode, keeps it
 * right) with an HNSW index on cosine distance.
 *
 * <p><b>The column.</b> Its type depends on the embedder's dimension, which no migration knows, so
 * {@link #prepare} adds it (and the index) at the first open in pgvector mode, for the dimension of
 * that open, under an advisory lock so that processes starting together add it once. A column that
 * exists is kept as it is: the engine refuses an embedder of another dimension (the model is
 * recorded in {@code store_state}).
 *
 * <p><b>The search.</b> A dense search first counts the memories that pass the tenant, scope,
 * expiry and filter restriction, stopping at the exact-search limit + 1 ({@link
 * PostgresSettings#exactSearchLimit}). Up to that many it orders them all by exact cosine distance
 * (no recall lost, the fastest way for a user's or a conversation's memories). Beyond it, it walks
 * the HNSW index with pgvector 0.8's iterative scan ({@code hnsw.iterative_scan = relaxed_order}),
 * which keeps scanning until {@code k} rows pass the restriction, then re-sorts those exactly. Both
 * queries carry the whole restriction in their WHERE clause, so no row of another tenant or scope
 * can ever be returned.
 */
final class PgVector {
  /** The HNSW candidate list ({@code hnsw.ef_search}), at least {@code k}. */
  static final int EF_SEARCH = 100;

  private static final Logger LOG = LoggerFactory.getLogger(PgVector.class);
  private static final String COLUMN = "embedding_vector";

  /**
   * Where Engram creates the extension when the database has none: a schema of its own that no
   * store drops.
   */
  static final String EXTENSION_SCHEMA = "engram_pgvector";

  /**
   * Cosine similarity from pgvector's cosine distance {@code d}; NaN (a zero vector) scores 0 as on
   * the exact path.
   */
  private static final String SIMILARITY = "CASE WHEN d = 'NaN'::float8 THEN 0 ELSE 1 - d END";

  private final String ext;
  private final int exactLimit;

  private PgVector(String extensionSchema, int exactLimit) {
    this.ext = '"' + extensionSchema + '"';
    this.exactLimit = exactLimit;
  }

  /** True if the server offers the {@code vector} extension (installed or installable). */
  static boolean available(Connection c) throws SQLException {
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM pg_available_extensions WHERE name = 'vector'");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1) > 0;
    }
  }

  /**
   * Creates the extension if it is missing, and the vector column and its HNSW index if they are
   * missing, in one transaction under an advisory lock on ({@code schema}, "pgvector").
   */
  static PgVector prepare(Connection c, String schema, int dimension, int exactLimit)
      throws SQLException {
    c.setAutoCommit(false);
    try {
      try (PreparedStatement ps =
          c.prepareStatement("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")) {
        ps.setString(1, "engram pgvector setup of " + schema);
        ps.execute();
      }
      createExtension(c);
      requireIterativeScans(c);
      PgVector vector = new PgVector(extensionSchema(c), exactLimit);
      Optional<String> type = columnType(c);
      if (type.isEmpty()) {
        LOG.info(
            "adding the pgvector column {}.memories.{} (vector({})) and its HNSW index",
            schema,
            COLUMN,
            dimension);
        try (Statement s = c.createStatement()) {
          s.execute(
              "ALTER TABLE memories ADD COLUMN "
                  + COLUMN
                  + " "
                  + vector.ext
                  + ".vector("
                  + dimension
                  + ") GENERATED ALWAYS AS (embedding::"
                  + vector.ext
                  + ".vector("
                  + dimension
                  + ")) STORED");
          s.execute(
              "CREATE INDEX memories_embedding_hnsw ON memories USING hnsw ("
                  + COLUMN
                  + " "
                  + vector.ext
                  + ".vector_cosine_ops)");
        }
      } else if (!type.get().equals("vector(" + dimension + ")")) {
        LOG.warn(
            "the pgvector column {}.memories.{} is {}, not vector({}); the store's recorded model decides",
            schema,
            COLUMN,
            type.get(),
            dimension);
      }
      c.commit();
      return vector;
    } catch (SQLException | RuntimeException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(true);
    }
  }

  /**
   * Creates the {@code vector} extension if no schema of the database has it, in its own schema
   * {@value #EXTENSION_SCHEMA}, never in an Engram schema: an extension lives in one schema, and
   * dropping the Engram schema it had been created in would drop it with every other schema's
   * vector column. Under a database-wide advisory lock, since schemas that open together would
   * otherwise race on {@code CREATE EXTENSION}. An extension that a DBA installed elsewhere is used
   * where it is.
   */
  private static void createExtension(Connection c) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")) {
      ps.setString(1, "engram pgvector extension");
      ps.execute();
    }
    try (PreparedStatement ps =
            c.prepareStatement("SELECT count(*) FROM pg_extension WHERE extname = 'vector'");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      if (rs.getLong(1) > 0) {
        return;
      }
    }
    LOG.info("creating the pgvector extension in schema {}", EXTENSION_SCHEMA);
    try (Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA IF NOT EXISTS " + EXTENSION_SCHEMA);
      s.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA " + EXTENSION_SCHEMA);
    }
  }

  /**
   * pgvector 0.8 brought the iterative index scans that filtered searches of large sets rely on.
   */
  private static void requireIterativeScans(Connection c) throws SQLException {
    try (PreparedStatement ps =
            c.prepareStatement("SELECT extversion FROM pg_extension WHERE extname = 'vector'");
        ResultSet rs = ps.executeQuery()) {
      String version = rs.next() ? rs.getString(1) : "";
      String[] parts = version.split("\\.", -1);
      boolean recent;
      try {
        recent =
            parts.length >= 2
                && (Integer.parseInt(parts[0]) > 0 || Integer.parseInt(parts[1]) >= 8);
      } catch (NumberFormatException e) {
        recent = false;
      }
      if (!recent) {
        throw new StorageException(
            "the 'vector' extension is version '"
                + version
                + "', but the pgvector path needs"
                + " 0.8 or newer (iterative index scans): run ALTER EXTENSION vector UPDATE after upgrading pgvector, or"
                + " set store.vectors to array");
      }
    }
  }

  private static String extensionSchema(Connection c) throws SQLException {
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n"
                    + " ON n.oid = e.extnamespace WHERE e.extname = 'vector'");
        ResultSet rs = ps.executeQuery()) {
      if (!rs.next()) {
        throw new StorageException(
            "the 'vector' extension is not installed after CREATE EXTENSION");
      }
      return rs.getString(1);
    }
  }

  private static Optional<String> columnType(Connection c) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute"
                + " WHERE attrelid = 'memories'::regclass AND attname = ? AND NOT attisdropped")) {
      ps.setString(1, COLUMN);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next()
            ? Optional.of(rs.getString(1).replaceFirst("^.*\\.", ""))
            : Optional.empty();
      }
    }
  }

  /**
   * The {@code k} memories closest to {@code vector} among those {@code query} restricts to, best
   * first (ties by id), scored by cosine similarity (0 for a zero vector); exact for up to the
   * limit of them, by the HNSW index with iterative scans beyond. Runs in one read-only transaction
   * on {@code c}.
   */
  List<Candidate> dense(Connection c, IndexQuery query, float[] vector, int k) throws SQLException {
    Sql restriction =
        Restriction.where(
            query.tenant(), query.scope(), query.filter(), query.includeExpired(), query.today());
    if (restrictedCount(c, restriction) <= exactLimit) {
      // ordered by an expression of the distance, not the distance itself, so the planner cannot
      // use the index
      Sql exact =
          new Sql()
              .append("SELECT id, " + SIMILARITY + " AS score FROM (SELECT m.id, ")
              .append(distance(vector))
              .append(" AS d FROM memories m")
              .append(restriction)
              .append(") s ORDER BY score DESC, id LIMIT ")
              .param(k);
      return PostgresSearchIndex.candidates(c, exact);
    }
    try (Statement s = c.createStatement()) {
      s.execute("SET LOCAL hnsw.iterative_scan = relaxed_order");
      s.execute("SET LOCAL hnsw.ef_search = " + Math.max(EF_SEARCH, k));
      s.execute("SET LOCAL hnsw.max_scan_tuples = " + maxScanTuples(c, k));
      // the index scan is the only plan that yields rows in distance order without a sort
      s.execute("SET LOCAL enable_sort = off");
    }
    // relaxed_order may return the k rows slightly out of order: materialise them, then sort them
    // exactly
    Sql approximate =
        new Sql()
            .append("WITH c AS MATERIALIZED (SELECT m.id, ")
            .append(distance(vector))
            .append(" AS d FROM memories m")
            .append(restriction)
            .append(" ORDER BY ")
            .append(distance(vector))
            .append(" LIMIT ")
            .param(k)
            .append(") SELECT id, " + SIMILARITY + " AS score FROM c ORDER BY score DESC, id");
    return PostgresSearchIndex.candidates(c, approximate);
  }

  /**
   * How many index tuples the iterative scan may visit: the restricted set holds more than the
   * limit, so at least {@code limit / rows} of the table passes the restriction and about {@code k
   * * rows / limit} tuples yield {@code k} rows; four times that (at least pgvector's default of
   * 20,000), so that a large table does not end the scan before {@code k} rows are found. {@code
   * rows} is the planner's estimate of the table's size.
   */
  private long maxScanTuples(Connection c, int k) throws SQLException {
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT greatest(reltuples, 0)::bigint FROM pg_class WHERE oid = 'memories'::regclass");
        ResultSet rs = ps.executeQuery()) {
      long rows = rs.next() ? rs.getLong(1) : 0;
      long needed = 4L * k * rows / Math.max(1, exactLimit);
      return Math.min(Integer.MAX_VALUE, Math.max(20_000L, needed));
    }
  }

  /** {@code (m.embedding_vector <=> ?::vector)}, pgvector's cosine distance to {@code vector}. */
  private Sql distance(float[] vector) {
    return new Sql()
        .append("(m." + COLUMN + " OPERATOR(" + ext + ".<=>) ")
        .param(vectorText(vector))
        .append("::" + ext + ".vector)");
  }

  private long restrictedCount(Connection c, Sql restriction) throws SQLException {
    Sql count =
        new Sql()
            .append("SELECT count(*) FROM (SELECT 1 FROM memories m")
            .append(restriction)
            .append(" LIMIT ")
            .param(exactLimit + 1)
            .append(") s");
    try (PreparedStatement ps = c.prepareStatement(count.text())) {
      count.bind(ps, 1);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * pgvector's text form, {@code [x,y,...]}; bound as a string and cast, so the driver needs no
   * pgvector type.
   */
  static String vectorText(float[] v) {
    StringBuilder b = new StringBuilder(v.length * 12).append('[');
    for (int i = 0; i < v.length; i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append(v[i]);
    }
    return b.append(']').toString();
  }
}
