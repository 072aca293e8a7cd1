package dev.engram.server.http;

import dev.engram.Memory;
import dev.engram.server.auth.Principal;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.router.Endpoint;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Every route of the server, declared once with its access rule and summary, and installed into
 * Javalin wrapped in the same steps: authenticate (401), check the role (403), rate-limit the key
 * (429), run, write the reply or the error body, and record the request's metrics under the route's
 * template. The list is also what the OpenAPI test checks the document against.
 */
public final class RouteTable {
  private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
  private static final String REQUEST_ID_ATTR = "engram.request-id";
  private static final String HANDLED_ATTR = "engram.handled";
  private static final String KEY_ATTR = "engram.key-id";

  /** A declared route. */
  public record Route(
      HandlerType method, String path, Access access, String summary, ApiHandler handler) {}

  /** The work of a route. */
  @FunctionalInterface
  public interface ApiHandler {
    Reply handle(Call call) throws Exception;
  }

  /** What the routes need from the server. */
  public record RouteEnv(
      Memory root,
      Authenticator authenticator,
      RateLimiter rateLimiter,
      ServerMetrics metrics,
      AccessLog accessLog,
      long maxBodyBytes,
      Clock clock) {}

  private final List<Route> routes = new ArrayList<>();
  private final Map<String, Memory> tenants = new ConcurrentHashMap<>();

  public RouteTable get(String path, Access access, String summary, ApiHandler h) {
    return add(HandlerType.GET, path, access, summary, h);
  }

  public RouteTable post(String path, Access access, String summary, ApiHandler h) {
    return add(HandlerType.POST, path, access, summary, h);
  }

  public RouteTable put(String path, Access access, String summary, ApiHandler h) {
    return add(HandlerType.PUT, path, access, summary, h);
  }

  public RouteTable delete(String path, Access access, String summary, ApiHandler h) {
    return add(HandlerType.DELETE, path, access, summary, h);
  }

  public RouteTable add(
      HandlerType method, String path, Access access, String summary, ApiHandler h) {
    routes.add(new Route(method, path, access, summary, h));
    return this;
  }

  /** The declared routes, in declaration order. */
  public List<Route> routes() {
    return List.copyOf(routes);
  }

  /** Installs the routes, the request id, the access log and the JSON 404/405 bodies. */
  public void install(JavalinConfig config, RouteEnv env) {
    config.routes.before(
        ctx -> {
          String given = ctx.header("X-Request-Id");
          String id =
              given != null && REQUEST_ID.matcher(given).matches()
                  ? given
                  : UUID.randomUUID().toString();
          ctx.attribute(REQUEST_ID_ATTR, id);
          ctx.header("X-Request-Id", id);
        });
    for (Route r : routes) {
      config.routes.addEndpoint(new Endpoint(r.method(), r.path(), ctx -> run(r, ctx, env)));
    }
    for (int status : new int[] {404, 405}) {
      config.routes.error(
          status,
          "*",
          ctx -> {
            if (ctx.attribute(HANDLED_ATTR) == null) {
              String error =
                  status == 404
                      ? "not found: no route " + ctx.method() + " " + ctx.path()
                      : "method not allowed: " + ctx.method() + " " + ctx.path();
              write(
                  ctx,
                  ErrorReplies.reply(status, error, status == 404 ? "path" : "method", Map.of()),
                  env.maxBodyBytes());
            }
          });
    }
    config.requestLogger.http(
        (ctx, ms) ->
            env.accessLog()
                .record(
                    new AccessLog.Line(
                        Objects.toString(ctx.attribute(REQUEST_ID_ATTR)),
                        ctx.method().name(),
                        ctx.path(),
                        ctx.statusCode(),
                        Math.round(ms),
                        Objects.toString(ctx.attribute(KEY_ATTR)))));
  }

  /**
   * Runs a route and sends its reply (or its error's) in one piece. The rest of an unread request
   * body is read before the reply is sent, so that a body that cannot be read can still close the
   * connection ({@code Connection: close}) in the reply's headers.
   */
  private void run(Route r, Context ctx, RouteEnv env) {
    long start = System.nanoTime();
    try {
      Reply reply;
      try {
        Optional<Principal> principal = Optional.empty();
        Optional<Memory> memory = Optional.empty();
        if (r.access() != Access.PUBLIC) {
          Principal p = env.authenticator().authenticate(ctx);
          ctx.attribute(KEY_ATTR, p.keyId());
          if (!p.role().allows(r.access().requiredRole().orElseThrow())) {
            throw new ApiException(403, "forbidden: this route needs an admin key", "role");
          }
          env.rateLimiter().acquire(p.keyId());
          principal = Optional.of(p);
          memory = Optional.of(tenants.computeIfAbsent(p.tenant(), t -> env.root().forTenant(t)));
        }
        reply =
            r.handler()
                .handle(
                    new Call(ctx, principal, memory, env.maxBodyBytes(), env.clock().instant()));
      } catch (Exception | StackOverflowError e) {
        reply =
            errorReply(ctx, ErrorReplies.of(e, Objects.toString(ctx.attribute(REQUEST_ID_ATTR))));
      }
      ctx.attribute(HANDLED_ATTR, true);
      Call.readUnreadBody(ctx, env.maxBodyBytes());
      ReplyWriter.write(ctx, reply.status(), reply.contentType(), reply.body());
    } finally {
      env.metrics()
          .request(r.method().name(), r.path(), ctx.statusCode(), System.nanoTime() - start);
    }
  }

  /** Sends an error reply (404, 405) from Javalin's error handlers. */
  private static void write(Context ctx, ErrorReplies.ErrorReply e, long maxBodyBytes) {
    ctx.attribute(HANDLED_ATTR, true);
    Reply reply = errorReply(ctx, e);
    Call.readUnreadBody(ctx, maxBodyBytes);
    ReplyWriter.write(ctx, reply.status(), reply.contentType(), reply.body());
  }

  /** An error's reply, its headers set on the response and its request id in the body. */
  private static Reply errorReply(Context ctx, ErrorReplies.ErrorReply e) {
    e.headers().forEach(ctx::header);
    e.body().put("request_id", Objects.toString(ctx.attribute(REQUEST_ID_ATTR)));
    ctx.status(e.status());
    return Reply.json(e.status(), e.body());
  }
}
