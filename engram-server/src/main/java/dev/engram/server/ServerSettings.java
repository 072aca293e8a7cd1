package dev.engram.server;

import dev.engram.ValidationException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;

/**
 * How {@code engram serve} listens and what it allows. Immutable; build with {@link #builder()}.
 *
 * @param host the address to bind (default {@code 127.0.0.1})
 * @param port the TCP port; 0 picks a free one (default 8765)
 * @param maxBodyBytes the largest request body accepted; larger ones get 413 (default 8 MiB: room
 *     for a message at the engine's default text limit of 1 MiB characters, in JSON, at up to three
 *     UTF-8 bytes a character)
 * @param rateLimitPerMinute requests per minute allowed per API key, 0 for no limit (default 0)
 * @param insecureNoAuth serve without API keys: every request acts as an admin of the {@code
 *     default} tenant; refused on a non-loopback address (default false)
 * @param eventWorkers threads that run accepted asynchronous adds (default 2)
 * @param shutdownGrace how long a graceful stop waits for in-flight requests and running adds
 *     (default 20 s)
 * @param eventLease how long an add event this server claimed stays its without a renewal (renewed
 *     every third of it); when the server dies, another server on the same event store takes the
 *     event over after this long (default 60 s, at least 3 s)
 * @param keyCacheTtl how long an authenticated API key is trusted without reading the key store
 *     again: a key revoked from another process (the CLI, another server) stops working within this
 *     long; zero reads the store on every request (default 2 s, at most 60 s)
 */
public record ServerSettings(
    String host,
    int port,
    long maxBodyBytes,
    int rateLimitPerMinute,
    boolean insecureNoAuth,
    int eventWorkers,
    Duration shutdownGrace,
    Duration eventLease,
    Duration keyCacheTtl) {
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 8765;
  public static final long DEFAULT_MAX_BODY_BYTES = 8L << 20;
  public static final Duration DEFAULT_KEY_CACHE_TTL = Duration.ofSeconds(2);

  /** The longest a revoked key may keep working on a server that has seen it. */
  public static final Duration MAX_KEY_CACHE_TTL = Duration.ofSeconds(60);

  public ServerSettings {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(shutdownGrace, "shutdownGrace");
    Objects.requireNonNull(eventLease, "eventLease");
    Objects.requireNonNull(keyCacheTtl, "keyCacheTtl");
    if (host.isBlank()) {
      throw new ValidationException("server.host", "must not be blank");
    }
    if (port < 0 || port > 65535) {
      throw new ValidationException("server.port", "must be between 0 and 65535, got " + port);
    }
    if (maxBodyBytes < 1024) {
      throw new ValidationException(
          "server.max_body_bytes", "must be at least 1024, got " + maxBodyBytes);
    }
    if (rateLimitPerMinute < 0) {
      throw new ValidationException(
          "server.rate_limit_per_minute", "must be 0 (off) or positive, got " + rateLimitPerMinute);
    }
    if (eventWorkers < 1 || eventWorkers > 64) {
      throw new ValidationException(
          "server.event_workers", "must be between 1 and 64, got " + eventWorkers);
    }
    if (eventLease.compareTo(Duration.ofSeconds(3)) < 0) {
      throw new ValidationException(
          "server.event_lease_seconds", "must be at least 3, got " + eventLease.toSeconds());
    }
    if (keyCacheTtl.isNegative() || keyCacheTtl.compareTo(MAX_KEY_CACHE_TTL) > 0) {
      throw new ValidationException(
          "server.key_cache_seconds",
          "must be between 0 and "
              + MAX_KEY_CACHE_TTL.toSeconds()
              + ", got "
              + keyCacheTtl.toSeconds());
    }
    if (shutdownGrace.isNegative()) {
      throw new ValidationException("server.shutdown_grace", "must not be negative");
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** True if {@link #host} names only this machine (127.0.0.0/8, ::1, localhost). */
  public boolean loopbackOnly() {
    if (host.equals("localhost")) {
      return true;
    }
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** A builder whose values start at the defaults. */
  public Builder toBuilder() {
    return new Builder()
        .host(host)
        .port(port)
        .maxBodyBytes(maxBodyBytes)
        .rateLimitPerMinute(rateLimitPerMinute)
        .insecureNoAuth(insecureNoAuth)
        .eventWorkers(eventWorkers)
        .shutdownGrace(shutdownGrace)
        .eventLease(eventLease)
        .keyCacheTtl(keyCacheTtl);
  }

  /** Builds {@link ServerSettings}; every value starts at its default. */
  public static final class Builder {
    private String host = DEFAULT_HOST;
    private int port = DEFAULT_PORT;
    private long maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    private int rateLimitPerMinute;
    private boolean insecureNoAuth;
    private int eventWorkers = 2;
    private Duration shutdownGrace = Duration.ofSeconds(20);
    private Duration eventLease = Duration.ofSeconds(60);
    private Duration keyCacheTtl = DEFAULT_KEY_CACHE_TTL;

    private Builder() {}

    public Builder host(String h) {
      this.host = h;
      return this;
    }

    public Builder port(int p) {
      this.port = p;
      return this;
    }

    public Builder maxBodyBytes(long n) {
      this.maxBodyBytes = n;
      return this;
    }

    public Builder rateLimitPerMinute(int n) {
      this.rateLimitPerMinute = n;
      return this;
    }

    public Builder insecureNoAuth(boolean value) {
      this.insecureNoAuth = value;
      return this;
    }

    public Builder eventWorkers(int n) {
      this.eventWorkers = n;
      return this;
    }

    public Builder shutdownGrace(Duration d) {
      this.shutdownGrace = d;
      return this;
    }

    public Builder eventLease(Duration d) {
      this.eventLease = d;
      return this;
    }

    public Builder keyCacheTtl(Duration d) {
      this.keyCacheTtl = d;
      return this;
    }

    public ServerSettings build() {
      return new ServerSettings(
          host,
          port,
          maxBodyBytes,
          rateLimitPerMinute,
          insecureNoAuth,
          eventWorkers,
          shutdownGrace,
          eventLease,
          keyCacheTtl);
    }
  }
}
