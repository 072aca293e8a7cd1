package dev.engram.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.Storage;
import dev.engram.testing.StorageContractSupport;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/**
 * Native PostgreSQL 15 + pgvector: Engram creates the {@code vector} extension in a schema of its
 * own, not in the store's schema, so dropping one store's schema (several stores may share a
 * database, and the scale benchmark drops its own) leaves the extension, and every other store's
 * vector column and HNSW index, in place.
 */
class PgvectorExtensionSchemaTest extends StorageContractSupport {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return PostgresStorage.open(PostgresCluster.get().pgvectorSettingsFor(dir), dimension);
  }

  @Test
  void droppingAnotherStoresSchemaKeepsTheExtensionAndThisStoresVectors() throws Exception {
    add(memory("t1", "m1", Scope.user("alice"), "alice likes tea", 2));
    Path otherDir = dir.resolveSibling(dir.getFileName() + "-other");
    String other = PostgresCluster.schemaFor(otherDir);
    try (Storage another =
        PostgresStorage.open(PostgresCluster.get().pgvectorSettingsFor(otherDir), DIMENSION)) {
      assertThat(PostgresCluster.get().vectorColumnType(other))
          .contains("vector(" + DIMENSION + ")");
    }
    assertThat(extensionSchema()).isEqualTo(PgVector.EXTENSION_SCHEMA);

    try (Connection c = PostgresCluster.get().connect();
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA " + other + " CASCADE");
    }

    assertThat(extensionSchema()).isEqualTo(PgVector.EXTENSION_SCHEMA);
    String mine = PostgresCluster.schemaFor(dir);
    assertThat(PostgresCluster.get().vectorColumnType(mine)).contains("vector(" + DIMENSION + ")");
    assertThat(
            index.dense(
                new IndexQuery(
                    "t1", Scope.user("alice"), Filter.all(), false, LocalDate.of(2024, 6, 1)),
                IndexField.TEXT,
                axis(2),
                5))
        .extracting(Candidate::id)
        .containsExactly("m1");
  }

  private static String extensionSchema() throws SQLException {
    try (Connection c = PostgresCluster.get().connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n"
                    + " ON n.oid = e.extnamespace WHERE e.extname = 'vector'")) {
      assertThat(rs.next()).as("the vector extension is installed").isTrue();
      return rs.getString(1);
    }
  }
}
