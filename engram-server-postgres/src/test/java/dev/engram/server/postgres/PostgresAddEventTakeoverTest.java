package dev.engram.server.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Scope;
import dev.engram.postgres.PostgresCluster;
import dev.engram.postgres.PostgresSettings;
import dev.engram.postgres.PostgresStorage;
import dev.engram.server.MutableClock;
import dev.engram.server.api.AddBody;
import dev.engram.server.events.AddEvent;
import dev.engram.server.events.AddEvents;
import dev.engram.server.events.EventStatus;
import dev.engram.server.events.Lease;
import dev.engram.server.http.ModelHealth;
import dev.engram.server.http.ServerMetrics;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Add events of a server that died, taken over by another server on the same PostgreSQL schema once
 * the lease ends (time from the test's clock): an event claimed but never run is run once by the
 * other server; an event whose add had committed before the death is marked SUCCEEDED from the
 * record without adding again; nothing is taken over while the lease lasts. Real PostgreSQL memory
 * and stores; the dead server is a claim made under its owner id.
 */
class PostgresAddEventTakeoverTest {
  private static final Instant T0 = Instant.parse("2026-05-06T07:08:09Z");
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final Scope ALICE = Scope.user("alice");

  @TempDir Path dir;
  private PostgresStorage storage;
  private Memory memory;
  private PostgresServerStores stores;
  private PostgresServerStores otherStores;
  private final MutableClock clock = new MutableClock(T0);

  @BeforeEach
  void open() {
    PostgresSettings settings = PostgresCluster.get().settingsFor(dir);
    storage = PostgresStorage.open(settings, 64);
    memory = Engram.builder().storage(storage).embedder(new HashEmbedder()).build();
    stores = PostgresServerStores.open(settings, clock);
    otherStores = PostgresServerStores.open(settings, clock);
  }

  @AfterEach
  void close() {
    memory.close();
    stores.close();
    otherStores.close();
  }

  private AddEvents events(PostgresServerStores on) {
    return new AddEvents(
        memory, on.events(), clock, new ServerMetrics(), new ModelHealth(clock), 1, LEASE);
  }

  private List<MemoryItem> withSource(String sourceId) {
    return memory.forTenant("acme").list(ListRequest.of(ALICE).withPage(0, 1000)).items().stream()
        .filter(m -> m.sourceIds().contains(sourceId))
        .toList();
  }

  @Test
  void anEventClaimedByADeadServerIsRunOnceByAnotherAfterTheLease() {
    AddEvents dead = events(stores);
    AddEvents survivor = events(otherStores);
    AddEvent accepted =
        dead.accept("acme", AddRequest.builder(ALICE).user("I keep bees").infer(false).build());
    stores.events().claimNext(new Lease("dead-server", T0.plus(LEASE)), T0).orElseThrow();

    clock.advance(LEASE.minusSeconds(1));
    assertThat(survivor.runWaiting()).as("the lease still holds").isZero();
    assertThat(withSource(accepted.id() + ":0")).isEmpty();

    clock.advance(Duration.ofSeconds(1));
    assertThat(survivor.runWaiting()).isEqualTo(1);
    AddEvent done = survivor.get("acme", accepted.id()).orElseThrow();
    assertThat(done.status()).isEqualTo(EventStatus.SUCCEEDED);
    assertThat(withSource(accepted.id() + ":0"))
        .extracting(MemoryItem::text)
        .containsExactly("I keep bees");
    assertThat(survivor.runWaiting()).isZero();
    dead.close(Duration.ZERO);
    survivor.close(Duration.ZERO);
  }

  @Test
  void anEventWhoseAddCommittedBeforeTheDeathIsFinishedFromTheRecordWithoutAddingAgain() {
    AddEvents dead = events(stores);
    AddEvents survivor = events(otherStores);
    AddEvent accepted =
        dead.accept(
            "acme",
            AddRequest.builder(ALICE).user("My sister lives in Lisbon").infer(false).build());
    stores.events().claimNext(new Lease("dead-server", T0.plus(LEASE)), T0).orElseThrow();
    // The dead server's add committed; it died before recording the event's outcome.
    memory.forTenant("acme").add(AddBody.fromJson(accepted.payload()));

    clock.advance(LEASE);
    assertThat(survivor.runWaiting()).isEqualTo(1);
    AddEvent done = survivor.get("acme", accepted.id()).orElseThrow();
    assertThat(done.status()).isEqualTo(EventStatus.SUCCEEDED);
    List<MemoryItem> stored = withSource(accepted.id() + ":0");
    assertThat(stored).hasSize(1);
    assertThat(done.results().orElseThrow()).contains(stored.get(0).id());
    dead.close(Duration.ZERO);
    survivor.close(Duration.ZERO);
  }

  @Test
  void aRunningServerRenewsItsLeaseSoNoOtherServerTakesItsEventOver() {
    AddEvents running = events(stores);
    AddEvents other = events(otherStores);
    AddEvent accepted =
        running.accept(
            "acme", AddRequest.builder(ALICE).user("I work nights").infer(false).build());
    otherStores.events().claimNext(new Lease(running.owner(), T0.plus(LEASE)), T0).orElseThrow();
    clock.advance(LEASE.minusSeconds(5));
    assertThat(
            stores
                .events()
                .renewLeases(
                    new Lease(running.owner(), clock.instant().plus(LEASE)),
                    List.of(accepted.id())))
        .isEqualTo(1);
    clock.advance(Duration.ofSeconds(10));
    assertThat(other.runWaiting()).as("renewed lease").isZero();
    assertThat(other.get("acme", accepted.id()).orElseThrow().status())
        .isEqualTo(EventStatus.RUNNING);
    running.close(Duration.ZERO);
    other.close(Duration.ZERO);
  }
}
