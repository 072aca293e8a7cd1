package dev.engram.cli;

import dev.engram.Memory;
import dev.engram.ValidationException;
import dev.engram.server.EngramServer;
import dev.engram.server.ServerSettings;
import dev.engram.server.store.ServerDatabase;
import dev.engram.server.store.SqliteAddEventStore;
import dev.engram.server.store.SqliteApiKeyStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code engram serve}: mem0's REST APIs over the data directory until SIGTERM or Ctrl-C, which stop it gracefully
 * (in-flight requests and running adds finish, queued adds stay pending for the next start, the index is committed).
 * Prints {@code listening on http://HOST:PORT} on stdout once it accepts requests.
 */
@Command(name = "serve", description = "Serve mem0's REST APIs (hosted and self-hosted) over the data directory.")
final class ServeCommand extends BaseCommand {
  @Option(names = "--host", paramLabel = "HOST", description = "Address to bind (default 127.0.0.1).")
  String host;

  @Option(names = "--port", paramLabel = "PORT", description = "TCP port (default 8765; 0 picks a free one).")
  Integer port;

  @Option(names = "--max-body-bytes", paramLabel = "N", description = "Largest request body (default 1 MiB).")
  Long maxBodyBytes;

  @Option(names = "--rate-limit", paramLabel = "N", description = "Requests per minute per key (default 0: off).")
  Integer rateLimit;

  @Option(names = "--insecure-no-auth", description = "Serve without API keys (loopback addresses only): every"
      + " request acts as an admin of the 'default' tenant.")
  boolean insecureNoAuth;

  @Override
  protected int run() throws InterruptedException {
    ServerSettings.Builder b = ServerSettingsReader.read(System.getenv(), Path.of("").toAbsolutePath());
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
      throw new ValidationException("insecure-no-auth", "is allowed only on a loopback address, not on '"
          + settings.host() + "'");
    }
    Path dir = dataDir();
    ServerDatabase db = ServerDatabase.open(dir);
    SqliteApiKeyStore keys = new SqliteApiKeyStore(db, Clock.systemUTC(), false);
    boolean anyKey = keys.list().stream().anyMatch(k -> k.active());
    if (!settings.insecureNoAuth() && !anyKey && !settings.loopbackOnly()) {
      db.close();
      throw new ValidationException("host", "refusing to listen on '" + settings.host() + "' without API keys;"
          + " create one with: engram keys create --tenant NAME --admin --data-dir " + dir);
    }
    // (EngramServer checks the same; checking here first avoids opening the memory for nothing.)
    Memory memory = openMemory(true);
    SqliteAddEventStore events = new SqliteAddEventStore(db, false);
    EngramServer server;
    try {
      server = ServerAssembly.build(memory, settings, keys, events).start();
    } catch (RuntimeException e) {
      memory.close();
      db.close();
      throw e;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        server.close();
      } finally {
        try {
          memory.close();
        } finally {
          db.close();
          stopped.countDown();
        }
      }
    }, "engram-serve-shutdown"));
    out().println("listening on http://" + settings.host() + ":" + server.port());
    if (!settings.insecureNoAuth() && !anyKey) {
      err().println("engram serve: no API keys yet; every request gets 401 until you create one with: engram keys"
          + " create --tenant NAME --admin");
    }
    out().flush();
    err().flush();
    stopped.await();
    return EXIT_OK;
  }
}
