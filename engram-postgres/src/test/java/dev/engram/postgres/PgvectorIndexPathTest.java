package dev.engram.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.MemoryItem;
import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.filter.Mem0Filters;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.Storage;
import dev.engram.spi.StoredMemory;
import dev.engram.testing.StorageContractSupport;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The pgvector path's HNSW branch (PGlite; {@link NativePgvectorIndexPathTest} on native PostgreSQL
 * 15): with an exact-search limit of 40, a scope of 200 memories is searched through the HNSW index
 * with iterative scans. Other tenants and scopes hold the very same vectors, so a search that
 * leaked would return their rows; a filter that keeps one memory in four (50, still above the
 * limit, one in sixteen of the table) must still fill the top k (no recall lost to post-filtering),
 * and one that keeps 20 (within the limit) is searched exactly. Index use is read from {@code
 * pg_stat_user_indexes}. The expected ranking is computed in Java (cosine, best first, ties by id).
 */
class PgvectorIndexPathTest extends StorageContractSupport {
  private static final LocalDate TODAY = LocalDate.of(2024, 6, 1);
  private static final int PER_SCOPE = 200;

  /** PGlite; {@link NativePgvectorIndexPathTest} runs these tests on native PostgreSQL 15. */
  PgvectorServer server() {
    return PgvectorServer.PGLITE;
  }

  @Override
  protected Storage openStorage(java.nio.file.Path dir, int dimension) {
    return PostgresStorage.open(
        server().settingsFor(dir).toBuilder().exactSearchLimit(40).build(), dimension);
  }

  private final List<StoredMemory> alices = new ArrayList<>();

  private void fill() {
    Random random = new Random(13);
    List<float[]> vectors =
        IntStream.range(0, PER_SCOPE).mapToObj(i -> randomUnit(random)).toList();
    for (String tenant : List.of("t1", "t2")) {
      for (String user : List.of("alice", "bob")) {
        List<StoredMemory> batch = new ArrayList<>();
        for (int i = 0; i < PER_SCOPE; i++) {
          MemoryItem base = item(tenant + "-" + user + "-" + i, Scope.user(user), "memory " + i);
          Map<String, Object> flags = Map.of("quarter", i % 4 == 0, "tenth", i % 10 == 0);
          MemoryItem tagged =
              new MemoryItem(
                  base.id(),
                  base.text(),
                  base.hash(),
                  flags,
                  user,
                  null,
                  null,
                  null,
                  null,
                  base.createdAt(),
                  base.updatedAt(),
                  null,
                  List.of(),
                  null);
          StoredMemory m = new StoredMemory(tenant, tagged, vectors.get(i));
          batch.add(m);
          if (tenant.equals("t1") && user.equals("alice")) {
            alices.add(m);
          }
        }
        add(batch.toArray(StoredMemory[]::new));
      }
    }
  }

  @Test
  void aLargeScopeIsSearchedByTheIndexWithoutLeakingOrLosingFilteredRows() throws SQLException {
    fill();
    long scansBefore = hnswScans();
    Filter quarter = Mem0Filters.fromMap(Map.of("quarter", true));
    Filter tenth = Mem0Filters.fromMap(Map.of("tenth", true));
    Random random = new Random(7);
    for (int round = 0; round < 5; round++) {
      float[] q = randomUnit(random);
      List<String> all =
          ids(
              index.dense(
                  new IndexQuery("t1", Scope.user("alice"), Filter.all(), false, TODAY),
                  IndexField.TEXT,
                  q,
                  10));
      assertThat(all).hasSize(10).allMatch(id -> id.startsWith("t1-alice-"));
      assertThat(all).isEqualTo(expected(q, "", 10));

      List<String> filtered =
          ids(
              index.dense(
                  new IndexQuery("t1", Scope.user("alice"), quarter, false, TODAY),
                  IndexField.TEXT,
                  q,
                  10));
      assertThat(filtered)
          .hasSize(10)
          .allMatch(id -> id.startsWith("t1-alice-"))
          .allMatch(id -> Integer.parseInt(id.substring("t1-alice-".length())) % 4 == 0);
      assertThat(filtered).isEqualTo(expected(q, "quarter", 10));
    }
    long scansAfterLarge = hnswScans();
    assertThat(scansAfterLarge)
        .as("HNSW index scans for the 200-memory scope")
        .isGreaterThanOrEqualTo(scansBefore + 10);

    // 20 memories pass this filter in t1/alice: at most the limit of 40, so the search is exact,
    // not the index
    List<String> small =
        ids(
            index.dense(
                new IndexQuery("t1", Scope.user("alice"), tenth, false, TODAY),
                IndexField.TEXT,
                randomUnit(random),
                30));
    assertThat(small).hasSize(20);
    assertThat(hnswScans())
        .as("no index scan for a restricted set within the limit")
        .isEqualTo(scansAfterLarge);
  }

  /**
   * How often the HNSW index of this test's schema was scanned, once the statistics are flushed.
   */
  private long hnswScans() throws SQLException {
    try (Connection c = server().connect();
        Statement s = c.createStatement()) {
      server().flushStatistics(c, this::reopen);
      s.execute("SELECT pg_stat_clear_snapshot()");
      try (ResultSet rs =
          s.executeQuery(
              "SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname ="
                  + " 'memories_embedding_hnsw' AND schemaname = '"
                  + PostgresCluster.schemaFor(dir)
                  + "'")) {
        assertThat(rs.next()).as("the HNSW index exists").isTrue();
        return rs.getLong(1);
      }
    }
  }

  /**
   * Alice's memories in t1 whose metadata key {@code flag} is true (all if {@code flag} is empty),
   * best first.
   */
  private List<String> expected(float[] q, String flag, int k) {
    return alices.stream()
        .filter(m -> flag.isEmpty() || Boolean.TRUE.equals(m.item().metadata().get(flag)))
        .sorted(
            Comparator.comparingDouble((StoredMemory m) -> -cosine(q, m.embeddingView()))
                .thenComparing(m -> m.item().id()))
        .limit(k)
        .map(m -> m.item().id())
        .toList();
  }

  private static double cosine(float[] a, float[] b) {
    double dot = 0;
    double na = 0;
    double nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += (double) a[i] * b[i];
      na += (double) a[i] * a[i];
      nb += (double) b[i] * b[i];
    }
    return dot / Math.sqrt(na * nb);
  }

  private static float[] randomUnit(Random random) {
    float[] v = new float[DIMENSION];
    double norm = 0;
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) random.nextGaussian();
      norm += v[i] * v[i];
    }
    for (int i = 0; i < v.length; i++) {
      v[i] /= (float) Math.sqrt(norm);
    }
    return v;
  }

  private static List<String> ids(List<SearchIndex.Candidate> candidates) {
    return candidates.stream().map(SearchIndex.Candidate::id).toList();
  }
}
