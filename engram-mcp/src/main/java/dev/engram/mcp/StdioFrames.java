package dev.engram.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stdio protocol streams between the process's stdin/stdout and the SDK's stdio transport.
 *
 * <p>Guards the input: the SDK's stdio server ends the session at the first line that is not a
 * JSON-RPC message, so this stream passes on only lines that parse as one (with the SDK's own
 * parser) and answers every other line itself with a JSON-RPC parse error (code -32700), so a bad
 * frame costs one error and the session stays up. Lines longer than the limit are refused the same
 * way without being held in memory. Signals {@link #ended()} when stdin ends.
 *
 * <p>Counts requests read and responses written, so that after stdin ends the server can wait for
 * every request it read to be answered ({@link #awaitAnswered}) before it closes: a client that
 * pipes its requests and closes stdin still gets its answers, and a call that has started is never
 * cut short by closing the memory under it.
 */
final class StdioFrames extends InputStream {
  static final int PARSE_ERROR = -32700;
  private static final Logger LOG = LoggerFactory.getLogger(StdioFrames.class);

  private final InputStream in;
  private final LineWriter out;
  private final Object answeredLock = new Object();
  private int unanswered;
  private final McpJsonMapper mapper;
  private final int maxLineBytes;
  private final long drainMillis;
  private final CountDownLatch ended = new CountDownLatch(1);
  private byte[] current = new byte[0];
  private int position;
  private boolean eof;

  StdioFrames(
      InputStream in, OutputStream out, McpJsonMapper mapper, int maxLineBytes, long drainMillis) {
    this.drainMillis = drainMillis;
    this.in = in;
    this.out = new LineWriter(out);
    this.mapper = mapper;
    this.maxLineBytes = maxLineBytes;
  }

  /** The protocol output to hand to the transport. */
  OutputStream output() {
    return out;
  }

  /**
   * Waits until every request read so far has been answered, up to {@code timeoutMillis}; true if
   * so.
   */
  boolean awaitAnswered(long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    synchronized (answeredLock) {
      while (unanswered > 0) {
        long left = (deadline - System.nanoTime()) / 1_000_000L;
        if (left <= 0) {
          return false;
        }
        answeredLock.wait(left);
      }
      return true;
    }
  }

  private void counted(int delta) {
    synchronized (answeredLock) {
      unanswered = Math.max(0, unanswered + delta);
      answeredLock.notifyAll();
    }
  }

  /** Counted down when the input has ended (or failed). */
  CountDownLatch ended() {
    return ended;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (position >= current.length) {
      if (eof || !nextFrame()) {
        return -1;
      }
    }
    int n = Math.min(len, current.length - position);
    System.arraycopy(current, position, b, off, n);
    position += n;
    return n;
  }

  /** Reads lines until one is a JSON-RPC message; false at the end of the input. */
  private boolean nextFrame() throws IOException {
    while (true) {
      Line line;
      try {
        line = readLine();
      } catch (IOException e) {
        eof = true;
        ended.countDown();
        throw e;
      }
      if (line == null) {
        eof = true;
        ended.countDown();
        // Hold the SDK's reader here until the requests already read are answered: at end of input
        // the SDK closes
        // the session, which would drop their responses.
        try {
          if (!awaitAnswered(drainMillis)) {
            LOG.warn(
                "stdin closed; requests still unanswered after {} ms, closing anyway", drainMillis);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return false;
      }
      if (line.tooLong) {
        reject("Parse error: the message is longer than " + maxLineBytes + " bytes");
        continue;
      }
      String text = new String(line.bytes, StandardCharsets.UTF_8);
      if (text.isBlank()) {
        continue;
      }
      McpSchema.JSONRPCMessage message;
      try {
        message = McpSchema.deserializeJsonRpcMessage(mapper, text);
      } catch (IOException | RuntimeException e) {
        reject("Parse error: not a JSON-RPC message");
        continue;
      }
      if (message instanceof McpSchema.JSONRPCRequest) {
        counted(1);
      }
      current = (text.strip() + "\n").getBytes(StandardCharsets.UTF_8);
      position = 0;
      return true;
    }
  }

  private void reject(String message) throws IOException {
    LOG.warn("stdin: {}; answered with a parse error", message);
    // JSON-RPC 2.0 §5: a parse error has a null id (the SDK's response type refuses one, so a map
    // is written)
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("jsonrpc", McpSchema.JSONRPC_VERSION);
    response.put("id", null);
    response.put("error", new JSONRPCResponse.JSONRPCError(PARSE_ERROR, message));
    out.writeLine(mapper.writeValueAsBytes(response));
  }

  // A frame read off stdin, handed on once and never compared by equals.
  @SuppressWarnings("ArrayRecordComponent")
  private record Line(byte[] bytes, boolean tooLong) {}

  private Line readLine() throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    boolean tooLong = false;
    int c;
    boolean any = false;
    while ((c = in.read()) >= 0) {
      any = true;
      if (c == '\n') {
        return new Line(buf.toByteArray(), tooLong);
      }
      if (buf.size() < maxLineBytes) {
        buf.write(c);
      } else {
        tooLong = true;
      }
    }
    return any ? new Line(buf.toByteArray(), tooLong) : null;
  }

  /**
   * The protocol output: whole lines only, one writer at a time, so the SDK's frames and this
   * class's error frames never interleave. Bytes are buffered until a newline.
   */
  final class LineWriter extends OutputStream {
    private final OutputStream out;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    LineWriter(OutputStream out) {
      this.out = out;
    }

    @Override
    public synchronized void write(int b) throws IOException {
      pending.write(b);
      if (b == '\n') {
        flushLine();
      }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
      for (int i = off; i < off + len; i++) {
        pending.write(b[i]);
        if (b[i] == '\n') {
          flushLine();
        }
      }
    }

    /** Writes one complete frame and a newline. */
    synchronized void writeLine(byte[] frame) throws IOException {
      // straight to the output: a partial SDK line waiting in the buffer is written later, whole
      out.write(frame);
      out.write('\n');
      out.flush();
    }

    @Override
    public synchronized void flush() throws IOException {
      out.flush();
    }

    private void flushLine() throws IOException {
      byte[] line = pending.toByteArray();
      pending.reset();
      try {
        out.write(line);
        out.flush();
      } catch (IOException e) {
        // the client is gone: nobody is left to answer
        synchronized (answeredLock) {
          unanswered = 0;
          answeredLock.notifyAll();
        }
        throw e;
      }
      if (isResponse(line)) {
        counted(-1);
      }
    }

    private boolean isResponse(byte[] line) {
      try {
        return McpSchema.deserializeJsonRpcMessage(
                mapper, new String(line, StandardCharsets.UTF_8).strip())
            instanceof JSONRPCResponse;
      } catch (IOException | RuntimeException e) {
        return false;
      }
    }
  }
}
