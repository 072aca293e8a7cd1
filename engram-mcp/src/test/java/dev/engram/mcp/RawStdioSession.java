package dev.engram.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A stdio MCP server child process driven with raw JSON-RPC lines, to test what an SDK client never
 * sends (malformed frames, chosen protocol versions, a client that goes away mid-call). Every line
 * the server writes to stdout is kept; lines that are not JSON are collected separately so tests
 * can assert there are none.
 */
final class RawStdioSession implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final OutputStream stdin;
  private final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();
  private final List<String> nonJsonLines = new CopyOnWriteArrayList<>();

  RawStdioSession(List<String> command) throws IOException {
    process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    stdin = process.getOutputStream();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  try {
                    messages.add(JSON.readTree(line));
                  } catch (IOException e) {
                    nonJsonLines.add(line);
                  }
                }
              } catch (IOException e) {
                nonJsonLines.add("stdout failed: " + e);
              }
            },
            "raw-stdio-reader");
    reader.setDaemon(true);
    reader.start();
  }

  void send(String line) throws IOException {
    stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  /** The next message the server wrote, waiting up to 60 s. */
  JsonNode next() throws InterruptedException {
    JsonNode n = messages.poll(60, TimeUnit.SECONDS);
    if (n == null) {
      throw new AssertionError(
          "no message from the server within 60 s; non-JSON lines: " + nonJsonLines);
    }
    return n;
  }

  /** The response with this id, skipping notifications. */
  JsonNode response(int id) throws InterruptedException {
    while (true) {
      JsonNode n = next();
      if (n.has("id") && n.get("id").asInt() == id) {
        return n;
      }
    }
  }

  /**
   * Sends initialize with a protocol version and the initialized notification; returns the
   * initialize result.
   */
  JsonNode initialize(String protocolVersion) throws Exception {
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
            + protocolVersion
            + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
    JsonNode result = response(1);
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    return result;
  }

  List<String> nonJsonLines() {
    return nonJsonLines;
  }

  /**
   * Closes stdin (the client goes away) and waits for the process to end; returns its exit code.
   */
  int closeInputAndWait() throws Exception {
    stdin.close();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the server did not exit within 60 s after stdin closed");
    }
    return process.exitValue();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  @Override
  public void close() throws Exception {
    if (process.isAlive()) {
      closeInputAndWait();
    }
  }
}
