package dev.engram.bench.server;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The least an HTTP/1.1 client can do, so that a benchmark times the server and not its client: one
 * kept-alive connection, {@code TCP_NODELAY}, each request written in one piece (headers and body
 * together), and the answer read whole (by {@code Content-Length} or chunked) but not parsed. A new
 * connection is opened when the server closed the last one. Not thread-safe: one per client thread.
 */
final class KeepAliveHttpClient implements Closeable {
  private static final int TIMEOUT_MILLIS = 120_000;

  /**
   * A connection idle for longer is opened anew before the next request: Jetty closes one idle for
   * 30 s (its default), and a request sent just as it does would be lost (an ONNX run's in-process
   * blocks leave the connections idle that long on a loaded machine).
   */
  private static final long MAX_IDLE_NANOS = 10_000_000_000L;

  private long lastUsed;

  private final String host;
  private final int port;
  private final byte[] fixedHeaders;
  private Socket socket;
  private InputStream in;
  private OutputStream out;

  /**
   * @param host the server's address
   * @param port its port
   * @param token the API key, sent as {@code Authorization: Token <key>}
   */
  KeepAliveHttpClient(String host, int port, String token) {
    this.host = host;
    this.port = port;
    this.fixedHeaders =
        ("Host: "
                + host
                + ":"
                + port
                + "\r\nAuthorization: Token "
                + token
                + "\r\nContent-Type: application/json\r\n")
            .getBytes(StandardCharsets.US_ASCII);
  }

  /** Posts a JSON body; the answer's body, or an {@link IOException} if the status is not 200. */
  byte[] post(String path, byte[] body) throws IOException {
    connect();
    ByteArrayOutputStream request = new ByteArrayOutputStream(256 + body.length);
    request.writeBytes(("POST " + path + " HTTP/1.1\r\n").getBytes(StandardCharsets.US_ASCII));
    request.writeBytes(fixedHeaders);
    request.writeBytes(
        ("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    request.writeBytes(body);
    out.write(request.toByteArray());
    out.flush();
    String status = line();
    long length = -1;
    boolean chunked = false;
    boolean close = false;
    for (String h = line(); !h.isEmpty(); h = line()) {
      int colon = h.indexOf(':');
      String name = h.substring(0, colon).strip().toLowerCase(Locale.ROOT);
      String value = h.substring(colon + 1).strip();
      switch (name) {
        case "content-length" -> length = Long.parseLong(value);
        case "transfer-encoding" -> chunked = value.equalsIgnoreCase("chunked");
        case "connection" -> close = value.equalsIgnoreCase("close");
        default -> {}
      }
    }
    byte[] answer = chunked ? chunked() : in.readNBytes((int) Math.max(0, length));
    if (close) {
      close();
    }
    if (!status.startsWith("HTTP/1.1 200")) {
      throw new IOException(
          "POST "
              + path
              + " answered "
              + status
              + ": "
              + new String(answer, StandardCharsets.UTF_8));
    }
    return answer;
  }

  private void connect() throws IOException {
    long now = System.nanoTime();
    if (socket != null && now - lastUsed > MAX_IDLE_NANOS) {
      close();
    }
    lastUsed = now;
    if (socket != null) {
      return;
    }
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.setSoTimeout(TIMEOUT_MILLIS);
    socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
    in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
    out = socket.getOutputStream();
  }

  private byte[] chunked() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String size = line();
      int semicolon = size.indexOf(';');
      int n = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).strip(), 16);
      if (n == 0) {
        for (String trailer = line(); !trailer.isEmpty(); trailer = line()) {
          // trailers are not used
        }
        return body.toByteArray();
      }
      body.writeBytes(in.readNBytes(n));
      line();
    }
  }

  /** One line without its CRLF. */
  private String line() throws IOException {
    StringBuilder b = new StringBuilder(64);
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        throw new IOException("the server closed the connection mid-answer");
      }
      if (c != '\r') {
        b.append((char) c);
      }
    }
    return b.toString();
  }

  @Override
  public void close() throws IOException {
    if (socket != null) {
      try {
        socket.close();
      } finally {
        socket = null;
      }
    }
  }
}
