package dev.engram.cli;

import dev.engram.langchain4j.EngramSettings;
import dev.engram.postgres.PostgresSettings;
import dev.engram.server.auth.ApiKeyStore;
import dev.engram.server.events.AddEventStore;
import dev.engram.server.postgres.PostgresServerStores;
import dev.engram.server.store.ServerDatabase;
import dev.engram.server.store.SqliteAddEventStore;
import dev.engram.server.store.SqliteApiKeyStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * The API keys and add events of {@code engram serve} and {@code engram keys}: {@code server.db} in
 * the data directory for the embedded store, or, with {@code store.provider: postgres}, tables in
 * the PostgreSQL schema that every server on the database shares. Closing closes what was opened.
 */
final class ServerStores implements AutoCloseable {
  private final ApiKeyStore keys;
  private final AddEventStore events;
  private final AutoCloseable resource;
  private final String where;

  private ServerStores(
      ApiKeyStore keys, AddEventStore events, AutoCloseable resource, String where) {
    this.keys = keys;
    this.events = events;
    this.resource = resource;
    this.where = where;
  }

  /**
   * Opens the stores {@code settings} call for ({@code dataDir} for server.db); key times come from
   * {@code clock}.
   */
  static ServerStores open(
      EngramSettings settings, Path dataDir, Map<String, String> env, Clock clock) {
    Optional<PostgresSettings> postgres = settings.store().connection(env);
    if (postgres.isPresent()) {
      PostgresServerStores pg = PostgresServerStores.open(postgres.get(), clock);
      return new ServerStores(
          pg.keys(),
          pg.events(),
          pg,
          "the PostgreSQL schema '" + postgres.get().schema() + "' (store.url)");
    }
    ServerDatabase db = ServerDatabase.open(dataDir);
    return new ServerStores(
        new SqliteApiKeyStore(db, clock, false),
        new SqliteAddEventStore(db, false),
        db,
        dataDir.resolve(ServerDatabase.FILE_NAME).toString());
  }

  ApiKeyStore keys() {
    return keys;
  }

  AddEventStore events() {
    return events;
  }

  /** Where the keys are, for messages. */
  String where() {
    return where;
  }

  @Override
  public void close() {
    try {
      resource.close();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("cannot close " + where + ": " + e.getMessage(), e);
    }
  }
}
