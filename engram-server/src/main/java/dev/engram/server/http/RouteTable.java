package dev.engram.server.http;

import dev.engram.Memory;
import jakarta.servlet.http.HttpServlet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.HttpMethod;

/**
 * Every route of the server, declared once with its access rule and summary, and served by {@link
 * RouteHandler} wrapped in the same steps: authenticate (401), check the role (403), rate-limit the
 * key (429), run, write the reply or the error body, and record the request's metrics under the
 * route's template. The list is also what the OpenAPI test checks the document against.
 */
public final class RouteTable {

  /** A declared route; its path template's parameters are whole segments, such as {@code {id}}. */
  public record Route(
      HttpMethod method, String path, Access access, String summary, ApiHandler handler) {}

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

  public RouteTable get(String path, Access access, String summary, ApiHandler h) {
    return add(HttpMethod.GET, path, access, summary, h);
  }

  public RouteTable post(String path, Access access, String summary, ApiHandler h) {
    return add(HttpMethod.POST, path, access, summary, h);
  }

  public RouteTable put(String path, Access access, String summary, ApiHandler h) {
    return add(HttpMethod.PUT, path, access, summary, h);
  }

  public RouteTable delete(String path, Access access, String summary, ApiHandler h) {
    return add(HttpMethod.DELETE, path, access, summary, h);
  }

  public RouteTable add(
      HttpMethod method, String path, Access access, String summary, ApiHandler h) {
    routes.add(new Route(method, path, access, summary, h));
    return this;
  }

  /** The declared routes, in declaration order. */
  public List<Route> routes() {
    return List.copyOf(routes);
  }

  /**
   * The handler that serves the routes ({@link RouteHandler}), and beside them {@code servlets} by
   * their path specs (e.g. MCP at {@code /mcp/*}).
   */
  public RouteHandler handler(RouteEnv env, Map<String, HttpServlet> servlets) {
    return new RouteHandler(routes(), env, servlets);
  }
}
