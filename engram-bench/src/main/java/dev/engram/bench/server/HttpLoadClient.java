package dev.engram.bench.server;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The HTTP side of {@code engram bench server}, run in a JVM of its own ({@link HttpLoadProcess}
 * starts it) so that the client's threads, allocations and JIT do not share the server's JVM. It
 * reads a {@link Setup} line, then one {@link Job} per line on stdin, runs each with {@link
 * KeepAliveHttpClient}s, and answers each with a {@link Result} line on stdout. The connections are
 * kept between jobs (one per client slot), so that a job times requests, not TCP handshakes.
 */
public final class HttpLoadClient {
  static final ObjectMapper JSON = new ObjectMapper();

  /**
   * What every job needs.
   *
   * @param host the server's address
   * @param port its port
   * @param key an API key of the tenant
   * @param queries the search queries, by index
   * @param texts the texts to add, by index
   */
  public record Setup(
      String host, int port, String key, List<String> queries, List<String> texts) {}

  /**
   * Operations {@code from} to {@code to - 1} on {@code clients} concurrent connections.
   *
   * @param op {@code search} ({@code POST /v3/memories/search/}, query {@code i % queries}) or
   *     {@code add} ({@code POST /v1/memories/}, infer=false, text {@code i % texts})
   * @param userId the scope's user id
   * @param topK results per search
   */
  public record Job(
      String op,
      @JsonProperty("user_id") String userId,
      @JsonProperty("top_k") int topK,
      int from,
      int to,
      int clients) {}

  /**
   * What a job took.
   *
   * @param seconds wall time of the whole job
   * @param millis each request's latency, request written to answer read, in the order they
   *     finished
   * @param error the first failure, or null
   * @param answered requests answered (wrk: in its whole run, which may exceed the job's count)
   */
  @SuppressWarnings("ArrayRecordComponent") // a bench result read once, never compared or hashed
  public record Result(double seconds, double[] millis, String error, long answered) {}

  private final Setup setup;
  private final List<KeepAliveHttpClient> connections = new ArrayList<>();

  private HttpLoadClient(Setup setup) {
    this.setup = setup;
  }

  /** Reads the setup and the jobs on stdin until it closes. */
  public static void main(String[] args) throws IOException {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    String first = in.readLine();
    if (first == null) {
      return;
    }
    HttpLoadClient client = new HttpLoadClient(JSON.readValue(first, Setup.class));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      out.println(JSON.writeValueAsString(client.run(JSON.readValue(line, Job.class))));
    }
    for (KeepAliveHttpClient c : client.connections) {
      c.close();
    }
  }

  private Result run(Job job) {
    while (connections.size() < job.clients()) {
      connections.add(new KeepAliveHttpClient(setup.host(), setup.port(), setup.key()));
    }
    double[] millis = new double[job.to() - job.from()];
    AtomicInteger next = new AtomicInteger(job.from());
    AtomicInteger done = new AtomicInteger();
    AtomicReference<String> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    long t0 = System.nanoTime();
    for (int c = 0; c < job.clients(); c++) {
      KeepAliveHttpClient http = connections.get(c);
      Thread t =
          new Thread(
              () -> {
                try {
                  for (int i = next.getAndIncrement();
                      i < job.to() && failure.get() == null;
                      i = next.getAndIncrement()) {
                    byte[] body = body(setup, job, i);
                    long start = System.nanoTime();
                    http.post(path(job), body);
                    millis[done.getAndIncrement()] = (System.nanoTime() - start) / 1e6;
                  }
                } catch (IOException | RuntimeException e) {
                  failure.compareAndSet(null, e.toString());
                }
              },
              "http-load-" + c);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure.compareAndSet(null, "interrupted");
      }
    }
    return new Result((System.nanoTime() - t0) / 1e9, millis, failure.get(), done.get());
  }

  /** The path a job's requests go to. */
  static String path(Job job) {
    return job.op().equals("add") ? "/v1/memories/" : "/v3/memories/search/";
  }

  /** The body of a job's request {@code i}. */
  static byte[] body(Setup setup, Job job, int i) throws IOException {
    ObjectNode body = JSON.createObjectNode();
    if (job.op().equals("add")) {
      body.putArray("messages")
          .addObject()
          .put("role", "user")
          .put("content", setup.texts().get(i % setup.texts().size()));
      body.put("user_id", job.userId());
      body.put("infer", false);
    } else {
      body.put("query", setup.queries().get(i % setup.queries().size()));
      body.putObject("filters").put("user_id", job.userId());
      body.put("top_k", job.topK());
    }
    return JSON.writeValueAsBytes(body);
  }
}
