package dev.engram.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.json.MemoryJson;
import dev.engram.server.events.AddEvents;
import dev.engram.server.http.Access;
import dev.engram.server.http.Call;
import dev.engram.server.http.Reply;
import dev.engram.server.http.RouteTable;
import dev.engram.server.http.ServerMetrics;
import java.util.function.Supplier;

/** Operations: liveness, readiness, Prometheus metrics, the OpenAPI document and its page. */
public final class OpsApi {
  private final ServerMetrics metrics;
  private final AddEvents events;
  private final Supplier<ReadyCheck> readiness;
  private final Supplier<String> openApi;
  private final Supplier<String> docsPage;

  /** What readiness found. */
  public record ReadyCheck(boolean ready, ObjectNode details) {}

  public OpsApi(
      ServerMetrics metrics,
      AddEvents events,
      Supplier<ReadyCheck> readiness,
      Supplier<String> openApi,
      Supplier<String> docsPage) {
    this.metrics = metrics;
    this.events = events;
    this.readiness = readiness;
    this.openApi = openApi;
    this.docsPage = docsPage;
  }

  public void register(RouteTable t) {
    t.get(
        "/healthz",
        Access.PUBLIC,
        "Liveness: the process answers",
        c -> Reply.json(MemoryJson.mapper().createObjectNode().put("status", "ok")));
    t.get(
        "/readyz",
        Access.PUBLIC,
        "Readiness: storage open, index caught up, model reachable if configured",
        this::ready);
    t.get(
        "/metrics",
        Access.ADMIN,
        "Prometheus metrics",
        c -> Reply.text("text/plain; version=0.0.4; charset=utf-8", metrics.scrape()));
    t.get(
        "/openapi.json",
        Access.PUBLIC,
        "This API as an OpenAPI 3.1 document",
        c -> new Reply(200, "application/json", openApi.get()));
    t.get(
        "/docs",
        Access.PUBLIC,
        "A readable page of this API",
        c -> Reply.text("text/html; charset=utf-8", docsPage.get()));
  }

  private Reply ready(Call c) {
    ReadyCheck r = readiness.get();
    boolean ready = r.ready();
    try {
      r.details().put("events_queued", events.queued());
    } catch (dev.engram.StorageException e) {
      // The event store (server.db, or the shared PostgreSQL) does not answer: not ready, and say
      // why.
      r.details().put("events", "unavailable: " + e.getMessage());
      ready = false;
    }
    r.details().put("status", ready ? "ready" : "not ready");
    return Reply.json(ready ? 200 : 503, r.details());
  }
}
