package dev.engram.postgres;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * PGlite (PostgreSQL 18 and pgvector 0.8 compiled to WebAssembly) served on 127.0.0.1 for one test
 * JVM: installs the committed lock file of {@code src/test/node} with {@code npm ci}, starts {@code
 * node server.mjs} (an in-memory database, a free port) and stops it when the JVM ends. Node and
 * npm must be installed (.ci/run installs them).
 *
 * <p>PGlite is one PostgreSQL session serving one connection at a time, so {@link #settingsFor}
 * asks for a pool of one connection; each test gets its own schema, as on {@link PostgresCluster}.
 */
public final class PgliteServer {
  private static final Path PROJECT = Path.of("src/test/node").toAbsolutePath();
  private static PgliteServer instance;

  private final Process process;
  private final int port;

  private PgliteServer(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** The server of this JVM, started on first use. */
  public static synchronized PgliteServer get() {
    if (instance == null) {
      instance = start();
      Runtime.getRuntime().addShutdownHook(new Thread(instance::stop, "pglite-stop"));
    }
    return instance;
  }

  /**
   * The JDBC URL: no TLS (PGlite speaks none) and no named server-side statements ({@code
   * prepareThreshold=0}): all connections share PGlite's one session, where two connections'
   * statements {@code S_1} would clash.
   */
  public String url() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?sslmode=disable&prepareThreshold=0";
  }

  /** Settings for {@code dir}'s schema on the pgvector path, pool of one connection. */
  public PostgresSettings settingsFor(Path dir) {
    return PostgresSettings.builder(url())
        .user("postgres")
        .schema(PostgresCluster.schemaFor(dir))
        .poolSize(1)
        .vectors(VectorMode.PGVECTOR)
        .build();
  }

  private static PgliteServer start() {
    try {
      Process npm =
          new ProcessBuilder(
                  "npm", "ci", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts")
              .directory(PROJECT.toFile())
              .redirectErrorStream(true)
              .start();
      String npmOut = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!npm.waitFor(300, TimeUnit.SECONDS) || npm.exitValue() != 0) {
        throw new IllegalStateException("npm ci failed in " + PROJECT + ":\n" + npmOut);
      }
      Process node =
          new ProcessBuilder(List.of("node", "server.mjs"))
              .directory(PROJECT.toFile())
              .redirectErrorStream(true)
              .start();
      BufferedReader out =
          new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
      StringBuilder seen = new StringBuilder();
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith("LISTENING ")) {
          int port = Integer.parseInt(line.substring("LISTENING ".length()).trim());
          Thread drain = new Thread(() -> drain(out), "pglite-output");
          drain.setDaemon(true);
          drain.start();
          return new PgliteServer(node, port);
        }
        seen.append(line).append('\n');
      }
      throw new IllegalStateException("node server.mjs ended before listening:\n" + seen);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start PGlite (are node and npm installed?)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while installing PGlite", e);
    }
  }

  private static void drain(BufferedReader out) {
    try {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        System.err.println("[pglite] " + line);
      }
    } catch (IOException e) {
      // the server ended
    }
  }

  private void stop() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
