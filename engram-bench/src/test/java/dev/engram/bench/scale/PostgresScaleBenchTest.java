package dev.engram.bench.scale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.postgres.PostgresCluster;
import dev.engram.postgres.PostgresSettings;
import dev.engram.postgres.VectorMode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scale run on a PostgreSQL schema (throwaway PostgreSQL 15 cluster, plain-array path). */
class PostgresScaleBenchTest {
  @TempDir Path tmp;

  @Test
  void fillsMeasuresReopensAndDropsASchema() throws Exception {
    PostgresSettings settings =
        PostgresCluster.get().settingsFor(tmp).toBuilder().vectors(VectorMode.ARRAY).build();
    PostgresBenchStore store = new PostgresBenchStore(settings);
    ScaleReport r =
        ScaleBench.run(
            new ScaleBench.Options(300, 3, tmp.resolve("unused"), 100, 5, 4, 7),
            HashingEmbedder.create(),
            store,
            n -> {});
    assertThat(r.store()).isEqualTo("postgres (array)");
    assertThat(r.reopen().memories()).isEqualTo(300);
    assertThat(r.reopen().indexDocuments()).isEqualTo(300);
    assertThat(r.perUser()).isEqualTo(new ScaleReport.PerUser(3, 100, 100, 300));
    assertThat(r.searchHitsMean()).isEqualTo(4.0);
    assertThat(r.disk().databaseBytes()).isPositive();
    assertThat(r.disk().indexBytes()).isPositive();
    assertThat(r.disk().totalBytes()).isEqualTo(r.disk().databaseBytes() + r.disk().indexBytes());

    assertThatThrownBy(store::requireEmpty)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("already holds memories");
    store.drop();
    try (Connection c = PostgresCluster.get().connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM pg_namespace WHERE nspname = '" + settings.schema() + "'")) {
      rs.next();
      assertThat(rs.getLong(1)).isZero();
    }
    store.requireEmpty();
  }
}
