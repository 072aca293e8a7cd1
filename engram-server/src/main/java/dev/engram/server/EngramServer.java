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
import dev.engram.server.http.RouteTable;
import dev.engram.server.http.ServerMetrics;
import io.javalin.Javalin;
import jakarta.servlet.http.HttpServlet;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.ServerConnector;
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

  private final ServerSettings settings;
  private final Memory root;
  private final ServerMetrics metrics;
  private final AddEvents events;
  private final ModelHealth model;
  private final RouteTable routes;
  private final AccessLog accessLog;
  private final Javalin app;
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
    Map<String, HttpServlet> servlets = Map.copyOf(b.servlets);
    this.app =
        Javalin.create(
            config -> {
              config.startup.showJavalinBanner = false;
              config.jetty.host = settings.host();
              config.jetty.port = settings.port();
              config.http.maxRequestSize = settings.maxBodyBytes();
              config.http.prefer405over404 = true;
              config.router.ignoreTrailingSlashes = false;
              config.jetty.modifyServer(
                  server -> {
                    server.setStopTimeout(settings.shutdownGrace().toMillis());
                    server.setErrorHandler(new JsonErrorHandler());
                  });
              config.jetty.modifyServletContextHandler(
                  handler ->
                      servlets.forEach(
                          (path, servlet) -> {
                            ServletHolder holder = new ServletHolder(servlet);
                            holder.setAsyncSupported(true);
                            handler.addServlet(holder, path);
                          }));
              routes.install(config, env);
            });
  }

  public static Builder builder(Memory memory) {
    return new Builder(memory);
  }

  /** Resumes unfinished add events, then listens. */
  public EngramServer start() {
    int resumed = events.resume();
    app.start();
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
    return ((ServerConnector) app.jettyServer().server().getConnectors()[0]).getLocalPort();
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
    try {
      app.stop();
    } finally {
      try {
        events.close(settings.shutdownGrace());
      } finally {
        accessLog.close();
      }
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
