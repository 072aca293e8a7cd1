package dev.engram.neo4j;

import dev.engram.ValidationException;
import java.util.Map;
import java.util.Objects;

/**
 * Where the Neo4j graph store connects: a Bolt or Neo4j URI, credentials and the database name. The
 * password is never printed by {@link #toString()}.
 *
 * @param uri for example {@code neo4j://localhost:7687} or {@code bolt://127.0.0.1:7687}
 * @param user the user name; empty to connect without authentication
 * @param password the password (may be empty)
 * @param database the database name, {@value #DEFAULT_DATABASE} by default
 */
public record Neo4jSettings(String uri, String user, String password, String database) {
  /** The database of a fresh Neo4j installation. */
  public static final String DEFAULT_DATABASE = "neo4j";

  /** Environment variable of the URI (required by {@link #fromEnvironment}). */
  public static final String ENV_URI = "ENGRAM_NEO4J_URI";

  /** Environment variable of the user name (default: none, no authentication). */
  public static final String ENV_USER = "ENGRAM_NEO4J_USER";

  /** Environment variable of the password (default: empty). */
  public static final String ENV_PASSWORD = "ENGRAM_NEO4J_PASSWORD";

  /** Environment variable of the database name (default {@value #DEFAULT_DATABASE}). */
  public static final String ENV_DATABASE = "ENGRAM_NEO4J_DATABASE";

  public Neo4jSettings {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    Objects.requireNonNull(database, "database");
    if (uri.isBlank()) {
      throw new ValidationException("neo4j.uri", "must not be blank");
    }
    if (database.isBlank()) {
      throw new ValidationException("neo4j.database", "must not be blank");
    }
  }

  /** Settings for the default database. */
  public static Neo4jSettings of(String uri, String user, String password) {
    return new Neo4jSettings(uri, user, password, DEFAULT_DATABASE);
  }

  /** Settings from the process environment ({@value #ENV_URI} and friends). */
  public static Neo4jSettings fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  /**
   * Settings from these variables: {@value #ENV_URI} (required), {@value #ENV_USER}, {@value
   * #ENV_PASSWORD} and {@value #ENV_DATABASE}.
   *
   * @throws ValidationException if the URI is missing
   */
  public static Neo4jSettings fromEnvironment(Map<String, String> env) {
    String uri = env.get(ENV_URI);
    if (uri == null || uri.isBlank()) {
      throw new ValidationException(
          ENV_URI, "is not set; it names the Neo4j server, e.g. neo4j://localhost:7687");
    }
    return new Neo4jSettings(
        uri.trim(),
        env.getOrDefault(ENV_USER, ""),
        env.getOrDefault(ENV_PASSWORD, ""),
        env.getOrDefault(ENV_DATABASE, DEFAULT_DATABASE));
  }

  @Override
  public String toString() {
    return "Neo4jSettings[uri="
        + uri
        + ", user="
        + user
        + ", password="
        + (password.isEmpty() ? "" : "***")
        + ", database="
        + database
        + "]";
  }
}
