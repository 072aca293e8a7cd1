package dev.engram.postgres;

import dev.engram.ValidationException;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How to reach the PostgreSQL database: JDBC URL, user, password, the schema Engram's tables live
 * in, and the pool size, and how vectors are searched. Immutable; built with {@link
 * #builder(String)}. {@link #toString()} never shows the password.
 *
 * @param url the JDBC URL, for example {@code jdbc:postgresql://db.example.com:5432/engram}
 * @param user the database user
 * @param password the password, if the server asks for one
 * @param schema the schema of Engram's tables (created if missing), {@value #DEFAULT_SCHEMA} by
 *     default
 * @param poolSize the most connections this process opens ({@value #DEFAULT_POOL_SIZE} by default);
 *     1 for servers that serve one connection at a time (PGlite): the migration and the scope locks
 *     then share it
 * @param vectors how vectors are stored and searched ({@link VectorMode#AUTO} by default)
 * @param exactSearchLimit on the pgvector path, the largest number of memories a search restricts
 *     to that is scored exactly; more use the HNSW index ({@value #DEFAULT_EXACT_SEARCH_LIMIT} by
 *     default, 0 for always the index)
 * @param vectorCacheMb on the plain-array path, the most mebibytes of decoded embeddings this
 *     process keeps to score searches in Java ({@value #DEFAULT_VECTOR_CACHE_MB} by default, at
 *     most a quarter of the JVM's maximum heap; 0 scores in SQL and keeps nothing); a cached
 *     embedding is used only for the exact row version it was read or written as, so it is never
 *     stale (see the architecture document)
 */
public record PostgresSettings(
    String url,
    String user,
    Optional<String> password,
    String schema,
    int poolSize,
    VectorMode vectors,
    int exactSearchLimit,
    int vectorCacheMb) {
  /** The schema used when none is configured. */
  public static final String DEFAULT_SCHEMA = "engram";

  /** The pool size used when none is configured. */
  public static final int DEFAULT_POOL_SIZE = 10;

  /**
   * The exact-search limit used when none is configured (chosen by measurement,
   * docs/DEPLOYMENT.md).
   */
  public static final int DEFAULT_EXACT_SEARCH_LIMIT = 5_000;

  /** The embedding cache of the plain-array path used when none is configured, in MiB. */
  public static final int DEFAULT_VECTOR_CACHE_MB = 256;

  private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  public PostgresSettings {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(vectors, "vectors");
    if (!url.startsWith("jdbc:postgresql:")) {
      throw new ValidationException(
          "store.url",
          "must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db)," + " got '" + url + "'");
    }
    if (!IDENTIFIER.matcher(schema).matches()) {
      throw new ValidationException(
          "store.schema",
          "must be a lower-case SQL identifier (letters, digits, _)," + " got '" + schema + "'");
    }
    if (poolSize < 1) {
      throw new ValidationException(
          "poolSize", "the pool size must be at least 1, got " + poolSize);
    }
    if (exactSearchLimit < 0) {
      throw new ValidationException(
          "exactSearchLimit", "must not be negative, got " + exactSearchLimit);
    }
    if (vectorCacheMb < 0) {
      throw new ValidationException("vectorCacheMb", "must not be negative, got " + vectorCacheMb);
    }
  }

  /**
   * Settings for {@code url} with user {@code postgres}, no password, schema {@value
   * #DEFAULT_SCHEMA}.
   */
  public static Builder builder(String url) {
    return new Builder(url);
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    Builder b =
        new Builder(url)
            .user(user)
            .schema(schema)
            .poolSize(poolSize)
            .vectors(vectors)
            .exactSearchLimit(exactSearchLimit)
            .vectorCacheMb(vectorCacheMb);
    password.ifPresent(b::password);
    return b;
  }

  @Override
  public String toString() {
    return "PostgresSettings[url="
        + url
        + ", user="
        + user
        + ", password="
        + (password.isPresent() ? "***" : "none")
        + ", schema="
        + schema
        + ", poolSize="
        + poolSize
        + ", vectors="
        + vectors
        + ", exactSearchLimit="
        + exactSearchLimit
        + ", vectorCacheMb="
        + vectorCacheMb
        + "]";
  }

  /** Builds {@link PostgresSettings}. */
  public static final class Builder {
    private final String url;
    private String user = "postgres";
    private Optional<String> password = Optional.empty();
    private String schema = DEFAULT_SCHEMA;
    private int poolSize = DEFAULT_POOL_SIZE;
    private VectorMode vectors = VectorMode.AUTO;
    private int exactSearchLimit = DEFAULT_EXACT_SEARCH_LIMIT;
    private int vectorCacheMb = DEFAULT_VECTOR_CACHE_MB;

    private Builder(String url) {
      this.url = url;
    }

    public Builder user(String value) {
      this.user = value;
      return this;
    }

    public Builder password(String value) {
      this.password = Optional.of(value);
      return this;
    }

    public Builder schema(String value) {
      this.schema = value;
      return this;
    }

    public Builder poolSize(int value) {
      this.poolSize = value;
      return this;
    }

    public Builder vectors(VectorMode value) {
      this.vectors = value;
      return this;
    }

    public Builder exactSearchLimit(int value) {
      this.exactSearchLimit = value;
      return this;
    }

    /** MiB of decoded embeddings kept for the plain-array path's search; 0 scores in SQL. */
    public Builder vectorCacheMb(int value) {
      this.vectorCacheMb = value;
      return this;
    }

    public PostgresSettings build() {
      return new PostgresSettings(
          url, user, password, schema, poolSize, vectors, exactSearchLimit, vectorCacheMb);
    }
  }
}
