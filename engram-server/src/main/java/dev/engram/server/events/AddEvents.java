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
import dev.engram.server.http.ServerMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * mem0's asynchronous add: {@link #accept} stores the validated request as a PENDING event (committed before the
 * client hears of it) and queues it; workers run it and store the results or the failure. Every message of an
 * accepted add carries a source id ({@code <event>:<index>} unless the client gave one), which makes a restart exact:
 * an event found RUNNING after a crash whose memories are already in the record is marked SUCCEEDED with them, any
 * other unfinished event is run again. A graceful {@link #close} lets running adds finish and leaves queued ones
 * PENDING for the next start.
 */
public final class AddEvents implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AddEvents.class);
  /** How many accepted adds may wait before new ones are refused with 503. */
  public static final int MAX_QUEUED = 10_000;

  private final Memory root;
  private final AddEventStore store;
  private final Clock clock;
  private final ServerMetrics metrics;
  private final ThreadPoolExecutor workers;
  private final AtomicInteger queued = new AtomicInteger();
  private volatile boolean stopping;
  private final ModelHealth model;

  public AddEvents(Memory root, AddEventStore store, Clock clock, ServerMetrics metrics, ModelHealth model,
                   int threads) {
    this.model = Objects.requireNonNull(model, "model");
    this.root = Objects.requireNonNull(root, "root");
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    AtomicInteger n = new AtomicInteger();
    this.workers = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
        r -> {
          Thread t = new Thread(r, "engram-add-event-" + n.incrementAndGet());
          t.setDaemon(false);
          return t;
        });
    metrics.gauge("engram.events.queued", "Accepted adds waiting for a worker", queued::get);
  }

  /** Resumes every unfinished event found in the store (call once, before serving). */
  public int resume() {
    List<AddEvent> unfinished = store.unfinished();
    for (AddEvent e : unfinished) {
      if (e.status() == EventStatus.RUNNING && finishFromRecord(e)) {
        continue;
      }
      enqueue(e);
    }
    if (!unfinished.isEmpty()) {
      LOG.info("resumed {} unfinished add event(s)", unfinished.size());
    }
    return unfinished.size();
  }

  /** Stores and queues an add of a tenant; returns the PENDING event. */
  public AddEvent accept(String tenant, AddRequest request) {
    if (queued.get() >= MAX_QUEUED) {
      throw new ApiException(503, "too many adds waiting (" + MAX_QUEUED + "); try again shortly", "queue",
          java.util.Map.of("Retry-After", "5"));
    }
    String id = UUID.randomUUID().toString();
    AddEvent event = AddEvent.pending(id, tenant, AddBody.toJson(AddBody.withSourceIds(request, id)),
        clock.instant());
    store.insert(event);
    enqueue(event);
    return event;
  }

  /** Runs an add now, recording it as an event too; returns the finished event. */
  public AddEvent runNow(String tenant, AddRequest request) {
    String id = UUID.randomUUID().toString();
    AddEvent event = AddEvent.pending(id, tenant, AddBody.toJson(AddBody.withSourceIds(request, id)),
        clock.instant());
    store.insert(event);
    run(event, true);
    return store.get(tenant, id).orElseThrow();
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

  /** How many accepted adds wait for a worker. */
  public int queued() {
    return queued.get();
  }

  private void enqueue(AddEvent e) {
    queued.incrementAndGet();
    try {
      workers.execute(() -> {
        queued.decrementAndGet();
        if (!stopping) {
          run(e, false);
        }
      });
    } catch (RejectedExecutionException rejected) {
      queued.decrementAndGet();
      LOG.info("add event {} stays pending: the server is stopping", e.id());
    }
  }

  private void run(AddEvent e, boolean rethrow) {
    store.markRunning(e.id(), clock.instant());
    long start = System.nanoTime();
    try {
      AddRequest request = AddBody.fromJson(e.payload());
      AddResult result = root.forTenant(e.tenant()).add(request);
      metrics.add(System.nanoTime() - start, result.usage());
      if (result.usage().llmCalls() > 0) {
        model.succeeded();
      }
      store.markSucceeded(e.id(), MemoryJson.write(MemoryJson.addResult(result)), clock.instant());
    } catch (EngramException | ApiException failure) {
      if (failure instanceof LanguageModelException l) {
        model.failed(l);
      }
      store.markFailed(e.id(), failure.getMessage(), clock.instant());
      if (rethrow) {
        throw failure;
      }
    } catch (RuntimeException bug) {
      String errorId = UUID.randomUUID().toString();
      LOG.error("add event {} failed with an internal error {}", e.id(), errorId, bug);
      store.markFailed(e.id(), "internal error " + errorId, clock.instant());
      if (rethrow) {
        throw bug;
      }
    }
  }

  /** For an event that was running at a crash: if its memories are in the record, it succeeded. */
  private boolean finishFromRecord(AddEvent e) {
    AddRequest request = AddBody.fromJson(e.payload());
    List<Object> sourceIds = new ArrayList<>();
    request.messages().forEach(m -> sourceIds.add(m.sourceId()));
    Filter filter = Mem0Filters.fromMap(java.util.Map.of("source_id", java.util.Map.of("in", sourceIds),
        "created_at", java.util.Map.of("gte", e.createdAt().toString())));
    Page<MemoryItem> found = root.forTenant(e.tenant()).list(ListRequest.of(request.scope()).withFilter(filter)
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
    store.markSucceeded(e.id(), MemoryJson.write(results), clock.instant());
    LOG.info("add event {} had committed before the restart: marked succeeded", e.id());
    return true;
  }

  /** Stops taking work, lets running adds finish within {@code grace}; queued adds stay PENDING for the next start. */
  public void close(Duration grace) {
    stopping = true;
    workers.shutdown();
    try {
      if (!workers.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("add events still running after {}; they will be resumed at the next start", grace);
      }
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(20));
  }
}
