package dev.engram.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;

/**
 * A throwaway PostgreSQL 15 cluster for one test JVM: {@code initdb} into a temporary directory,
 * {@code pg_ctl start} listening on 127.0.0.1 on a free port, stopped and deleted by a shutdown
 * hook when the JVM ends. Started once, on first use, and shared by every test class of the module
 * run. PostgreSQL refuses to run as root, so under root (CI) the server runs as the system user
 * {@code postgres} (Debian's package creates it) through {@code runuser}.
 *
 * <p>The binaries come from {@code /usr/lib/postgresql/15/bin} (Debian's {@code postgresql-15},
 * which {@code .ci/run} installs) or the directory in {@code ENGRAM_PG_BIN}; the pgvector path's
 * tests also need the {@code vector} extension in that installation ({@code
 * scripts/install-pgvector.sh}, which {@code .ci/run} runs). Each test gets its own schema ({@link
 * #settingsFor}, {@link #pgvectorSettingsFor}), so tests never see each other's rows. TCP
 * connections authenticate with {@link #PASSWORD} (scram-sha-256). The server runs with {@code
 * fsync=off} for speed: the crash tests kill the Engram process, not PostgreSQL.
 */
public final class PostgresCluster {
  /** The superuser's password (TCP connections need it; the cluster's own socket trusts). */
  public static final String PASSWORD = "engram-test-pw";

  private static final String DATABASE = "engram";
  private static PostgresCluster instance;

  private final Path root;
  private final int port;
  private final List<String> asUser;
  private final Path bin;
  private boolean pgvectorChecked;

  private PostgresCluster(Path root, int port, List<String> asUser, Path bin) {
    this.root = root;
    this.port = port;
    this.asUser = asUser;
    this.bin = bin;
  }

  /** The cluster of this JVM, started on first use. */
  public static synchronized PostgresCluster get() {
    if (instance == null) {
      instance = start();
      Runtime.getRuntime().addShutdownHook(new Thread(instance::stop, "postgres-cluster-stop"));
    }
    return instance;
  }

  /** The JDBC URL of the test database. */
  public String url() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
  }

  /**
   * Settings for the schema that belongs to {@code dir} (the same directory always gets the same
   * schema), on the plain-array vector path ({@link VectorMode#ARRAY}) whether or not the server
   * offers pgvector, so that the tests built on them cover that path; {@link #pgvectorSettingsFor}
   * is the pgvector path.
   */
  public PostgresSettings settingsFor(Path dir) {
    return PostgresSettings.builder(url())
        .user("postgres")
        .password(PASSWORD)
        .schema(schemaFor(dir))
        .poolSize(6)
        .vectors(VectorMode.ARRAY)
        .build();
  }

  /**
   * Settings for {@code dir}'s schema on the pgvector path ({@link VectorMode#PGVECTOR}), with the
   * same pool as {@link #settingsFor}.
   *
   * @throws IllegalStateException if this PostgreSQL 15 does not offer the {@code vector}
   *     extension, naming the script that installs it
   */
  public PostgresSettings pgvectorSettingsFor(Path dir) {
    requirePgvector();
    return settingsFor(dir).toBuilder().vectors(VectorMode.PGVECTOR).build();
  }

  /**
   * Fails unless the server offers the {@code vector} extension (pgvector), for tests that need the
   * pgvector path.
   *
   * @throws IllegalStateException naming {@code scripts/install-pgvector.sh} if it does not
   */
  public synchronized void requirePgvector() {
    if (pgvectorChecked) {
      return;
    }
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT count(*) FROM pg_available_extensions WHERE name = 'vector'")) {
      rs.next();
      if (rs.getLong(1) == 0) {
        throw new IllegalStateException(
            "PostgreSQL 15 in "
                + bin.getParent()
                + " does not offer the 'vector'"
                + " extension (pgvector): run scripts/install-pgvector.sh as root, as .ci/run does (it builds pgvector"
                + " 0.8.0 from Debian's source package)");
      }
      pgvectorChecked = true;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot ask the test cluster for the vector extension", e);
    }
  }

  /**
   * The type of {@code schema.memories.embedding_vector}, the column the pgvector path adds (such
   * as {@code vector(64)}); empty if the schema has none (the plain-array path).
   */
  public Optional<String> vectorColumnType(String schema) throws SQLException {
    try (Connection c = connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT format_type(a.atttypid,"
                    + " a.atttypmod) FROM pg_attribute a JOIN pg_class t ON t.oid = a.attrelid JOIN pg_namespace n"
                    + " ON n.oid = t.relnamespace WHERE n.nspname = ? AND t.relname = 'memories'"
                    + " AND a.attname = 'embedding_vector' AND NOT a.attisdropped")) {
      ps.setString(1, schema);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next()
            ? Optional.of(rs.getString(1).replaceFirst("^.*\\.", ""))
            : Optional.empty();
      }
    }
  }

  /** The schema of {@code dir}'s tests: {@code t_} and 20 hex digits of a hash of the path. */
  public static String schemaFor(Path dir) {
    try {
      byte[] d =
          MessageDigest.getInstance("SHA-256")
              .digest(dir.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8));
      return "t_" + HexFormat.of().formatHex(d, 0, 10);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Creates {@code schema} and migrates it with Engram's own migrations up to {@code version} only:
   * the schema an older Engram left, for an upgrade test.
   */
  public void migrateTo(String schema, String version) {
    Flyway.configure()
        .dataSource(url(), "postgres", PASSWORD)
        .schemas(schema)
        .defaultSchema(schema)
        .createSchemas(true)
        .locations("classpath:dev/engram/postgres/migration")
        .target(version)
        .load()
        .migrate();
  }

  /** A plain JDBC connection to the test database, as the superuser. */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url(), "postgres", PASSWORD);
  }

  private static PostgresCluster start() {
    Path bin = Path.of(System.getenv().getOrDefault("ENGRAM_PG_BIN", "/usr/lib/postgresql/15/bin"));
    if (!Files.isExecutable(bin.resolve("initdb"))) {
      throw new IllegalStateException(
          "PostgreSQL 15 is not installed: "
              + bin.resolve("initdb")
              + " is missing"
              + " (apt-get install postgresql-15, as .ci/run does, or set ENGRAM_PG_BIN)");
    }
    try {
      Path root = Files.createTempDirectory("engram-pg-");
      List<String> asUser = List.of();
      if ("root".equals(System.getProperty("user.name"))) {
        asUser = List.of("runuser", "-u", "postgres", "--");
        run(List.of("chown", "-R", "postgres", root.toString()), List.of());
      }
      Path data = root.resolve("data");
      Path pwfile = root.resolve("pwfile");
      Files.writeString(pwfile, PASSWORD + "\n");
      if (!asUser.isEmpty()) {
        run(List.of("chown", "postgres", pwfile.toString()), List.of());
      }
      run(
          List.of(
              bin.resolve("initdb").toString(),
              "-D",
              data.toString(),
              "-U",
              "postgres",
              "--auth-local=trust",
              "--auth-host=scram-sha-256",
              "--pwfile=" + pwfile,
              "-E",
              "UTF8",
              "--locale=C"),
          asUser);
      int port = freePort();
      run(
          List.of(
              bin.resolve("pg_ctl").toString(),
              "-D",
              data.toString(),
              "-l",
              root.resolve("server.log").toString(),
              "-w",
              "-t",
              "60",
              "-o",
              "-p "
                  + port
                  + " -c listen_addresses=127.0.0.1 -k "
                  + root
                  + " -c fsync=off -c max_connections=300 -c shared_buffers=32MB",
              "start"),
          asUser);
      PostgresCluster cluster = new PostgresCluster(root, port, asUser, bin);
      try (Connection c =
              DriverManager.getConnection(
                  "jdbc:postgresql://127.0.0.1:" + port + "/postgres", "postgres", PASSWORD);
          Statement s = c.createStatement()) {
        s.execute("CREATE DATABASE " + DATABASE);
      }
      return cluster;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (SQLException e) {
      throw new IllegalStateException("the test cluster started but refuses connections", e);
    }
  }

  private void stop() {
    try {
      run(
          List.of(
              bin.resolve("pg_ctl").toString(),
              "-D",
              root.resolve("data").toString(),
              "-m",
              "fast",
              "-w",
              "stop"),
          asUser);
    } catch (RuntimeException e) {
      System.err.println("could not stop the test PostgreSQL cluster: " + e.getMessage());
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      System.err.println("could not delete " + root + ": " + e.getMessage());
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      return s.getLocalPort();
    }
  }

  private static void run(List<String> command, List<String> prefix) {
    List<String> full = new ArrayList<>(prefix);
    full.addAll(command);
    try {
      Process p =
          new ProcessBuilder(full)
              .redirectErrorStream(true)
              .directory(Path.of("/tmp").toFile())
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", full) + " failed:\n" + out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command.get(0), e);
    }
  }
}
