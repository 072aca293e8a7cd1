package dev.engram.postgres;

import dev.engram.Hashes;
import dev.engram.MemoryItem;
import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * What the tests of a migration that adds columns to {@code memories} share: a connection as the
 * superuser (to write rows as an older Engram would), the table's file node (unchanged when a
 * migration adds columns in the catalog alone), alice's memories in tenant {@code t1} and the ids
 * of search candidates.
 */
final class OldSchemaRows {
  static final Instant T0 = Instant.parse("2024-05-01T08:00:00Z");
  static final IndexQuery ALICE =
      new IndexQuery("t1", Scope.user("alice"), Filter.all(), false, LocalDate.of(2024, 6, 1));

  private OldSchemaRows() {}

  /** A memory of alice's with {@code text}, created at {@link #T0}. */
  static MemoryItem item(String id, String text) {
    return new MemoryItem(
        id,
        text,
        Hashes.md5(text),
        Map.of(),
        "alice",
        null,
        null,
        null,
        null,
        T0,
        T0,
        null,
        List.of(),
        null);
  }

  /**
   * The file node of {@code memories} in the schema on {@code s}'s search path: a rewrite of the
   * table changes it.
   */
  static long fileNode(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT pg_relation_filenode('memories')")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  static List<String> ids(List<SearchIndex.Candidate> hits) {
    return hits.stream().map(SearchIndex.Candidate::id).toList();
  }

  static Connection connect(PostgresCluster cluster) throws SQLException {
    return DriverManager.getConnection(cluster.url(), "postgres", PostgresCluster.PASSWORD);
  }
}
