package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kept-alive connection stays usable after a request whose body the route does not read (a GET
 * with a body, a request refused before its body is read, a path with no route or no such method),
 * even when the body arrives after the headers: the server reads such a body before answering, so
 * the next request on the connection gets its answer instead of a closed socket. Written against a
 * raw socket, so the timing of the body is the test's, not an HTTP client's.
 */
class KeepAliveTest {
  /** A status line; an answer follows the previous one's body without a line break. */
  private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.1 \\d{3}[^\r\n]*");

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
  void aLateBodyOfARouteThatDoesNotReadItLeavesTheConnectionUsable() throws Exception {
    for (String first :
        List.of(
            "GET /openapi.json",
            "POST /v1/memories/",
            "POST /no/such/route",
            "DELETE /openapi.json")) {
      try (Socket socket = new Socket("127.0.0.1", f.server.port())) {
        socket.setSoTimeout(10_000);
        OutputStream out = socket.getOutputStream();
        byte[] body = "{\"query\": \"late\"}".getBytes(StandardCharsets.UTF_8);
        out.write(
            (first
                    + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Authorization: Token eng_nope_nope\r\nContent-Length: "
                    + body.length
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Thread.sleep(500);
        out.write(body);
        out.write(
            "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();

        StringBuilder raw = new StringBuilder();
        List<String> statusLines = statusLines(socket.getInputStream(), 2, raw);
        assertThat(statusLines)
            .as("answers on one connection after %s with a late body: %s", first, raw)
            .hasSize(2);
        assertThat(statusLines.get(1)).as("the second request's answer").startsWith("HTTP/1.1 200");
      }
    }
  }

  /**
   * Up to {@code n} response status lines read from {@code in}, until it closes or stays silent;
   * all it read to {@code raw}.
   */
  private static List<String> statusLines(InputStream in, int n, StringBuilder raw)
      throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    List<String> lines = new ArrayList<>();
    byte[] buf = new byte[8192];
    try {
      while (lines.size() < n) {
        int r = in.read(buf);
        if (r < 0) {
          break;
        }
        all.write(buf, 0, r);
        lines.clear();
        Matcher m = STATUS_LINE.matcher(all.toString(StandardCharsets.ISO_8859_1));
        while (m.find()) {
          lines.add(m.group());
        }
      }
    } catch (SocketTimeoutException e) {
      // silent: return what came
    }
    raw.append(all.toString(StandardCharsets.ISO_8859_1));
    return lines;
  }
}
