package dev.engram.cli;

import dev.engram.StorageException;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.langchain4j.EngramSettings;
import dev.engram.neo4j.Neo4jGraphStore;
import dev.engram.neo4j.Neo4jSettings;
import dev.engram.postgres.PostgresSettings;
import dev.engram.postgres.PostgresStorage;
import dev.engram.spi.Storage;
import dev.engram.spi.StorageFactory;
import dev.engram.spi.StorageWithGraph;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Opens the storage the settings name: the embedded store in the data directory, with the graph
 * memory in the same SQLite file ({@code graph_store.provider: embedded}) or on a Neo4j server
 * ({@code neo4j}, through {@link StorageWithGraph}); or, with {@code store.provider: postgres}, the
 * PostgreSQL store (no data directory; the graph memory only on Neo4j). Passwords are read from the
 * environment or the secrets files when a store is connected and go nowhere else: messages name the
 * URI or URL, never a password.
 */
final class StorageOpener {
  private StorageOpener() {}

  /**
   * The factory {@code Engram.builder().storage(...)} opens with the embedder's dimension: the
   * memory store {@code store} names (the data directory {@code dir} for the embedded one) with the
   * graph store {@code graph}.
   */
  static StorageFactory at(
      Path dir,
      EngramSettings.Store store,
      EngramSettings.GraphStore graph,
      Map<String, String> env) {
    return embedding -> open(dir, embedding.dimension(), store, graph, env);
  }

  /**
   * Opens the memory store {@code store} names (the data directory {@code dir} for the embedded
   * one) with the graph store {@code graph}.
   *
   * @param dimension the embedder's vector size
   * @param env the environment (the PostgreSQL and Neo4j passwords are read from it)
   * @throws StorageException if PostgreSQL or Neo4j cannot be reached or refuse the credentials
   *     (with Neo4j, the data directory is then not opened)
   */
  static Storage open(
      Path dir,
      int dimension,
      EngramSettings.Store store,
      EngramSettings.GraphStore graph,
      Map<String, String> env) {
    if (graph.neo4j().isEmpty()) {
      return openMemories(dir, dimension, store, env);
    }
    // Neo4j first: an unreachable server then leaves no new data directory behind and holds no lock
    // meanwhile.
    Neo4jGraphStore neo4j = connect(graph, env);
    try {
      return StorageWithGraph.of(openMemories(dir, dimension, store, env), neo4j);
    } catch (RuntimeException e) {
      try {
        neo4j.close();
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /**
   * The PostgreSQL store of {@code store}, connected with the password from {@code env}, else the
   * embedded one.
   */
  private static Storage openMemories(
      Path dir, int dimension, EngramSettings.Store store, Map<String, String> env) {
    Optional<PostgresSettings> postgres = store.connection(env);
    return postgres.isPresent()
        ? PostgresStorage.open(postgres.get(), dimension)
        : EmbeddedStorage.open(dir, dimension);
  }

  /**
   * Connects to the Neo4j server of {@code graph}, with the password from {@code env}; see {@link
   * #open}.
   */
  static Neo4jGraphStore connect(EngramSettings.GraphStore graph, Map<String, String> env) {
    Neo4jSettings settings =
        graph
            .connection(env)
            .orElseThrow(() -> new IllegalArgumentException("graph_store.provider is not neo4j"));
    String uri = settings.uri();
    try {
      return Neo4jGraphStore.connect(settings);
    } catch (StorageException e) {
      throw new StorageException(
          "cannot open the Neo4j graph store at "
              + uri
              + " (graph_store.uri, user '"
              + settings.user()
              + "', database '"
              + settings.database()
              + "'): "
              + e.getMessage(),
          e);
    } catch (RuntimeException e) {
      // The driver rejects some URIs and settings with plain runtime exceptions before any
      // connection.
      throw new StorageException(
          "cannot open the Neo4j graph store at "
              + uri
              + " (graph_store.uri): "
              + e.getClass().getSimpleName()
              + ": "
              + e.getMessage(),
          e);
    }
  }
}
