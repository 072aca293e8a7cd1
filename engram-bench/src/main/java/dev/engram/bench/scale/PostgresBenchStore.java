package dev.engram.bench.scale;

import dev.engram.StorageException;
import dev.engram.postgres.PostgresSettings;
import dev.engram.postgres.PostgresStorage;
import dev.engram.postgres.VectorMode;
import dev.engram.spi.Storage;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/**
 * A PostgreSQL schema ({@link PostgresStorage}): absent or empty at the start. Its size is what
 * PostgreSQL reports for the schema's tables: heap and TOAST as the record, indexes (B-tree, GIN,
 * HNSW) as the index.
 */
public final class PostgresBenchStore implements BenchStore {
  private final PostgresSettings settings;
  private VectorMode path = VectorMode.AUTO;

  public PostgresBenchStore(PostgresSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /** {@code postgres (pgvector)} or {@code postgres (array)}, once opened. */
  @Override
  public String name() {
    return "postgres (" + path + ")";
  }

  @Override
  public void requireEmpty() {
    try (Connection c = connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ?"
                    + " AND c.relname = 'memories'")) {
      ps.setString(1, settings.schema());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        if (rs.getLong(1) > 0 && memories(c) > 0) {
          throw new IllegalArgumentException(
              "pg-schema: schema '"
                  + settings.schema()
                  + "' already holds memories;"
                  + " the scale benchmark needs an empty or new schema");
        }
      }
    } catch (SQLException e) {
      throw new StorageException(
          "cannot inspect schema '" + settings.schema() + "': " + e.getMessage(), e);
    }
  }

  private long memories(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT count(*) FROM \"" + settings.schema() + "\".memories")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Override
  public Storage open(int dimension) {
    PostgresStorage storage = PostgresStorage.open(settings, dimension);
    path = storage.vectors();
    return storage;
  }

  @Override
  public ScaleReport.Disk size(long memories) {
    String sql =
        "SELECT coalesce(sum(pg_table_size(c.oid)), 0), coalesce(sum(pg_indexes_size(c.oid)), 0)"
            + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relkind = 'r'";
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, settings.schema());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        long tables = rs.getLong(1);
        long indexes = rs.getLong(2);
        return new ScaleReport.Disk(
            tables + indexes,
            tables,
            indexes,
            ScaleReport.round((double) (tables + indexes) / memories));
      }
    } catch (SQLException e) {
      throw new StorageException(
          "cannot measure schema '" + settings.schema() + "': " + e.getMessage(), e);
    }
  }

  /** Drops the schema and everything in it. */
  public void drop() {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS \"" + settings.schema() + "\" CASCADE");
    } catch (SQLException e) {
      throw new StorageException(
          "cannot drop schema '" + settings.schema() + "': " + e.getMessage(), e);
    }
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection(
        settings.url(), settings.user(), settings.password().orElse(null));
  }
}
