package dev.engram.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.json.MemoryJson;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The answer to a request Jetty refuses before any route sees it (a request line or headers too
 * long: 414, 431; a request that is not HTTP: 400): the same JSON error body as every other error
 * instead of Jetty's HTML page, and {@code Connection: close}, since Jetty closes such a connection
 * and a client that reused it would lose its next request.
 */
public final class JsonErrorHandler extends ErrorHandler {

  /** Every method gets the JSON body (Jetty's default writes one only for GET, POST and HEAD). */
  @Override
  public boolean errorPageForMethod(String method) {
    return true;
  }

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int code,
      String message,
      Throwable cause,
      Callback callback) {
    String requestId = RequestIds.next();
    ObjectNode body = ErrorReplies.reply(code, describe(code, message), "request", Map.of()).body();
    body.put("request_id", requestId);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, Reply.JSON);
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
    response.getHeaders().put("X-Request-Id", requestId);
    response.write(
        true, ByteBuffer.wrap(MemoryJson.write(body).getBytes(StandardCharsets.UTF_8)), callback);
  }

  private static String describe(int code, String message) {
    String what =
        switch (code) {
          case 414 -> "request URI too long";
          case 431 -> "request header fields too large";
          case 413 -> "request body too large";
          default -> "bad request";
        };
    return message == null || message.isBlank() ? what : what + ": " + message;
  }
}
