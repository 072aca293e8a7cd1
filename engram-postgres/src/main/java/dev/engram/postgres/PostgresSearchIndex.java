package dev.engram.postgres;

import dev.engram.spi.CommonTerms;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexOp;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.sql.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Search over the {@code memories} table itself: the record is the index, so there is nothing to
 * apply, commit or rebuild ({@link #isDerived()} is false) and a search on any process sees every
 * committed write.
 *
 * <ul>
 *   <li>Dense with pgvector: see {@link PgVector} (exact for small restricted sets, HNSW with
 *       iterative scans for large ones).
 *   <li>Dense without pgvector: exact cosine of every memory that passes the tenant, scope, expiry
 *       and filter restriction, best first, ties by id. Exact, so filters never cost recall; it
 *       reads every row of the restricted set, which is fine for a user's or a conversation's
 *       memories (thousands) and slow for scopes of millions. With the embedding cache ({@link
 *       PostgresSettings#vectorCacheMb}, on by default) the cosines are computed in Java over
 *       embeddings decoded once per row version ({@link CachedCosineSearch}); without it, in SQL
 *       ({@code engram_cosine} over {@code real[]}).
 *   <li>Keyword: PostgreSQL text search ({@code english} configuration, the GIN-indexed {@code tsv}
 *       column): any query word matches (the words of {@code plainto_tsquery} joined by OR), ranked
 *       by {@code ts_rank_cd} divided by 1 + the log of the document length (shorter memories first
 *       on equal matches, as BM25 does).
 *   <li>Keyword over {@link IndexField#CONTEXT}: the same search over the {@code tsvector} of each
 *       memory's source context ({@code context_tsv}, migration V12; not indexed: the scope's rows
 *       are found through its index).
 *   <li>Dense over {@link IndexField#CONTEXT}: exact cosine over the context embeddings ({@code
 *       context_embedding}, migration V13) of the restricted rows that have one, in every mode (no
 *       vector index: the scope's rows are found through its index, as for the context keyword
 *       search); in Java over the embedding cache where the plain-array path has one, in SQL
 *       otherwise.
 * </ul>
 */
final class PostgresSearchIndex implements SearchIndex {
  /**
   * The {@code tsvector} column of {@code memories} that a keyword search over {@code field} reads:
   * the memory's text ({@code tsv}, generated, migration V1) or its source context ({@code
   * context_tsv}, migration V12).
   */
  static String wordsColumn(IndexField field) {
    return switch (field) {
      case TEXT -> "m.tsv";
      case CONTEXT -> "m.context_tsv";
    };
  }

  /**
   * The condition on alias {@code m} that a row has a context embedding (an empty array is none).
   */
  static final String HAS_CONTEXT_EMBEDDING = "cardinality(m.context_embedding) > 0";

  private final Database db;
  private final Optional<PgVector> pgvector;
  private final Optional<CachedCosineSearch> cached;

  /**
   * A search index; {@code pgvector} present for the pgvector path, empty for the exact {@code
   * real[]} path, which scores in Java with {@code cached} if present, in SQL otherwise.
   */
  PostgresSearchIndex(
      Database db, Optional<PgVector> pgvector, Optional<CachedCosineSearch> cached) {
    if (pgvector.isPresent() && cached.isPresent()) {
      throw new IllegalArgumentException("the embedding cache serves the plain-array path only");
    }
    this.db = db;
    this.pgvector = pgvector;
    this.cached = cached;
  }

  /** False: the index is the record, so the engine never replays or rebuilds it. */
  @Override
  public boolean isDerived() {
    return false;
  }

  /**
   * The store's generation and last sequence number, and its memory count, read in one statement.
   */
  @Override
  public IndexState state() {
    return db.read(
        "read the index state",
        c -> {
          try (PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT generation, last_seq, (SELECT count(*) FROM memories)"
                          + " FROM store_state WHERE id = 1");
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            return new IndexState(rs.getLong(1), rs.getLong(2), rs.getLong(3));
          }
        });
  }

  /** Nothing to do: the store's transaction wrote the rows that searches read. */
  @Override
  public void apply(List<IndexOp> ops, long seq, long generation) {}

  /** Nothing to do: the store's reset deleted the rows. */
  @Override
  public void clear(long generation) {}

  /** Nothing to do: every write is durable when the store's transaction commits. */
  @Override
  public void commit() {}

  /**
   * Over the embeddings (with pgvector or exact) or the context embeddings (exact): see the class
   * comment.
   */
  @Override
  public List<Candidate> dense(IndexQuery query, IndexField field, float[] vector, int k) {
    return switch (field) {
      case TEXT -> textDense(query, vector, k);
      case CONTEXT -> contextDense(query, vector, k);
    };
  }

  /** The dense search over the memories' own embeddings. */
  private List<Candidate> textDense(IndexQuery query, float[] vector, int k) {
    if (pgvector.isPresent()) {
      return db.read(
          "search by vector (pgvector)", false, c -> pgvector.get().dense(c, query, vector, k));
    }
    if (cached.isPresent()) {
      return db.read(
          "search by vector (cached embeddings)",
          true,
          c -> cached.get().dense(c, query, vector, k));
    }
    return candidates("search by vector", cosineSql("m.embedding", query, vector, k, ""));
  }

  /** Both: the rows keep their context embeddings (migration V13) beside their embeddings. */
  @Override
  public Set<IndexField> denseFields() {
    return Set.of(IndexField.TEXT, IndexField.CONTEXT);
  }

  /** The dense search over the context embeddings of the rows that have one. */
  private List<Candidate> contextDense(IndexQuery query, float[] vector, int k) {
    if (cached.isPresent()) {
      return db.read(
          "search the context embeddings (cached)",
          true,
          c -> cached.get().contextDense(c, query, vector, k));
    }
    return candidates(
        "search the context embeddings",
        cosineSql("m.context_embedding", query, vector, k, " AND " + HAS_CONTEXT_EMBEDDING));
  }

  /**
   * Exact cosine in SQL of a {@code real[]} column of the restricted rows (and {@code also}), best
   * first.
   */
  private static Sql cosineSql(
      String column, IndexQuery query, float[] vector, int k, String also) {
    return new Sql()
        .append("SELECT m.id, engram_cosine(" + column + ", ")
        .param(Float4Arrays.parameter(vector))
        .append("::real[]) AS score FROM memories m")
        .append(
            Restriction.where(
                query.tenant(),
                query.scope(),
                query.filter(),
                query.includeExpired(),
                query.today()))
        .append(also + " ORDER BY score DESC, m.id LIMIT ")
        .param(k);
  }

  @Override
  public List<Candidate> keyword(IndexQuery query, IndexField field, String text, int k) {
    return switch (field) {
      case TEXT -> keyword("search by keyword", field, query, text, k);
      case CONTEXT -> keyword("search the source contexts by keyword", field, query, text, k);
    };
  }

  /**
   * Plain BM25 ({@code ts_rank_cd}) of the restricted rows, without the count of {@link
   * CommonTerms}: a repeat shares nearly every word of the text, its rare ones too, so the rule
   * would drop none of them, and the offline extractor asks once per fact while it ingests.
   */
  @Override
  public List<Candidate> repeatCandidates(IndexQuery query, String text, int k) {
    return candidates("look up repeat candidates", keywordSql(IndexField.TEXT, query, text, k));
  }

  /**
   * A keyword search under the rule of {@link CommonTerms}: one statement counts, among the
   * restricted rows, the rows holding each lexeme of {@code text} ({@link #frequenciesSql}); a
   * second searches them ({@link #keywordSql}).
   */
  private List<Candidate> keyword(
      String what, IndexField field, IndexQuery query, String text, int k) {
    return db.read(
        what,
        c -> {
          Map<String, Integer> frequencies = new LinkedHashMap<>();
          int memories = 0;
          Sql counts = frequenciesSql(field, query, text);
          try (PreparedStatement ps = c.prepareStatement(counts.text())) {
            counts.bind(ps, 1);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                String lexeme = rs.getString(1);
                if (lexeme == null) {
                  memories = rs.getInt(2);
                } else {
                  frequencies.put(lexeme, rs.getInt(2));
                }
              }
            }
          }
          if (frequencies.isEmpty()) {
            return List.of(); // stop words only
          }
          return candidates(
              c, keywordSql(field, query, text, k, CommonTerms.required(frequencies, memories)));
        });
  }

  /**
   * Each distinct lexeme of {@code text} (as {@code to_tsvector('english')} makes it) with the
   * number of restricted rows whose words of {@code field} hold it, then one row with a null lexeme
   * and the number of restricted rows. The rows are read once, by the same path as {@link
   * #keywordSql}.
   */
  static Sql frequenciesSql(IndexField field, IndexQuery query, String text) {
    return new Sql()
        .append("WITH r AS MATERIALIZED (SELECT " + wordsColumn(field) + " AS v FROM memories m")
        .append(
            Restriction.where(
                query.tenant(),
                query.scope(),
                query.filter(),
                query.includeExpired(),
                query.today()))
        .append("), q AS (SELECT DISTINCT unnest(tsvector_to_array(to_tsvector('english', ")
        .param(text)
        .append(
            "))) AS lex), f AS (SELECT x AS lex, count(*) AS n FROM r, unnest(tsvector_to_array(r.v)) x"
                + " WHERE x IN (SELECT lex FROM q) GROUP BY x)"
                + " SELECT q.lex, coalesce(f.n, 0) FROM q LEFT JOIN f ON f.lex = q.lex"
                + " UNION ALL SELECT NULL, count(*) FROM r");
  }

  /**
   * {@link #keywordSql(IndexField, IndexQuery, String, int, Optional)} with no required lexemes.
   */
  static Sql keywordSql(IndexField field, IndexQuery query, String text, int k) {
    return keywordSql(field, query, text, k, Optional.empty());
  }

  /**
   * A keyword search: the restricted rows whose words of {@code field} match any word of {@code
   * text} (and, with {@code required}, hold one of those lexemes), best {@code ts_rank_cd} first.
   * Over {@link IndexField#TEXT} it reads only columns of the scope's covering index (migration
   * V11), so without a filter on other columns it is an index-only scan of the scope's entries
   * rather than a visit to each of its scattered rows; over {@link IndexField#CONTEXT} it finds the
   * scope's rows through an index on the scope and reads each one (migration V12 says why).
   */
  static Sql keywordSql(
      IndexField field, IndexQuery query, String text, int k, Optional<Set<String>> required) {
    String tsv = wordsColumn(field);
    Sql sql =
        new Sql()
            .append(
                "SELECT m.id, ts_rank_cd("
                    + tsv
                    + ", q.query, 1) AS score FROM memories m,"
                    + " (SELECT replace(plainto_tsquery('english', ")
            .param(text)
            .append(")::text, ' & ', ' | ')::tsquery AS query) q")
            .append(
                Restriction.where(
                    query.tenant(),
                    query.scope(),
                    query.filter(),
                    query.includeExpired(),
                    query.today()))
            .append(" AND " + tsv + " @@ q.query");
    if (required.isPresent()) {
      String[] lexemes = required.get().toArray(String[]::new);
      sql.append(" AND tsvector_to_array(" + tsv + ") && ")
          .param(
              (Sql.Parameter)
                  (ps, index) ->
                      ps.setArray(index, ps.getConnection().createArrayOf("text", lexemes)))
          .append("::text[]");
    }
    return sql.append(" ORDER BY score DESC, m.id LIMIT ").param(k);
  }

  private List<Candidate> candidates(String what, Sql sql) {
    return db.read(what, c -> candidates(c, sql));
  }

  /**
   * The {@code (id, score)} rows {@code sql} selects, in its order: how every search query here is
   * read.
   */
  static List<Candidate> candidates(Connection c, Sql sql) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.text())) {
      sql.bind(ps, 1);
      List<Candidate> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new Candidate(rs.getString(1), rs.getDouble(2)));
        }
      }
      return out;
    }
  }

  /** Nothing to close: the {@link PostgresStorage} owns the pool. */
  @Override
  public void close() {}
}
