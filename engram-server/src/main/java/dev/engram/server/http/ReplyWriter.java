package dev.engram.server.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Sends a reply in one piece: status, headers, {@code Content-Length} and the whole body in a
 * single write, after which the response is complete (a body sent in pieces went out chunked, its
 * last chunk in a second write, so that a client waited for the server's thread to be scheduled
 * again after the body had arrived). A body of at least {@value #MIN_GZIP_BYTES} bytes is
 * compressed with gzip (fastest level) when the client accepts it; the compressed length is known
 * too.
 */
final class ReplyWriter {
  /** The smallest body worth compressing (about one TCP segment). */
  static final int MIN_GZIP_BYTES = 1500;

  private ReplyWriter() {}

  /**
   * Writes the reply to the response and completes {@code done} once it is sent (failed if the
   * client has gone).
   */
  static void write(Request request, Response response, Reply reply, Callback done) {
    byte[] out = reply.body();
    if (out.length >= MIN_GZIP_BYTES
        && acceptsGzip(request.getHeaders().get(HttpHeader.ACCEPT_ENCODING))) {
      out = gzip(out);
      response.getHeaders().put(HttpHeader.CONTENT_ENCODING, "gzip");
    }
    response.getHeaders().add(HttpHeader.VARY, "Accept-Encoding");
    response.setStatus(reply.status());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, reply.contentType());
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, out.length);
    response.write(true, ByteBuffer.wrap(out), done);
  }

  /** Whether an {@code Accept-Encoding} header accepts gzip (named, or {@code *}, and not q=0). */
  static boolean acceptsGzip(String acceptEncoding) {
    if (acceptEncoding == null) {
      return false;
    }
    for (String part : acceptEncoding.toLowerCase(Locale.ROOT).split(",", -1)) {
      String[] coding = part.split(";", -1);
      String name = coding[0].strip();
      if (!name.equals("gzip") && !name.equals("*")) {
        continue;
      }
      boolean refused = false;
      for (int i = 1; i < coding.length; i++) {
        String p = coding[i].strip();
        if (p.startsWith("q=")) {
          refused = p.substring(2).strip().matches("0(\\.0{0,3})?");
        }
      }
      if (!refused) {
        return true;
      }
    }
    return false;
  }

  private static byte[] gzip(byte[] body) {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream(body.length / 4 + 64);
    try (GZIPOutputStream gz = new FastGzip(buffer)) {
      gz.write(body);
    } catch (IOException e) {
      throw new UncheckedIOException("gzip into memory failed", e);
    }
    return buffer.toByteArray();
  }

  /** gzip at the fastest level: most of the gain for JSON at a fraction of the default's time. */
  private static final class FastGzip extends GZIPOutputStream {
    FastGzip(ByteArrayOutputStream out) throws IOException {
      super(out, 8192);
      def.setLevel(Deflater.BEST_SPEED);
    }
  }
}
