package dev.engram.cli;

import dev.engram.StorageException;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.langchain4j.EngramSettings;
import dev.engram.neo4j.Neo4jGraphStore;
import dev.engram.neo4j.Neo4jSettings;
import dev.engram.postgres.PostgresSettings;
import dev.engram.postgres.VectorMode;
import dev.engram.postgres.PostgresStorage;
import dev.engram.spi.Storage;
import dev.engram.spi.StorageFactory;
import dev.engram.spi.StorageWithGraph;
import java.nio.file.Path;
import java.util.Map;

/**
 * Opens the storage the settings name: the embedded store in the data directory, with the graph memory in the same
 * SQLite file ({@code graph_store.provider: embedded}) or on a Neo4j server ({@code neo4j}, through
 * {@link StorageWithGraph}); or, with {@code store.provider: postgres}, the PostgreSQL store (no data directory; the
 * graph memory only on Neo4j). Passwords are read from the environment or the secrets files when a store is connected
 * and go nowhere else: messages name the URI or URL, never a password.
 */
final class StorageOpener {
  private StorageOpener() {}

  /**
   * The factory {@code Engram.builder().storage(...)} opens with the embedder's dimension: the memory store
   * {@code store} names (the data directory {@code dir} for the embedded one) with the graph store {@code graph}.
   */
  static StorageFactory at(Path dir, EngramSettings.Store store, EngramSettings.GraphStore graph,
      Map<String, String> env) {
    return embedding -> open(dir, embedding.dimension(), store, graph, env);
  }

  /**
   * Opens the storage in {@code dir}.
   *
   * @param dimension the embedder's vector size
   * @param graph     where the graph memory lives
   * @param env       the environment (the Neo4j password is read from it)
   * @throws StorageException if Neo4j cannot be reached or refuses the credentials (the data directory is then
   *                          not opened)
   */
  static Storage open(Path dir, int dimension, EngramSettings.GraphStore graph, Map<String, String> env) {
    return open(dir, dimension, EngramSettings.Store.embedded(), graph, env);
  }

  /**
   * Opens the memory store {@code store} names (the data directory {@code dir} for the embedded one) with the graph
   * store {@code graph}.
   *
   * @throws StorageException if PostgreSQL or Neo4j cannot be reached or refuse the credentials
   */
  static Storage open(Path dir, int dimension, EngramSettings.Store store, EngramSettings.GraphStore graph,
      Map<String, String> env) {
    boolean postgres = store.provider() == EngramSettings.StoreProvider.POSTGRES;
    if (graph.provider() == EngramSettings.GraphStoreProvider.EMBEDDED) {
      return postgres ? openPostgres(store, dimension, env) : EmbeddedStorage.open(dir, dimension);
    }
    // Neo4j first: an unreachable server then leaves no new data directory behind and holds no lock meanwhile.
    Neo4jGraphStore neo4j = connect(graph, env);
    try {
      return StorageWithGraph.of(postgres ? openPostgres(store, dimension, env) : EmbeddedStorage.open(dir, dimension),
          neo4j);
    } catch (RuntimeException e) {
      try {
        neo4j.close();
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /** Connects to the PostgreSQL database of {@code store}. */
  static PostgresStorage openPostgres(EngramSettings.Store store, int dimension, Map<String, String> env) {
    return PostgresStorage.open(postgresSettings(store, env), dimension);
  }

  /** The connection settings of {@code store} ({@code store.provider: postgres}), the password from {@code env}. */
  static PostgresSettings postgresSettings(EngramSettings.Store store, Map<String, String> env) {
    String url = store.url().orElseThrow(() -> new IllegalArgumentException("store.url is missing"));
    PostgresSettings.Builder settings = PostgresSettings.builder(url).user(store.user()).schema(store.schema())
        .vectors(VectorMode.parse(store.vectors().configName())).poolSize(store.poolSize())
        .exactSearchLimit(store.exactSearchLimit()).vectorCacheMb(store.vectorCacheMb());
    store.password(env).ifPresent(settings::password);
    return settings.build();
  }

  /** Connects to the Neo4j server of {@code graph}; see {@link #open}. */
  static Neo4jGraphStore connect(EngramSettings.GraphStore graph, Map<String, String> env) {
    String uri = graph.uri().orElseThrow(() -> new IllegalArgumentException("graph_store.uri is missing"));
    Neo4jSettings settings = new Neo4jSettings(uri, graph.user(), graph.password(env), graph.database());
    try {
      return Neo4jGraphStore.connect(settings);
    } catch (StorageException e) {
      throw new StorageException("cannot open the Neo4j graph store at " + uri + " (graph_store.uri, user '"
          + graph.user() + "', database '" + graph.database() + "'): " + e.getMessage(), e);
    } catch (RuntimeException e) {
      // The driver rejects some URIs and settings with plain runtime exceptions before any connection.
      throw new StorageException("cannot open the Neo4j graph store at " + uri + " (graph_store.uri): "
          + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
  }
}
