package dev.engram.server.api;

import dev.engram.server.http.Access;
import dev.engram.server.http.ApiException;
import dev.engram.server.http.Call;
import dev.engram.server.http.Reply;
import dev.engram.server.http.RouteTable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The web console: three static files inside the jar (no build step, no external resources), served
 * at {@code /} with a Content-Security-Policy that lets the page talk to its own origin only. The
 * console uses only the public REST API, with the API key the user signs in with.
 */
public final class ConsoleApi {
  /** Everything the page may load or call: its own origin. */
  public static final String CONTENT_SECURITY_POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self';"
          + " img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none';"
          + " form-action 'self'; frame-ancestors 'none'";

  private static final Map<String, String> FILES =
      Map.of(
          "index.html", "text/html; charset=utf-8",
          "app.js", "text/javascript; charset=utf-8",
          "app.css", "text/css; charset=utf-8");

  public void register(RouteTable t) {
    t.get("/", Access.PUBLIC, "The web console", c -> file(c, "index.html"));
    t.get(
        "/console/{file}",
        Access.PUBLIC,
        "The web console's script and style sheet",
        c -> file(c, c.path("file")));
  }

  private static Reply file(Call c, String name) {
    String type = FILES.get(name);
    if (type == null) {
      throw ApiException.notFound("console file");
    }
    c.replyHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    c.replyHeader("X-Content-Type-Options", "nosniff");
    c.replyHeader("Referrer-Policy", "no-referrer");
    c.replyHeader("Cache-Control", "no-cache");
    return new Reply(200, type, read(name));
  }

  private static String read(String name) {
    try (InputStream in =
        ConsoleApi.class.getResourceAsStream("/dev/engram/server/console/" + name)) {
      if (in == null) {
        throw new IllegalStateException("console/" + name + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
