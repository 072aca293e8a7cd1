package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.server.auth.KeyRole;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every answer goes out whole with its length: never chunked, whatever its size, so that the client
 * has the answer with the body's last byte and does not wait for a terminating chunk the server
 * sends once its request has finished. A client that accepts gzip gets a large body compressed,
 * with the compressed length.
 */
class OnePieceReplyTest {
  @TempDir Path dir;
  ServerFixture f;

  @BeforeEach
  void start() {
    f = new ServerFixture(dir);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  @Test
  void aLargeAnswerHasItsLengthAndIsNotChunked() throws Exception {
    String key = f.key("acme", KeyRole.MEMBER).secret();
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 400; i++) {
      text.append("The user went hiking in the Alps with a friend, day ").append(i).append(". ");
    }
    String add =
        "{\"messages\":[{\"role\":\"user\",\"content\":\""
            + text
            + "\"}],\"user_id\":\"u\",\"infer\":false}";
    assertThat(f.call("POST", "/v1/memories/", key, add).status()).isEqualTo(200);
    String search =
        "{\"query\":\"hiking in the Alps\",\"filters\":{\"user_id\":\"u\"},\"threshold\":0,"
            + "\"top_k\":100}"; // every passage of the long message

    RawAnswer plain = post(key, "/v3/memories/search/", search, null);
    assertThat(plain.head()).startsWith("HTTP/1.1 200");
    assertThat(plain.header("transfer-encoding")).isNull();
    assertThat(plain.body().length).isGreaterThan(16 * 1024); // over Jetty's aggregation buffer
    assertThat(plain.header("content-length")).isEqualTo(String.valueOf(plain.body().length));
    assertThat(new String(plain.body(), StandardCharsets.UTF_8)).contains("hiking in the Alps");

    RawAnswer gzip = post(key, "/v3/memories/search/", search, "gzip, deflate");
    assertThat(gzip.header("transfer-encoding")).isNull();
    assertThat(gzip.header("content-encoding")).isEqualTo("gzip");
    assertThat(gzip.header("content-length")).isEqualTo(String.valueOf(gzip.body().length));
    assertThat(gzip.body().length).isLessThan(plain.body().length / 4);
    try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(gzip.body()))) {
      assertThat(in.readAllBytes()).isEqualTo(plain.body());
    }
  }

  @Test
  void smallAnswersAndErrorsAreSentPlainWithTheirLength() throws Exception {
    HttpResponse<String> r =
        f.http.send(
            HttpRequest.newBuilder(URI.create(f.base() + "/no/such/route"))
                .header("Accept-Encoding", "gzip")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(r.headers().firstValue("Content-Encoding")).isEmpty();
    assertThat(r.headers().firstValue("Content-Length"))
        .hasValue(String.valueOf(r.body().getBytes(StandardCharsets.UTF_8).length));
    assertThat(r.body()).contains("not found").contains("request_id");
  }

  /** An answer as it came over the socket: status line and headers, and the body's bytes. */
  private record RawAnswer(String head, byte[] body) {
    String header(String name) {
      for (String line : head.split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).strip().toLowerCase(Locale.ROOT).equals(name)) {
          return line.substring(colon + 1).strip();
        }
      }
      return null;
    }
  }

  /**
   * Posts over a raw socket and reads the answer until the server closes the connection, so that
   * the framing is seen as sent.
   */
  private RawAnswer post(String key, String path, String json, String acceptEncoding)
      throws IOException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    try (Socket socket = new Socket("127.0.0.1", f.server.port())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST "
                  + path
                  + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                  + "Content-Type: application/json\r\nAuthorization: Token "
                  + key
                  + "\r\n"
                  + (acceptEncoding == null ? "" : "Accept-Encoding: " + acceptEncoding + "\r\n")
                  + "Content-Length: "
                  + body.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      socket.getInputStream().transferTo(all);
      byte[] bytes = all.toByteArray();
      int end = new String(bytes, StandardCharsets.ISO_8859_1).indexOf("\r\n\r\n");
      return new RawAnswer(
          new String(bytes, 0, end, StandardCharsets.ISO_8859_1),
          java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length));
    }
  }
}
