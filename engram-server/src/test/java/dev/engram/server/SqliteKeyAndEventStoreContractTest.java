package dev.engram.server;

import dev.engram.server.auth.ApiKeyStore;
import dev.engram.server.events.AddEventStore;
import dev.engram.server.store.ServerDatabase;
import dev.engram.server.store.SqliteAddEventStore;
import dev.engram.server.store.SqliteApiKeyStore;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key and event store contracts on {@code server.db} (each store opens its own connection to
 * the file).
 */
class SqliteKeyAndEventStoreContractTest {
  @Nested
  class Keys extends ApiKeyStoreContract {
    @TempDir Path dir;

    @Override
    protected ApiKeyStore openKeys(Clock clock) {
      return new SqliteApiKeyStore(ServerDatabase.open(dir), clock, true);
    }
  }

  @Nested
  class Events extends AddEventStoreContract {
    @TempDir Path dir;

    @Override
    protected AddEventStore openEvents() {
      return new SqliteAddEventStore(ServerDatabase.open(dir), true);
    }
  }
}
