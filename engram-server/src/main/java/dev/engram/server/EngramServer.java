package dev.engram.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.Memory;
import dev.engram.MemoryStatus;
import dev.engram.SuppressForbidden;
import dev.engram.ValidationException;
import dev.engram.json.MemoryJson;
import dev.engram.server.api.ConsoleApi;
import dev.engram.server.api.GraphApi;
import dev.engram.server.api.HostedApi;
import dev.engram.server.api.OpsApi;
import dev.engram.server.api.SelfHostedApi;
import dev.engram.server.api.TransferApi;
import dev.engram.server.auth.ApiKeyStore;
import dev.engram.server.auth.CachedApiKeyStore;
import dev.engram.server.events.AddEventStore;
import dev.engram.server.events.AddEvents;
import dev.engram.server.http.AccessLog;
import dev.engram.server.http.Authenticator;
import dev.engram.server.http.JsonErrorHandler;
import dev.engram.server.http.ModelHealth;
import dev.engram.server.http.RateLimiter;
import dev.engram.server.http.RouteHandler;
import dev.engram.server.http.RouteTable;
import dev.engram.server.http.ServerMetrics;
import jakarta.servlet.http.HttpServlet;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code engram serve}: a {@link Memory} behind mem0's REST APIs. Build with {@link #builder},
 * {@link #start()}, and {@link #close()} to stop gracefully (stop accepting, finish in-flight
 * requests and running adds, leave queued adds pending for the next start). The server does not own
 * the memory or the stores: the caller closes them afterwards.
 *
 * <p>Every route runs as the tenant of the caller's API key ({@link Memory#forTenant}); nothing a
 * client sends can name another tenant. Without keys ({@link ServerSettings#insecureNoAuth()}) it
 * serves only on a loopback address.
 */
public final class EngramServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EngramServer.class);
  private static final int POOL_MAX_THREADS = 250;
  private static final int POOL_MIN_THREADS = 8;

  private final ServerSettings settings;
  private final Memory root;
  private final ServerMetrics metrics;
  private final AddEvents events;
  private final ModelHealth model;
  private final RouteTable routes;
  private final AccessLog accessLog;
  private final Server jetty;
  private volatile boolean closed;

  private EngramServer(Builder b) {
    this.settings = b.settings;
    this.root = b.memory;
    if (settings.insecureNoAuth() && !settings.loopbackOnly()) {
      throw new ValidationException(
          "server.host",
          "--insecure-no-auth serves only on a loopback address"
              + " (127.0.0.1, ::1, localhost), not on '"
              + settings.host()
              + "'");
    }
    if (!settings.insecureNoAuth()
        && !settings.loopbackOnly()
        && b.keys.list().stream().noneMatch(k -> k.active())) {
      throw new ValidationException(
          "server.host",
          "refusing to listen on '"
              + settings.host()
              + "' without API"
              + " keys; create one first (engram keys create --tenant NAME --admin)");
    }
    this.metrics = new ServerMetrics();
    this.model = new ModelHealth(b.clock);
    this.events =
        new AddEvents(
            root,
            b.eventStore,
            b.clock,
            metrics,
            model,
            settings.eventWorkers(),
            settings.eventLease());
    metrics.gauge(
        "engram.index.uncommitted.changes",
        "Record changes not yet durable in the search index",
        () -> root.status().uncommittedIndexChanges());
    metrics.gauge(
        "engram.index.stale",
        "1 while the search index waits to be repaired from the record",
        () -> root.status().indexStale() ? 1 : 0);
    this.routes = new RouteTable();
    new HostedApi(events, metrics).register(routes);
    new SelfHostedApi(events, metrics).register(routes);
    new GraphApi().register(routes);
    new ConsoleApi().register(routes);
    new TransferApi().register(routes);
    String version =
        Objects.requireNonNullElse(
            EngramServer.class.getPackage().getImplementationVersion(), "development");
    String[] openApi = new String[1];
    String[] page = new String[1];
    new OpsApi(metrics, events, this::readiness, () -> openApi[0], () -> page[0]).register(routes);
    openApi[0] = MemoryJson.write(OpenApiDocument.build(routes.routes(), version));
    page[0] = OpenApiDocument.page(routes.routes());
    // The cache is the server's view of the keys, not their owner: it is never closed (the caller
    // closes the store).
    ApiKeyStore keys = new CachedApiKeyStore(b.keys, b.ticker, settings.keyCacheTtl());
    this.accessLog = AccessLog.toLogger();
    RouteTable.RouteEnv env =
        new RouteTable.RouteEnv(
            root,
            new Authenticator(keys, settings.insecureNoAuth()),
            new RateLimiter(settings.rateLimitPerMinute(), b.clock),
            metrics,
            accessLog,
            settings.maxBodyBytes(),
            b.clock);
    this.jetty = jetty(settings, routes.handler(env, new LinkedHashMap<>(b.servlets)));
  }

  /**
   * Jetty on the settings' address: the routes on Jetty's own handler API, a graceful stop that
   * lets in-flight requests finish, the JSON error body for what Jetty refuses before any route,
   * and no server version in the headers.
   */
  private static Server jetty(ServerSettings settings, RouteHandler routes) {
    QueuedThreadPool pool = new QueuedThreadPool(POOL_MAX_THREADS, POOL_MIN_THREADS);
    pool.setName("engram-http");
    Server server = new Server(pool);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
    connector.setHost(settings.host());
    connector.setPort(settings.port());
    server.addConnector(connector);
    server.setHandler(new GracefulHandler(routes));
    server.setStopTimeout(settings.shutdownGrace().toMillis());
    server.setErrorHandler(new JsonErrorHandler());
    return server;
  }

  public static Builder builder(Memory memory) {
    return new Builder(memory);
  }

  /** Resumes unfinished add events, then listens. */
  public EngramServer start() {
    int resumed = events.resume();
    try {
      jetty.start();
    } catch (Exception e) {
      throw new IllegalStateException(
          "cannot listen on " + settings.host() + ":" + settings.port() + ": " + e.getMessage(), e);
    }
    LOG.info(
        "engram serve listening on http://{}:{} ({} add event(s) resumed{})",
        settings.host(),
        port(),
        resumed,
        settings.insecureNoAuth() ? ", NO AUTHENTICATION" : "");
    return this;
  }

  /** The port it listens on (the chosen one when started with port 0). */
  public int port() {
    return ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
  }

  /** The declared routes (for documentation and tests). */
  public java.util.List<RouteTable.Route> routes() {
    return routes.routes();
  }

  private OpsApi.ReadyCheck readiness() {
    ObjectNode details = MemoryJson.mapper().createObjectNode();
    boolean ready = true;
    try {
      root.get("readiness-probe");
      details.put("storage", "ok");
      MemoryStatus status = root.status();
      details.put("index", status.indexCaughtUp() ? "caught up" : "being repaired from the record");
      details.put("index_uncommitted_changes", status.uncommittedIndexChanges());
      details.put("record_sequence", status.recordSequence());
      details.put("index_committed_sequence", status.indexCommittedSequence());
      ready = status.indexCaughtUp();
      var modelProblem = model.unreachable();
      details.put("model", modelProblem.orElse("ok (as far as the latest call shows)"));
      ready = ready && modelProblem.isEmpty();
    } catch (RuntimeException e) {
      ready = false;
      details.put("storage", "unavailable: " + e.getMessage());
    }
    details.put("accepting", !closed);
    return new OpsApi.ReadyCheck(ready && !closed, details);
  }

  /**
   * Stops gracefully: no new connections, in-flight requests and running adds finish, queued adds
   * stay pending.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    LOG.info("engram serve stopping");
    Exception stopFailure = null;
    try {
      jetty.stop();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      stopFailure = e;
    } finally {
      try {
        events.close(settings.shutdownGrace());
      } finally {
        accessLog.close();
      }
    }
    if (stopFailure != null) {
      throw new IllegalStateException(
          "engram serve: the HTTP server did not stop cleanly: " + stopFailure.getMessage(),
          stopFailure);
    }
  }

  /** Configures a server. */
  public static final class Builder {
    private final Memory memory;
    private ServerSettings settings = ServerSettings.builder().build();
    private ApiKeyStore keys;
    private AddEventStore eventStore;
    private Clock clock = systemClock();
    private LongSupplier ticker = System::nanoTime;
    private final Map<String, HttpServlet> servlets = new LinkedHashMap<>();

    private Builder(Memory memory) {
      this.memory = Objects.requireNonNull(memory, "memory");
    }

    public Builder settings(ServerSettings s) {
      this.settings = Objects.requireNonNull(s, "settings");
      return this;
    }

    public Builder keys(ApiKeyStore k) {
      this.keys = Objects.requireNonNull(k, "keys");
      return this;
    }

    public Builder events(AddEventStore e) {
      this.eventStore = Objects.requireNonNull(e, "events");
      return this;
    }

    public Builder clock(Clock c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    /**
     * The monotonic time, in nanoseconds, that measures durations such as how long an authenticated
     * key stays cached (default {@code System::nanoTime}); a test moves it by hand.
     */
    public Builder ticker(LongSupplier nanos) {
      this.ticker = Objects.requireNonNull(nanos, "ticker");
      return this;
    }

    /**
     * The default clock: the system clock in UTC, read nowhere else; {@link #clock} replaces it.
     */
    @SuppressForbidden(reason = "a builder's default clock")
    private static Clock systemClock() {
      return Clock.systemUTC();
    }

    /** Serves a servlet beside the REST routes, e.g. MCP at {@code /mcp/*}. */
    public Builder servlet(String pathSpec, HttpServlet servlet) {
      servlets.put(
          Objects.requireNonNull(pathSpec, "pathSpec"), Objects.requireNonNull(servlet, "servlet"));
      return this;
    }

    public EngramServer build() {
      Objects.requireNonNull(keys, "keys");
      Objects.requireNonNull(eventStore, "events");
      return new EngramServer(this);
    }
  }
}
