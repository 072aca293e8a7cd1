package dev.engram.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.MemoryItem;
import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.filter.Mem0Filters;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.Storage;
import dev.engram.spi.StoredMemory;
import dev.engram.spi.sql.Sql;
import dev.engram.testing.StorageContractSupport;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The searches of one scope read the scope's covering index (migration V11), not its scattered
 * rows: on a real PostgreSQL 15 with 12,000 memories of two tenants (user, agent and run scopes),
 * vacuumed and analysed as autovacuum would, the keyword half and the embedding cache's {@code (id,
 * seq)} read of a user's, an agent's and a run's memories are index-only scans of {@code
 * memories_search_user/agent/run} with no heap fetch ({@code EXPLAIN ANALYZE}). A filter on a
 * column outside the index still gives the right rows (through the heap). The results are those of
 * the same queries with index-only scans disabled. The context keyword search (migration V12: not
 * indexed) finds the scope's rows through an index on the scope, never by a scan of the table, and
 * returns only them.
 */
class ScopeSearchIndexOnlyTest extends StorageContractSupport {
  private static final LocalDate TODAY = LocalDate.of(2024, 6, 1);
  private static final List<String> WORDS =
      List.of(
          "hiking",
          "coffee",
          "paris",
          "violin",
          "garden",
          "chess",
          "sushi",
          "marathon",
          "novel",
          "puppy",
          "pottery",
          "sailing");

  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return PostgresStorage.open(
        PostgresCluster.get().settingsFor(dir).toBuilder().vectors(VectorMode.ARRAY).build(),
        dimension);
  }

  @Test
  void aScopesKeywordAndVersionReadsAreIndexOnlyScansOfItsCoveringIndex() throws SQLException {
    fill();
    vacuumAnalyze();
    for (Scope scope : List.of(Scope.user("u7"), Scope.agent("a3"), Scope.run("r5"))) {
      String index =
          "memories_search_"
              + (scope.userId().isPresent()
                  ? "user"
                  : scope.agentId().isPresent() ? "agent" : "run");
      IndexQuery query = new IndexQuery("t1", scope, Filter.all(), false, TODAY);

      Sql keyword = PostgresSearchIndex.keywordSql(IndexField.TEXT, query, "coffee in paris", 10);
      assertThat(plan(keyword))
          .as("keyword search of %s", scope)
          .contains("Index Only Scan using " + index + " on memories m")
          .contains("Heap Fetches: 0");
      List<Candidate> hits = candidates(keyword, true);
      assertThat(hits).isNotEmpty().isEqualTo(candidates(keyword, false));

      // the rule of CommonTerms: the counts, and a search that requires some lexemes, read the same
      // columns
      Sql frequencies =
          PostgresSearchIndex.frequenciesSql(IndexField.TEXT, query, "coffee in paris");
      assertThat(plan(frequencies))
          .as("term frequencies of %s", scope)
          .contains("Index Only Scan using " + index + " on memories m")
          .contains("Heap Fetches: 0");
      Sql required =
          PostgresSearchIndex.keywordSql(
              IndexField.TEXT, query, "coffee in paris", 10, Optional.of(Set.of("pari")));
      assertThat(plan(required))
          .as("keyword search of %s with a required lexeme", scope)
          .contains("Index Only Scan using " + index + " on memories m")
          .contains("Heap Fetches: 0");

      Sql versions = CachedCosineSearch.versionsSql(query);
      assertThat(plan(versions))
          .as("(id, seq) read of %s", scope)
          .contains("Index Only Scan using " + index + " on memories m")
          .contains("Heap Fetches: 0");
      assertThat(rows(versions, true))
          .hasSize(scope.userId().isPresent() ? 200 : 100)
          .isEqualTo(rows(versions, false));

      Sql context =
          PostgresSearchIndex.keywordSql(IndexField.CONTEXT, query, "sailing friends", 10);
      assertThat(plan(context))
          .as("context keyword search of %s", scope)
          .containsPattern("Index Scan using memories_\\w+ on memories m")
          .doesNotContain("Seq Scan");
      String owner =
          "t1-" + (scope.userId().isPresent() ? 7 : scope.agentId().isPresent() ? 3 : 25) + "-";
      assertThat(candidates(context, true))
          .isNotEmpty()
          .hasSizeLessThanOrEqualTo(10)
          .allMatch(c -> c.id().startsWith(owner));
    }

    // a filter on metadata needs the rows: still right, through the heap
    IndexQuery filtered =
        new IndexQuery(
            "t1", Scope.user("u7"), Mem0Filters.fromMap(Map.of("even", true)), false, TODAY);
    List<Candidate> evens =
        candidates(
            PostgresSearchIndex.keywordSql(IndexField.TEXT, filtered, "coffee in paris", 50), true);
    assertThat(evens)
        .isNotEmpty()
        .allMatch(c -> Integer.parseInt(c.id().substring(c.id().lastIndexOf('-') + 1)) % 2 == 0);
  }

  /**
   * Two tenants; per tenant 30 users of 200 memories, 20 agents of 100 and 20 runs of 100,
   * interleaved.
   */
  private void fill() {
    Random random = new Random(5);
    for (String tenant : List.of("t1", "t2")) {
      List<StoredMemory> batch = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        for (int u = 0; u < 30; u++) {
          Scope scope =
              u < 20 && i < 100
                  ? Scope.of("u" + u, "a" + u, null)
                  : u >= 20 && i < 100
                      ? Scope.of("u" + u, null, "r" + (u - 20))
                      : Scope.user("u" + u);
          batch.add(memory(tenant, tenant + "-" + u + "-" + i, scope, i, random));
        }
        if (batch.size() >= 1_000) {
          add(batch.toArray(StoredMemory[]::new));
          batch.clear();
        }
      }
      add(batch.toArray(StoredMemory[]::new));
    }
  }

  private StoredMemory memory(String tenant, String id, Scope scope, int i, Random random) {
    String text =
        "I like "
            + WORDS.get(random.nextInt(WORDS.size()))
            + " and "
            + WORDS.get(random.nextInt(WORDS.size()))
            + " number "
            + i;
    MemoryItem base = item(id, scope, text);
    MemoryItem tagged =
        new MemoryItem(
            base.id(),
            base.text(),
            base.hash(),
            Map.of("even", i % 2 == 0),
            base.userId(),
            base.agentId(),
            base.runId(),
            null,
            null,
            base.createdAt(),
            base.updatedAt(),
            null,
            List.of(),
            null);
    float[] v = new float[DIMENSION];
    for (int d = 0; d < DIMENSION; d++) {
      v[d] = (float) random.nextGaussian();
    }
    String context =
        "Any news? I went " + WORDS.get(random.nextInt(WORDS.size())) + " with friends";
    return new StoredMemory(tenant, tagged, v, context);
  }

  private void vacuumAnalyze() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute("VACUUM (ANALYZE) memories");
    }
  }

  private String plan(Sql sql) throws SQLException {
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE, COSTS OFF) " + sql.text())) {
      sql.bind(ps, 1);
      StringBuilder plan = new StringBuilder();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          plan.append(rs.getString(1)).append('\n');
        }
      }
      return plan.toString();
    }
  }

  private List<Candidate> candidates(Sql sql, boolean indexOnly) throws SQLException {
    try (Connection c = connect()) {
      setIndexOnly(c, indexOnly);
      return PostgresSearchIndex.candidates(c, sql);
    }
  }

  private List<String> rows(Sql sql, boolean indexOnly) throws SQLException {
    try (Connection c = connect()) {
      setIndexOnly(c, indexOnly);
      try (PreparedStatement ps = c.prepareStatement(sql.text())) {
        sql.bind(ps, 1);
        List<String> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.add(rs.getString(1) + "@" + rs.getLong(2));
          }
        }
        out.sort(String::compareTo);
        return out;
      }
    }
  }

  private static void setIndexOnly(Connection c, boolean on) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("SET enable_indexonlyscan = " + on);
    }
  }

  private Connection connect() throws SQLException {
    Connection c = PostgresCluster.get().connect();
    try (Statement s = c.createStatement()) {
      s.execute("SET search_path = " + PostgresCluster.schemaFor(dir) + ", public");
    }
    return c;
  }
}
