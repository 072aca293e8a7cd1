package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.server.events.AddEvent;
import dev.engram.server.events.AddEventStore;
import dev.engram.server.events.Claim;
import dev.engram.server.events.EventStatus;
import dev.engram.server.events.Lease;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link AddEventStore} does: events round-trip exactly and per tenant, the oldest
 * waiting event is claimed first and by exactly one claimer (also with many threads at once), a
 * RUNNING event is claimed again only once its lease has ended (and then marked as taken over),
 * renewals keep it, and only the current owner can finish an event. Times come from the test, never
 * from a clock of the store. Subclasses open the store.
 */
public abstract class AddEventStoreContract {
  static final Instant T0 = Instant.parse("2026-05-06T07:08:09.123456789Z");
  static final Duration LEASE = Duration.ofSeconds(60);

  private final List<AddEventStore> opened = new ArrayList<>();

  /**
   * Opens a store on this test's storage (fresh for each test); a second call opens another on the
   * same storage.
   */
  protected abstract AddEventStore openEvents();

  private AddEventStore open() {
    AddEventStore s = openEvents();
    opened.add(s);
    return s;
  }

  @AfterEach
  void closeStores() {
    opened.forEach(AddEventStore::close);
  }

  private static AddEvent pending(String id, String tenant, int second) {
    return AddEvent.pending(id, tenant, "{\"n\": \"" + id + "\"}", T0.plusSeconds(second));
  }

  private static Lease lease(String owner, Instant now) {
    return new Lease(owner, now.plus(LEASE));
  }

  @Test
  void eventsRoundTripExactlyPerTenantNewestFirst() {
    AddEventStore events = open();
    events.insert(pending("e1", "acme", 1));
    events.insert(pending("e2", "acme", 2));
    events.insert(pending("e3", "globex", 3));

    assertThat(events.get("acme", "e1")).contains(pending("e1", "acme", 1));
    assertThat(events.get("globex", "e1")).isEmpty();
    assertThat(events.get("acme", "nope")).isEmpty();
    assertThat(events.list("acme", 0, 10)).extracting(AddEvent::id).containsExactly("e2", "e1");
    assertThat(events.list("acme", 1, 10)).extracting(AddEvent::id).containsExactly("e1");
    assertThat(events.list("acme", 0, 1)).extracting(AddEvent::id).containsExactly("e2");
    assertThat(events.count("acme")).isEqualTo(2);
    assertThat(events.count("globex")).isEqualTo(1);
    assertThat(events.countPending()).isEqualTo(3);
    assertThat(events.countUnfinished()).isEqualTo(3);
  }

  @Test
  void theOldestWaitingEventIsClaimedFirstAndFinishedByItsOwner() {
    AddEventStore events = open();
    events.insert(pending("e1", "acme", 1));
    events.insert(pending("e2", "acme", 2));
    Instant now = T0.plusSeconds(10);

    Claim first = events.claimNext(lease("a", now), now).orElseThrow();
    assertThat(first.takenOver()).isFalse();
    assertThat(first.event().id()).isEqualTo("e1");
    assertThat(first.event().status()).isEqualTo(EventStatus.RUNNING);
    assertThat(first.event().startedAt()).contains(now);
    Claim second = events.claimNext(lease("b", now), now).orElseThrow();
    assertThat(second.event().id()).isEqualTo("e2");
    assertThat(events.claimNext(lease("c", now), now)).isEmpty();
    assertThat(events.countPending()).isZero();
    assertThat(events.countUnfinished()).isEqualTo(2);

    assertThat(events.markSucceeded("e1", "b", "{\"results\": []}", now))
        .as("not b's event")
        .isFalse();
    assertThat(events.markSucceeded("e1", "a", "{\"results\": [1]}", now.plusSeconds(1))).isTrue();
    assertThat(events.markFailed("e2", "b", "the model refused", now.plusSeconds(2))).isTrue();
    AddEvent done = events.get("acme", "e1").orElseThrow();
    assertThat(done.status()).isEqualTo(EventStatus.SUCCEEDED);
    assertThat(done.results()).contains("{\"results\": [1]}");
    assertThat(done.completedAt()).contains(now.plusSeconds(1));
    AddEvent failed = events.get("acme", "e2").orElseThrow();
    assertThat(failed.status()).isEqualTo(EventStatus.FAILED);
    assertThat(failed.error()).contains("the model refused");
    assertThat(events.countUnfinished()).isZero();
    assertThat(
            events.claimNext(
                lease("c", now.plus(Duration.ofDays(1))), now.plus(Duration.ofDays(1))))
        .isEmpty();
    assertThat(events.markSucceeded("e1", "a", "{}", now)).as("already finished").isFalse();
  }

  @Test
  void aRunningEventIsClaimedAgainOnlyAfterItsLeaseEndsAndThenItsOldOwnerCannotFinishIt() {
    AddEventStore events = open();
    events.insert(pending("e1", "acme", 1));
    Instant now = T0.plusSeconds(10);
    events.claimNext(lease("dead", now), now).orElseThrow();

    Instant before = now.plus(LEASE).minusMillis(1);
    assertThat(events.claimNext(lease("b", before), before)).isEmpty();
    Instant after = now.plus(LEASE);
    Claim taken = events.claimNext(lease("b", after), after).orElseThrow();
    assertThat(taken.takenOver()).isTrue();
    assertThat(taken.event().id()).isEqualTo("e1");
    assertThat(taken.event().startedAt()).contains(after);
    assertThat(events.markSucceeded("e1", "dead", "{}", after)).isFalse();
    assertThat(events.markSucceeded("e1", "b", "{\"results\": []}", after)).isTrue();
  }

  @Test
  void renewalsKeepAnOwnersRunningEvents() {
    AddEventStore events = open();
    events.insert(pending("e1", "acme", 1));
    events.insert(pending("e2", "acme", 2));
    Instant now = T0.plusSeconds(10);
    events.claimNext(lease("a", now), now).orElseThrow();
    events.claimNext(lease("a", now), now).orElseThrow();

    Instant later = now.plus(LEASE).minusSeconds(1);
    assertThat(events.renewLeases(lease("a", later), List.of("e1", "e2", "unknown"))).isEqualTo(2);
    assertThat(events.renewLeases(lease("nobody", later), List.of("e1", "e2"))).isZero();
    assertThat(events.renewLeases(lease("a", later), List.of())).isZero();
    Instant pastFirstLease = now.plus(LEASE).plusSeconds(30);
    assertThat(events.claimNext(lease("b", pastFirstLease), pastFirstLease))
        .as("renewed")
        .isEmpty();
    Instant pastRenewal = later.plus(LEASE);
    List<String> taken = new ArrayList<>();
    events
        .claimNext(lease("b", pastRenewal), pastRenewal)
        .ifPresent(c -> taken.add(c.event().id()));
    events
        .claimNext(lease("b", pastRenewal), pastRenewal)
        .ifPresent(c -> taken.add(c.event().id()));
    assertThat(taken).containsExactly("e1", "e2");
  }

  @Test
  void aFinishedInsertRoundTripsAndIsNeverClaimedRenewedOrFinishedAgain() {
    AddEventStore events = open();
    AddEvent created = pending("sync", "acme", 11);
    AddEvent done = created.succeeded("{\"results\": []}", T0.plusSeconds(11), T0.plusSeconds(12));
    AddEvent failed =
        pending("bad", "acme", 13).failed("model: timeout", T0.plusSeconds(13), T0.plusSeconds(14));
    events.insertFinished(done, "a");
    events.insertFinished(failed, "a");

    assertThat(events.get("acme", "sync")).contains(done);
    assertThat(events.get("acme", "bad")).contains(failed);
    assertThat(events.get("other", "sync")).isEmpty();
    assertThat(events.countPending()).isZero();
    assertThat(events.countUnfinished()).isZero();
    Instant muchLater = T0.plus(LEASE.multipliedBy(10));
    assertThat(events.claimNext(lease("b", muchLater), muchLater)).isEmpty();
    assertThat(events.endAllLeases(muchLater)).isZero();
    assertThat(events.claimNext(lease("b", muchLater), muchLater)).isEmpty();
    assertThat(events.renewLeases(lease("a", muchLater), List.of("sync", "bad"))).isZero();
    assertThat(events.markFailed("sync", "a", "late", muchLater)).isFalse();
    assertThat(events.markSucceeded("bad", "a", "{}", muchLater)).isFalse();
    assertThat(events.get("acme", "sync")).contains(done);
    assertThat(events.get("acme", "bad")).contains(failed);
  }

  @Test
  void onlyPendingEventsAreInsertedAsNewAndOnlyFinishedOnesAsFinished() {
    AddEventStore events = open();
    AddEvent done = pending("sync", "acme", 1).succeeded("{}", T0, T0);
    assertThatThrownBy(() -> events.insert(done))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PENDING");
    assertThatThrownBy(() -> events.insertFinished(pending("p", "acme", 1), "a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("SUCCEEDED or FAILED");
    assertThat(events.count("acme")).isZero();
  }

  @Test
  void onlyTheNamedEventsAreRenewed() {
    AddEventStore events = open();
    events.insert(pending("e1", "acme", 1));
    events.insert(pending("e2", "acme", 2));
    Instant now = T0.plusSeconds(10);
    events.claimNext(lease("a", now), now).orElseThrow();
    events.claimNext(lease("a", now), now).orElseThrow();
    assertThat(events.renewLeases(lease("a", now.plusSeconds(30)), List.of("e2"))).isEqualTo(1);
    Instant afterFirst = now.plus(LEASE);
    assertThat(events.claimNext(lease("b", afterFirst), afterFirst))
        .map(c -> c.event().id())
        .contains("e1");
    assertThat(events.claimNext(lease("b", afterFirst), afterFirst)).isEmpty();
  }

  @Test
  void endingAllLeasesMakesRunningEventsClaimableAtOnce() {
    AddEventStore events = open();
    events.insert(pending("e1", "acme", 1));
    Instant now = T0.plusSeconds(10);
    events.claimNext(lease("dead", now), now).orElseThrow();
    assertThat(events.endAllLeases(now)).isEqualTo(1);
    Optional<Claim> again = events.claimNext(lease("b", now), now);
    assertThat(again).map(Claim::takenOver).contains(true);
  }

  @Test
  void manyClaimersAtOnceClaimEveryEventExactlyOnce() throws Exception {
    AddEventStore setup = open();
    int n = 60;
    for (int i = 0; i < n; i++) {
      setup.insert(pending(String.format("e%03d", i), "acme", i));
    }
    List<AddEventStore> stores = List.of(setup, open());
    Set<String> claimed = ConcurrentHashMap.newKeySet();
    List<String> twice = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<?>> all = new ArrayList<>();
      for (int t = 0; t < 6; t++) {
        AddEventStore store = stores.get(t % 2);
        String owner = "owner-" + t;
        all.add(
            pool.submit(
                () -> {
                  Instant now = T0.plusSeconds(100);
                  for (Optional<Claim> c = store.claimNext(lease(owner, now), now);
                      c.isPresent();
                      c = store.claimNext(lease(owner, now), now)) {
                    if (!claimed.add(c.get().event().id())) {
                      synchronized (twice) {
                        twice.add(c.get().event().id());
                      }
                    }
                    assertThat(store.markSucceeded(c.get().event().id(), owner, "{}", now))
                        .isTrue();
                  }
                  return null;
                }));
      }
      for (Future<?> f : all) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(twice).isEmpty();
    assertThat(claimed).hasSize(n);
    assertThat(setup.countUnfinished()).isZero();
  }
}
