package dev.engram.server.postgres;

import dev.engram.postgres.PostgresCluster;
import dev.engram.server.AddEventStoreContract;
import dev.engram.server.ApiKeyStoreContract;
import dev.engram.server.auth.ApiKeyStore;
import dev.engram.server.events.AddEventStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key and event store contracts on PostgreSQL 15 (a throwaway cluster; a schema per test): each
 * store a test opens is another {@link PostgresServerStores} with its own pool, as another server
 * would be.
 */
class PostgresKeyAndEventStoreContractTest {
  final List<PostgresServerStores> pools = new ArrayList<>();

  @AfterEach
  void closePools() {
    pools.forEach(PostgresServerStores::close);
  }

  PostgresServerStores open(Path dir, Clock clock) {
    PostgresServerStores stores =
        PostgresServerStores.open(PostgresCluster.get().settingsFor(dir), clock);
    pools.add(stores);
    return stores;
  }

  @Nested
  class Keys extends ApiKeyStoreContract {
    @TempDir Path dir;

    @Override
    protected ApiKeyStore openKeys(Clock clock) {
      return open(dir, clock).keys();
    }
  }

  @Nested
  class Events extends AddEventStoreContract {
    @TempDir Path dir;

    @Override
    protected AddEventStore openEvents() {
      return open(dir, Clock.systemUTC()).events();
    }
  }
}
