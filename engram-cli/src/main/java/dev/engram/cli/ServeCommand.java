package dev.engram.cli;

import dev.engram.Memory;
import dev.engram.ValidationException;
import dev.engram.server.EngramServer;
import dev.engram.server.ServerSettings;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code engram serve}: mem0's REST APIs over the data directory until SIGTERM or Ctrl-C, which
 * stop it gracefully (in-flight requests and running adds finish, queued adds stay pending for the
 * next start, the index is committed) and exit with 0 ({@link TerminationSignals}). Prints {@code
 * listening on http://HOST:PORT} on stdout once it accepts requests.
 */
@Command(
    name = "serve",
    description = "Serve mem0's REST APIs (hosted and self-hosted) over the data directory.")
final class ServeCommand extends BaseCommand {
  @Option(
      names = "--host",
      paramLabel = "HOST",
      description = "Address to bind (default 127.0.0.1).")
  String host;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "TCP port (default 8765; 0 picks a free one).")
  Integer port;

  @Option(
      names = "--max-body-bytes",
      paramLabel = "N",
      description =
          "Largest request body (default 8 MiB: room for a message at the default text limit of 1 MiB characters).")
  Long maxBodyBytes;

  @Option(
      names = "--rate-limit",
      paramLabel = "N",
      description = "Requests per minute per key (default 0: off).")
  Integer rateLimit;

  @Option(
      names = "--insecure-no-auth",
      description =
          "Serve without API keys (loopback addresses only): every"
              + " request acts as an admin of the 'default' tenant.")
  boolean insecureNoAuth;

  @Override
  protected int run() throws InterruptedException {
    ServerSettings.Builder b =
        ServerSettingsReader.read(System.getenv(), Path.of("").toAbsolutePath());
    if (host != null) {
      b.host(host);
    }
    if (port != null) {
      b.port(port);
    }
    if (maxBodyBytes != null) {
      b.maxBodyBytes(maxBodyBytes);
    }
    if (rateLimit != null) {
      b.rateLimitPerMinute(rateLimit);
    }
    ServerSettings settings = b.insecureNoAuth(insecureNoAuth).build();
    if (settings.insecureNoAuth() && !settings.loopbackOnly()) {
      throw new ValidationException(
          "insecure-no-auth",
          "is allowed only on a loopback address, not on '" + settings.host() + "'");
    }
    Path dir = dataDir();
    ServerStores stores = ServerStores.open(settings(), dir, System.getenv(), clock());
    Memory memory;
    boolean anyKey;
    try {
      anyKey = stores.keys().list().stream().anyMatch(k -> k.active());
      if (!settings.insecureNoAuth() && !anyKey && !settings.loopbackOnly()) {
        throw new ValidationException(
            "host",
            "refusing to listen on '"
                + settings.host()
                + "' without API keys;"
                + " create one with: engram keys create --tenant NAME --admin --data-dir "
                + dir);
      }
      // (EngramServer checks the same; checking here first avoids opening the memory for nothing.)
      memory = openMemory(true);
    } catch (RuntimeException e) {
      stores.close();
      throw e;
    }
    EngramServer server;
    try {
      server = ServerAssembly.build(memory, settings, stores.keys(), stores.events()).start();
    } catch (RuntimeException e) {
      memory.close();
      stores.close();
      throw e;
    }
    GracefulStop stop = new GracefulStop(server, memory, stores);
    CountDownLatch stopRequested = new CountDownLatch(1);
    TerminationSignals.install(stopRequested::countDown);
    // Any other way the JVM ends (System.exit elsewhere, SIGHUP) still stops gracefully.
    Runtime.getRuntime().addShutdownHook(new Thread(stop::run, "engram-serve-shutdown"));
    out().println("listening on http://" + settings.host() + ":" + server.port());
    if (!settings.insecureNoAuth() && !anyKey) {
      err()
          .println(
              "engram serve: no API keys yet; every request gets 401 until you create one with: engram keys"
                  + " create --tenant NAME --admin");
    }
    out().flush();
    err().flush();
    stopRequested.await();
    stop.run();
    return EXIT_OK;
  }

  /**
   * Stops the server, then closes the memory and the key and event stores; once, whoever calls
   * first, and later callers wait.
   */
  private static final class GracefulStop {
    private final EngramServer server;
    private final Memory memory;
    private final ServerStores stores;
    private boolean done;

    GracefulStop(EngramServer server, Memory memory, ServerStores stores) {
      this.server = server;
      this.memory = memory;
      this.stores = stores;
    }

    synchronized void run() {
      if (done) {
        return;
      }
      done = true;
      try {
        server.close();
      } finally {
        try {
          memory.close();
        } finally {
          stores.close();
        }
      }
    }
  }
}
