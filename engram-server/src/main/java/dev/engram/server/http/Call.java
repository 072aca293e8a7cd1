package dev.engram.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.Memory;
import dev.engram.server.auth.Principal;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * One authenticated request as a route sees it: the caller's principal, the memory of the caller's
 * tenant (the only memory a route can reach), the body read within the size limit, path and query
 * parameters, and the time the request was received (the time of any message that carries none).
 */
public final class Call {
  private final Request request;
  private final Response response;
  private final Map<String, String> pathParams;
  private final Optional<Principal> principal;
  private final Optional<Memory> memory;
  private final long maxBodyBytes;
  private final Instant receivedAt;
  private JsonNode body;
  private org.eclipse.jetty.util.Fields queryParams;

  Call(
      Request request,
      Response response,
      Map<String, String> pathParams,
      Optional<Principal> principal,
      Optional<Memory> memory,
      long maxBodyBytes,
      Instant receivedAt) {
    this.request = request;
    this.response = response;
    this.pathParams = pathParams;
    this.principal = principal;
    this.memory = memory;
    this.maxBodyBytes = maxBodyBytes;
    this.receivedAt = receivedAt;
  }

  /** The caller; present on every route that is not public. */
  public Principal principal() {
    return principal.orElseThrow(
        () -> new IllegalStateException("a public route has no principal"));
  }

  /** The memory of the caller's tenant. */
  public Memory memory() {
    return memory.orElseThrow(() -> new IllegalStateException("a public route has no tenant"));
  }

  public Instant receivedAt() {
    return receivedAt;
  }

  /** A path parameter of the route's template, decoded. */
  public String path(String name) {
    return Objects.requireNonNull(pathParams.get(name), name);
  }

  /** A query parameter's first value; a 400 {@link ApiException} if the query cannot be decoded. */
  public Optional<String> query(String name) {
    try {
      if (queryParams == null) {
        queryParams = Request.extractQueryParameters(request);
      }
      return Optional.ofNullable(queryParams.getValue(name));
    } catch (RuntimeException e) {
      // Jetty's own HttpException variants (an IllegalStateException for bad UTF-8, an
      // IllegalArgumentException for a bad escape).
      if (!(e instanceof HttpException) && !(e instanceof IllegalArgumentException)) {
        throw e;
      }
      throw new ApiException(
          400, "invalid request: the query string is not valid percent-encoded UTF-8", "query");
    }
  }

  /** The address the request was sent to, without its query: scheme, {@code Host} and path. */
  public String url() {
    String host = request.getHeaders().get(HttpHeader.HOST);
    return (host == null ? "" : request.getHttpURI().getScheme() + "://" + host)
        + request.getHttpURI().getPath();
  }

  /** Sets a header of the reply. */
  public void replyHeader(String name, String value) {
    response.getHeaders().put(name, value);
  }

  /**
   * The body as JSON: it must be {@code application/json} (else 415) and at most the size limit
   * (else 413).
   */
  public JsonNode body() {
    if (body == null) {
      checkJsonType();
      body = JsonBodies.parse(readLimited());
    }
    return body;
  }

  /**
   * The body must be JSON: {@code application/json} or an {@code application/...+json} type, in
   * UTF-8 (a charset parameter may only say so).
   */
  private void checkJsonType() {
    String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
    if (type == null || !isJson(type)) {
      throw new ApiException(
          415,
          "unsupported media type: send the body as application/json (UTF-8), got "
              + (type == null ? "no Content-Type" : "'" + type + "'"),
          "Content-Type");
    }
  }

  static boolean isJson(String contentType) {
    String[] parts = contentType.toLowerCase(Locale.ROOT).split(";", -1);
    String media = parts[0].strip();
    if (!media.equals("application/json")
        && !(media.startsWith("application/") && media.endsWith("+json"))) {
      return false;
    }
    for (int i = 1; i < parts.length; i++) {
      String[] param = parts[i].strip().split("=", 2);
      if (param[0].strip().equals("charset")
          && (param.length < 2 || !param[1].strip().replace("\"", "").matches("utf-?8"))) {
        return false;
      }
    }
    return true;
  }

  /** The body as a JSON object. */
  public ObjectNode bodyObject() {
    return Fields.object(body());
  }

  /** The body as a JSON object, or an empty object when the request has no body. */
  public ObjectNode optionalBodyObject() {
    if (body == null) {
      byte[] bytes = readLimited();
      if (bytes.length == 0) {
        return JsonBodies.emptyObject();
      }
      checkJsonType();
      body = JsonBodies.parse(bytes);
    }
    return Fields.object(body);
  }

  private byte[] readLimited() {
    long declared = request.getLength();
    if (declared > maxBodyBytes) {
      throw tooLarge();
    }
    try (InputStream in = Content.Source.asInputStream(request)) {
      byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBodyBytes + 1));
      if (bytes.length > maxBodyBytes) {
        throw tooLarge();
      }
      return bytes;
    } catch (IOException e) {
      throw new ApiException(
          400, "invalid request: the body could not be read: " + e.getMessage(), "body");
    }
  }

  /**
   * Reads the body of a request whose route did not (a GET with a body, a request refused before
   * its body was read) so that a kept-alive connection can carry the next request: answered before
   * its body had arrived, the request would otherwise leave the server to close the connection
   * under a client that is already sending the next one. A body over {@code maxBodyBytes}, of
   * unknown length beyond it, or unreadable is not read: the answer then says {@code Connection:
   * close}, so the client opens a new connection instead. A body the route read whole reads as
   * empty here.
   */
  static void readUnreadBody(Request request, Response response, long maxBodyBytes) {
    boolean chunked = request.getHeaders().get(HttpHeader.TRANSFER_ENCODING) != null;
    long declared = request.getLength();
    if ((declared <= 0 && !chunked)
        || "close".equalsIgnoreCase(response.getHeaders().get(HttpHeader.CONNECTION))) {
      return;
    }
    if (declared <= maxBodyBytes) {
      try (InputStream in = Content.Source.asInputStream(request)) {
        if (in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBodyBytes + 1)).length
            <= maxBodyBytes) {
          return;
        }
      } catch (IOException e) {
        // the rest of the body cannot be read: the connection cannot carry another request, closed
        // below
      }
    }
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
  }

  private ApiException tooLarge() {
    // The rest of the body stays unread, so the connection cannot carry another request: say so, or
    // a client that
    // reuses it would lose its next request.
    return new ApiException(
        413,
        "request body too large: the limit is " + maxBodyBytes + " bytes",
        "body",
        java.util.Map.of("Connection", "close"));
  }
}
