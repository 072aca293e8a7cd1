package dev.engram.server.events;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.EngramException;
import dev.engram.LanguageModelException;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Page;
import dev.engram.filter.Filter;
import dev.engram.filter.Mem0Filters;
import dev.engram.json.MemoryJson;
import dev.engram.server.api.AddBody;
import dev.engram.server.http.ApiException;
import dev.engram.server.http.ModelHealth;
import dev.engram.server.http.RequestIds;
import dev.engram.server.http.ServerMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * mem0's asynchronous add: {@link #accept} stores the validated request as a PENDING event
 * (committed before the client hears of it) and wakes a worker; workers claim events from the store
 * ({@link AddEventStore#claimNext}), run them and store the results or the failure. Several servers
 * may share one store: each event is claimed by exactly one of them, under a lease this instance
 * renews while it runs the event, and an event whose server died is claimed again by any server
 * once the lease has ended. Every message of an accepted add carries a source id ({@code
 * <event>:<index>} unless the client gave one), which makes taking over exact: an event found
 * RUNNING under an ended lease whose memories are already in the record is marked SUCCEEDED with
 * them, any other is run again. A graceful {@link #close} lets running adds finish and leaves
 * waiting ones PENDING for this or another server.
 */
public final class AddEvents implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AddEvents.class);

  /** How many accepted adds may wait before new ones are refused with 503. */
  public static final int MAX_QUEUED = 10_000;

  /**
   * How long a claimed event stays this instance's without a renewal, unless configured otherwise.
   */
  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(60);

  /** How often an idle worker looks for events accepted by other servers or left by dead ones. */
  private static final long POLL_MILLIS = 1000;

  private final Memory root;
  private final AddEventStore store;
  private final Clock clock;
  private final ServerMetrics metrics;
  private final ModelHealth model;
  private final int threads;
  private final Duration lease;
  private final String owner;
  private final ExecutorService workers;
  private final ScheduledExecutorService renewer;
  private final Semaphore wake = new Semaphore(0);

  /** Each tenant's view of the memory, made once (a view is a few objects, but one per add). */
  private final java.util.Map<String, Memory> tenants =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** The events this instance runs now: the only ones whose leases it renews. */
  private final java.util.Set<String> running = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private volatile boolean stopping;
  private volatile boolean started;

  public AddEvents(
      Memory root,
      AddEventStore store,
      Clock clock,
      ServerMetrics metrics,
      ModelHealth model,
      int threads) {
    this(root, store, clock, metrics, model, threads, DEFAULT_LEASE);
  }

  /**
   * @param lease how long a claimed event stays this instance's without a renewal (renewed every
   *     third of it)
   */
  public AddEvents(
      Memory root,
      AddEventStore store,
      Clock clock,
      ServerMetrics metrics,
      ModelHealth model,
      int threads,
      Duration lease) {
    this.model = Objects.requireNonNull(model, "model");
    this.root = Objects.requireNonNull(root, "root");
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.lease = Objects.requireNonNull(lease, "lease");
    if (lease.toMillis() < 3) {
      throw new IllegalArgumentException("the event lease must be positive, got " + lease);
    }
    this.threads = threads;
    this.owner = newOwnerId();
    AtomicInteger n = new AtomicInteger();
    this.workers =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "engram-add-event-" + n.incrementAndGet());
              t.setDaemon(false);
              return t;
            });
    this.renewer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "engram-add-event-leases");
              t.setDaemon(true);
              return t;
            });
    metrics.gauge(
        "engram.events.queued",
        "Accepted adds waiting for a worker (of every server on the store)",
        store::countPending);
  }

  /**
   * This instance's owner id in the store's leases: the host name from {@code HOSTNAME} when set
   * (no DNS lookup), the process id and a random part.
   */
  private static String newOwnerId() {
    String host = Objects.requireNonNullElse(System.getenv("HOSTNAME"), "host");
    return host
        + "/"
        + ProcessHandle.current().pid()
        + "/"
        + UUID.randomUUID().toString().substring(0, 8);
  }

  /**
   * Starts the workers (call once, before serving); they resume every unfinished event of the
   * store. For a store one process uses at a time, the events found RUNNING were left by a process
   * that died: their leases end now.
   *
   * @return how many events were unfinished at start
   */
  public int resume() {
    if (started) {
      throw new IllegalStateException("already started");
    }
    started = true;
    if (store.singleProcess()) {
      store.endAllLeases(clock.instant());
    }
    int unfinished = (int) store.countUnfinished();
    long every = Math.max(1, lease.toMillis() / 3);
    // Runs until the renewer shuts down; renew reports its own failures, so the future has nothing
    // to tell.
    Future<?> unused =
        renewer.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
    for (int i = 0; i < threads; i++) {
      workers.execute(this::work);
    }
    if (unfinished > 0) {
      LOG.info("{} unfinished add event(s) in the store at start", unfinished);
    }
    return unfinished;
  }

  /** Stores an add of a tenant as PENDING and wakes a worker; returns the PENDING event. */
  public AddEvent accept(String tenant, AddRequest request) {
    if (store.countPending() >= MAX_QUEUED) {
      throw new ApiException(
          503,
          "too many adds waiting (" + MAX_QUEUED + "); try again shortly",
          "queue",
          java.util.Map.of("Retry-After", "5"));
    }
    String id = UUID.randomUUID().toString();
    AddEvent event =
        AddEvent.pending(
            id, tenant, AddBody.toJson(AddBody.withSourceIds(request, id)), clock.instant());
    store.insert(event);
    wake.release();
    return event;
  }

  /**
   * Runs an add now, on the calling thread, and records it as a finished event in one write;
   * returns it SUCCEEDED, or rethrows the add's failure once the FAILED event is recorded. Nothing
   * is recorded before the add runs: the engine's add commits all of its writes or none, so a kill
   * before the answer leaves either the whole add without its event, or nothing, and the client,
   * which got no answer, decides whether to send it again.
   */
  public AddEvent runNow(String tenant, AddRequest request) {
    String id = UUID.randomUUID().toString();
    Instant now = clock.instant();
    AddRequest withIds = AddBody.withSourceIds(request, id);
    AddEvent event = AddEvent.pending(id, tenant, AddBody.toJson(withIds), now);
    try {
      AddEvent done = event.succeeded(execute(tenant, withIds), now, clock.instant());
      store.insertFinished(done, owner);
      return done;
    } catch (AddFailure f) {
      try {
        store.insertFinished(event.failed(f.reason(), now, clock.instant()), owner);
      } catch (RuntimeException storeFailure) {
        f.getCause().addSuppressed(storeFailure);
      }
      throw f.rethrown();
    }
  }

  /** An event of a tenant. */
  public java.util.Optional<AddEvent> get(String tenant, String id) {
    return store.get(tenant, id);
  }

  /** A tenant's events, newest first. */
  public List<AddEvent> list(String tenant, int offset, int limit) {
    return store.list(tenant, offset, limit);
  }

  public long count(String tenant) {
    return store.count(tenant);
  }

  /** How many accepted adds wait for a worker, of every server sharing the store. */
  public long queued() {
    return store.countPending();
  }

  /** This instance's id in the leases of the events it runs. */
  public String owner() {
    return owner;
  }

  /**
   * Claims and runs every event waiting now, one after another, on the calling thread; returns how
   * many it ran. The workers do the same; this is for tests that control the clock.
   */
  public int runWaiting() {
    int ran = 0;
    while (!stopping && runOne()) {
      ran++;
    }
    return ran;
  }

  private void work() {
    while (!stopping) {
      try {
        if (!runOne()) {
          wake.tryAcquire(POLL_MILLIS, TimeUnit.MILLISECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        // The event store failed (the database is away): try again after a pause. An event whose
        // outcome could not
        // be recorded is no longer renewed, so it is taken over (and finished from the record) once
        // its lease ends.
        LOG.warn("add event worker: the event store failed: {}", e.getMessage());
        try {
          Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** Claims the next waiting event and runs it; false if none was waiting. */
  private boolean runOne() {
    Instant now = clock.instant();
    Optional<Claim> claim = store.claimNext(new Lease(owner, now.plus(lease)), now);
    if (claim.isEmpty()) {
      return false;
    }
    AddEvent e = claim.get().event();
    running.add(e.id());
    try {
      if (claim.get().takenOver()) {
        LOG.info("add event {} was left running by a server whose lease ended: taken over", e.id());
        if (finishFromRecord(e)) {
          return true;
        }
      }
      run(e);
      return true;
    } finally {
      running.remove(e.id());
    }
  }

  private void renew() {
    try {
      store.renewLeases(new Lease(owner, clock.instant().plus(lease)), List.copyOf(running));
    } catch (RuntimeException e) {
      LOG.warn("could not renew the leases of running add events: {}", e.getMessage());
    }
  }

  /**
   * Runs a claimed event and records its outcome (unless another server took it over meanwhile).
   * The request is read from the event's payload inside the failure handling, so a payload that
   * cannot be read fails the event.
   */
  private void run(AddEvent e) {
    try {
      String results = execute(e.tenant(), () -> AddBody.fromJson(e.payload()));
      finish(store.markSucceeded(e.id(), owner, results, clock.instant()), e);
    } catch (AddFailure f) {
      finish(store.markFailed(e.id(), owner, f.reason(), clock.instant()), e);
    }
  }

  /**
   * Runs a tenant's add and counts it in the metrics; mem0's results JSON.
   *
   * @throws AddFailure carrying the add's failure and the reason an event records for it
   */
  private String execute(String tenant, AddRequest request) {
    return execute(tenant, () -> request);
  }

  private String execute(String tenant, Supplier<AddRequest> request) {
    long start = System.nanoTime();
    try {
      AddResult result = tenant(tenant).add(request.get());
      metrics.add(System.nanoTime() - start, result.usage());
      if (result.usage().llmCalls() > 0) {
        model.succeeded();
      }
      return MemoryJson.write(MemoryJson.addResult(result));
    } catch (EngramException | ApiException failure) {
      if (failure instanceof LanguageModelException l) {
        model.failed(l);
      }
      throw new AddFailure(
          failure,
          Objects.requireNonNullElse(failure.getMessage(), failure.getClass().getSimpleName()));
    } catch (RuntimeException bug) {
      String errorId = RequestIds.next();
      LOG.error("an add of tenant {} failed with an internal error {}", tenant, errorId, bug);
      throw new AddFailure(bug, "internal error " + errorId);
    }
  }

  /**
   * An add that failed: its cause (a typed engine or API error, or a bug) and the reason its event
   * records (the error's message, or an internal error's id).
   */
  private static final class AddFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String reason;

    AddFailure(RuntimeException cause, String reason) {
      super(reason, cause, false, false);
      this.reason = reason;
    }

    String reason() {
      return reason;
    }

    /** The add's own failure, to throw to the caller. */
    RuntimeException rethrown() {
      return (RuntimeException) getCause();
    }
  }

  private Memory tenant(String tenant) {
    return tenants.computeIfAbsent(tenant, root::forTenant);
  }

  private static void finish(boolean stillOurs, AddEvent e) {
    if (!stillOurs) {
      LOG.warn(
          "add event {} ran past its lease and was taken over by another server; its outcome here is not"
              + " recorded",
          e.id());
    }
  }

  /**
   * For an event whose server died while running it: if its memories are in the record, it
   * succeeded.
   */
  private boolean finishFromRecord(AddEvent e) {
    AddRequest request = AddBody.fromJson(e.payload());
    List<Object> sourceIds = new ArrayList<>();
    request.messages().forEach(m -> sourceIds.add(m.sourceId()));
    Filter filter =
        Mem0Filters.fromMap(
            java.util.Map.of(
                "source_id",
                java.util.Map.of("in", sourceIds),
                "created_at",
                java.util.Map.of("gte", e.createdAt().toString())));
    Page<MemoryItem> found =
        tenant(e.tenant())
            .list(
                ListRequest.of(request.scope())
                    .withFilter(filter)
                    .withPage(0, ListRequest.MAX_LIMIT));
    if (found.items().isEmpty()) {
      return false;
    }
    ObjectNode results = MemoryJson.mapper().createObjectNode();
    ArrayNode list = results.putArray("results");
    for (MemoryItem m : found.items()) {
      ObjectNode r = list.addObject();
      r.put("id", m.id());
      r.put("memory", m.text());
      r.put("event", "ADD");
    }
    finish(store.markSucceeded(e.id(), owner, MemoryJson.write(results), clock.instant()), e);
    LOG.info("add event {} had committed before its server stopped: marked succeeded", e.id());
    return true;
  }

  /**
   * Stops taking work, lets running adds finish within {@code grace}; waiting adds stay PENDING.
   */
  public void close(Duration grace) {
    stopping = true;
    wake.release(threads);
    workers.shutdown();
    try {
      if (!workers.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn(
            "add events still running after {}; another server (or the next start) takes them over once their"
                + " lease ends",
            grace);
      }
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
    } finally {
      renewer.shutdownNow();
    }
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(20));
  }
}
