package dev.engram.lucene;

import dev.engram.Hashes;
import dev.engram.MemoryItem;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.spi.IndexOp;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.StoredMemory;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.lucene.search.ScoreDoc;

/** Small factories for index tests. */
final class Docs {
  static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
  static final LocalDate TODAY = LocalDate.parse("2024-06-01");

  private Docs() {}

  static MemoryItem item(
      String id,
      String text,
      String userId,
      String agentId,
      Map<String, Object> metadata,
      LocalDate expiration) {
    return new MemoryItem(
        id,
        text,
        Hashes.md5(text),
        metadata,
        userId,
        agentId,
        null,
        null,
        Role.USER,
        T0,
        T0,
        null,
        List.of(),
        expiration);
  }

  static StoredMemory stored(String tenant, MemoryItem item, float[] vector) {
    return new StoredMemory(tenant, item, vector);
  }

  /**
   * A memory of user {@code userId} in tenant {@code t} with a unit vector along axis {@code axis}.
   */
  static IndexOp upsert(String tenant, String id, String text, String userId, int dim, int axis) {
    return new IndexOp.Upsert(
        stored(tenant, item(id, text, userId, null, Map.of(), null), axis(dim, axis)));
  }

  static float[] axis(int dim, int axis) {
    float[] v = new float[dim];
    v[axis % dim] = 1f;
    return v;
  }

  static float[] unit(float... v) {
    double norm = 0;
    for (float x : v) {
      norm += x * x;
    }
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (float) (v[i] / Math.sqrt(norm));
    }
    return out;
  }

  static IndexQuery query(String tenant, Scope scope) {
    return new IndexQuery(tenant, scope, Filter.all(), false, TODAY);
  }

  static IndexQuery query(String tenant, Scope scope, Filter filter) {
    return new IndexQuery(tenant, scope, filter, false, TODAY);
  }

  /** Search hits of the given documents (global numbers), each scored 1. */
  static ScoreDoc[] hits(int... docs) {
    return Arrays.stream(docs).mapToObj(d -> new ScoreDoc(d, 1f)).toArray(ScoreDoc[]::new);
  }

  static List<String> ids(List<Candidate> candidates) {
    return candidates.stream().map(Candidate::id).toList();
  }
}
