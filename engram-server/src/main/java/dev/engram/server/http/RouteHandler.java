package dev.engram.server.http;

import dev.engram.Memory;
import dev.engram.server.auth.Principal;
import jakarta.servlet.http.HttpServlet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.pathmap.ServletPathSpec;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Serves the {@link RouteTable}'s routes on Jetty's own request API (no servlet layer between the
 * connection and a route: on two cores the servlet and framework layers cost about as much CPU as a
 * search over 400 memories; docs/benchmarks/log.md, "The routes on Jetty's core handlers").
 *
 * <p>Each request gets an id ({@code X-Request-Id}: the client's when it is a plain token, else a
 * new UUID), is matched against the routes' path templates and run through the route's steps, and
 * ends with one access-log line. A path no route has with any method is 404; one another method
 * has, 405. The servlets given (MCP at {@code /mcp/*}) serve the paths of their specs; the handler
 * wraps their context, so that Jetty starts and stops it with the server.
 */
public final class RouteHandler extends Handler.Wrapper {
  private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

  private final List<Compiled> routes;
  private final RouteTable.RouteEnv env;
  private final List<ServletPathSpec> servletPaths;
  private final Map<String, Memory> tenants = new ConcurrentHashMap<>();

  private record Compiled(RouteTable.Route route, RoutePath path) {}

  RouteHandler(
      List<RouteTable.Route> routes, RouteTable.RouteEnv env, Map<String, HttpServlet> servlets) {
    this.routes = routes.stream().map(r -> new Compiled(r, RoutePath.of(r.path()))).toList();
    this.env = Objects.requireNonNull(env, "env");
    this.servletPaths = servlets.keySet().stream().map(ServletPathSpec::new).toList();
    if (!servlets.isEmpty()) {
      ServletContextHandler context = new ServletContextHandler();
      context.setContextPath("/");
      servlets.forEach(
          (path, servlet) -> {
            ServletHolder holder = new ServletHolder(servlet);
            holder.setAsyncSupported(true);
            context.addServlet(holder, path);
          });
      setHandler(context);
    }
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    long start = System.nanoTime();
    String method = request.getMethod();
    String path = request.getHttpURI().getPath();
    List<String> segments = RoutePath.segments(path);
    Optional<Compiled> route =
        routes.stream()
            .filter(c -> c.route().method().asString().equals(method))
            .filter(c -> c.path().matches(segments))
            .findFirst();
    boolean otherMethod =
        route.isEmpty() && routes.stream().anyMatch(c -> c.path().matches(segments));
    if (route.isEmpty() && !otherMethod && getHandler() != null && isServletPath(path)) {
      return super.handle(request, response, callback);
    }
    String requestId = requestId(request.getHeaders().get("X-Request-Id"));
    response.getHeaders().put("X-Request-Id", requestId);
    Reply reply;
    Optional<String> keyId = Optional.empty();
    try {
      if (route.isEmpty()) {
        throw otherMethod
            ? new ApiException(405, "method not allowed: " + method + " " + path, "method")
            : new ApiException(404, "not found: no route " + method + " " + path, "path");
      }
      Optional<Principal> principal = caller(route.get().route(), request);
      keyId = principal.map(Principal::keyId);
      reply =
          route
              .get()
              .route()
              .handler()
              .handle(call(route.get(), principal, segments, request, response));
    } catch (Exception | StackOverflowError e) {
      ErrorReplies.ErrorReply error = ErrorReplies.of(e, requestId);
      error.headers().forEach((name, value) -> response.getHeaders().put(name, value));
      reply = Reply.json(error.status(), error.body().put("request_id", requestId));
    }
    Call.readUnreadBody(request, response, env.maxBodyBytes());
    ReplyWriter.write(request, response, reply, callback);
    record(route, requestId, method, path, response.getStatus(), keyId, System.nanoTime() - start);
    return true;
  }

  /** The caller of a route that is not public; a 401 {@link ApiException} without a valid key. */
  private Optional<Principal> caller(RouteTable.Route route, Request request) {
    if (route.access() == Access.PUBLIC) {
      return Optional.empty();
    }
    return Optional.of(
        env.authenticator()
            .authenticate(
                request.getHeaders().get(HttpHeader.AUTHORIZATION),
                request.getHeaders().get("X-API-Key")));
  }

  /**
   * The route's call, once the caller's role is checked (403) and its rate taken (429): the path's
   * parameters decoded, and the memory of the caller's tenant.
   */
  private Call call(
      Compiled route,
      Optional<Principal> principal,
      List<String> segments,
      Request request,
      Response response) {
    Optional<Memory> memory = Optional.empty();
    if (principal.isPresent()) {
      Principal p = principal.get();
      if (!p.role().allows(route.route().access().requiredRole().orElseThrow())) {
        throw new ApiException(403, "forbidden: this route needs an admin key", "role");
      }
      env.rateLimiter().acquire(p.keyId());
      memory = Optional.of(tenants.computeIfAbsent(p.tenant(), t -> env.root().forTenant(t)));
    }
    Map<String, String> params = route.path().params(segments);
    return new Call(
        request, response, params, principal, memory, env.maxBodyBytes(), env.clock().instant());
  }

  /** The request's metrics (a route's only) and its access-log line. */
  private void record(
      Optional<Compiled> route,
      String requestId,
      String method,
      String path,
      int status,
      Optional<String> keyId,
      long nanos) {
    route.ifPresent(
        c -> env.metrics().request(c.route().method().name(), c.route().path(), status, nanos));
    env.accessLog()
        .record(
            new AccessLog.Line(
                requestId, method, path, status, Math.round(nanos / 1e6), keyId.orElse("null")));
  }

  private boolean isServletPath(String path) {
    return servletPaths.stream().anyMatch(spec -> spec.matches(path));
  }

  private static String requestId(String given) {
    return given != null && REQUEST_ID.matcher(given).matches() ? given : RequestIds.next();
  }

  /**
   * Routes block (they read bodies and wait for durable writes): they run on the pool's threads.
   */
  @Override
  public InvocationType getInvocationType() {
    return InvocationType.BLOCKING;
  }
}
