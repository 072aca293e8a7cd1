package dev.engram.postgres;

import dev.engram.StorageException;
import dev.engram.postgres.EmbeddingCache.Column;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.VectorMath;
import dev.engram.spi.sql.Sql;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The plain-array path's dense searches with an {@link EmbeddingCache}: exact cosine in Java
 * instead of in SQL, over the embeddings ({@link #dense}) or the context embeddings ({@link
 * #contextDense}).
 *
 * <p>In one read-only snapshot it reads the id and {@code seq} of every memory that passes the
 * tenant, scope, expiry and filter restriction (the same WHERE clause as every other read, so no
 * other tenant's or scope's row is ever scored), then the embeddings of those rows whose version
 * the cache does not hold ({@code array_send}, decoded from PostgreSQL's binary array format, which
 * the server produces far faster than the text form). It scores every restricted row with {@link
 * VectorMath#cosine}, orders them best first, ties by id in byte order (as {@code ORDER BY score
 * DESC, m.id} with {@code COLLATE "C"} does on the SQL path), and keeps the first {@code k}.
 */
final class CachedCosineSearch {
  private static final Comparator<Candidate> BEST_FIRST =
      Comparator.comparingDouble(Candidate::score)
          .reversed()
          .thenComparing(Candidate::id, CachedCosineSearch::compareCodePoints);

  private final EmbeddingCache cache;

  CachedCosineSearch(EmbeddingCache cache) {
    this.cache = cache;
  }

  /**
   * The {@code k} best rows of {@code query} for {@code vector}; runs on {@code c} inside a
   * snapshot transaction.
   */
  List<Candidate> dense(Connection c, IndexQuery query, float[] vector, int k) throws SQLException {
    return nearest(c, Column.EMBEDDING, versionsSql(query), query.tenant(), vector, k);
  }

  /**
   * The {@code k} rows of {@code query} whose context embeddings are nearest to {@code vector},
   * among those that have one; runs on {@code c} inside a snapshot transaction.
   */
  List<Candidate> contextDense(Connection c, IndexQuery query, float[] vector, int k)
      throws SQLException {
    Sql restricted = versionsSql(query).append(" AND " + PostgresSearchIndex.HAS_CONTEXT_EMBEDDING);
    return nearest(c, Column.CONTEXT_EMBEDDING, restricted, query.tenant(), vector, k);
  }

  private List<Candidate> nearest(
      Connection c, Column column, Sql restricted, String tenant, float[] vector, int k)
      throws SQLException {
    List<String> idList = new ArrayList<>();
    List<Long> seqList = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(restricted.text())) {
      restricted.bind(ps, 1);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          idList.add(rs.getString(1));
          seqList.add(rs.getLong(2));
        }
      }
    }
    String[] ids = idList.toArray(String[]::new);
    long[] seqs = new long[ids.length];
    for (int i = 0; i < seqs.length; i++) {
      seqs[i] = seqList.get(i);
    }
    float[][] vectors = cache.lookup(column, tenant, ids, seqs);
    readMissing(c, column, tenant, ids, seqs, vectors);
    List<Candidate> scored = new ArrayList<>(ids.length);
    for (int i = 0; i < ids.length; i++) {
      scored.add(new Candidate(ids[i], VectorMath.cosine(vector, vectors[i])));
    }
    scored.sort(BEST_FIRST);
    return scored.size() <= k ? scored : List.copyOf(scored.subList(0, k));
  }

  /**
   * The {@code (id, seq)} of every restricted row: columns of the scope's covering index (migration
   * V11), so an index-only scan of the scope's entries when the filter needs no other column.
   */
  static Sql versionsSql(IndexQuery query) {
    return new Sql()
        .append("SELECT m.id, m.seq FROM memories m")
        .append(
            Restriction.where(
                query.tenant(),
                query.scope(),
                query.filter(),
                query.includeExpired(),
                query.today()));
  }

  /**
   * Reads the vectors the cache lacks (same snapshot, same versions) into {@code vectors}, and
   * keeps them.
   */
  private void readMissing(
      Connection c, Column column, String tenant, String[] ids, long[] seqs, float[][] vectors)
      throws SQLException {
    Map<String, Integer> missing = new HashMap<>();
    for (int i = 0; i < ids.length; i++) {
      if (vectors[i] == null) {
        missing.put(ids[i], i);
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT id, seq, array_send("
                + column.name
                + ") FROM memories WHERE tenant = ? AND id = ANY (?)")) {
      ps.setString(1, tenant);
      ps.setArray(2, c.createArrayOf("text", missing.keySet().toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Integer i = missing.remove(rs.getString(1));
          if (i == null || rs.getLong(2) != seqs[i]) {
            throw new StorageException(
                "memory " + rs.getString(1) + " changed within one snapshot");
          }
          vectors[i] = floats(rs.getBytes(3));
          cache.put(column, tenant, ids[i], seqs[i], vectors[i]);
        }
      }
    }
    if (!missing.isEmpty()) {
      throw new StorageException("memories " + missing.keySet() + " vanished within one snapshot");
    }
  }

  /**
   * Decodes PostgreSQL's binary form of a one-dimensional {@code real[]} ({@code array_send}): the
   * number of dimensions, a has-nulls flag, the element type, per dimension its length and lower
   * bound, then per element its byte length (4) and its IEEE 754 value, all big-endian. An empty
   * array has no dimensions.
   */
  static float[] floats(byte[] binary) {
    ByteBuffer b = ByteBuffer.wrap(binary);
    int dimensions = b.getInt();
    b.getInt(); // has nulls
    b.getInt(); // element type (float4)
    if (dimensions == 0) {
      return new float[0];
    }
    if (dimensions != 1) {
      throw new StorageException(
          "a stored embedding has " + dimensions + " dimensions, expected a flat array");
    }
    int length = b.getInt();
    b.getInt(); // lower bound
    float[] out = new float[length];
    for (int i = 0; i < length; i++) {
      if (b.getInt() != 4) {
        throw new StorageException("a stored embedding holds a NULL or a non-real element");
      }
      out[i] = b.getFloat();
    }
    return out;
  }

  /**
   * Unicode code point order, which is the byte order of UTF-8 ({@code COLLATE "C"} in this
   * schema).
   */
  static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
