package dev.engram.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.engram.ValidationException;
import dev.engram.langchain4j.SettingsLoader;
import dev.engram.server.ServerSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code server:} block of {@code engram.yaml} and its environment overrides, under the command
 * line's flags: {@code host} ({@code ENGRAM_SERVER_HOST}), {@code port} ({@code
 * ENGRAM_SERVER_PORT}), {@code max_body_bytes} ({@code ENGRAM_SERVER_MAX_BODY_BYTES}), {@code
 * rate_limit_per_minute} ({@code ENGRAM_SERVER_RATE_LIMIT}), {@code event_workers} ({@code
 * ENGRAM_SERVER_EVENT_WORKERS}), {@code shutdown_grace_seconds} ({@code
 * ENGRAM_SERVER_SHUTDOWN_GRACE_SECONDS}), {@code event_lease_seconds} ({@code
 * ENGRAM_SERVER_EVENT_LEASE_SECONDS}), {@code key_cache_seconds} ({@code
 * ENGRAM_SERVER_KEY_CACHE_SECONDS}).
 */
final class ServerSettingsReader {
  static final List<String> KEYS =
      List.of(
          "host",
          "port",
          "max_body_bytes",
          "rate_limit_per_minute",
          "event_workers",
          "shutdown_grace_seconds",
          "event_lease_seconds",
          "key_cache_seconds");

  private ServerSettingsReader() {}

  static ServerSettings.Builder read(Map<String, String> env, Path workingDir) {
    ServerSettings.Builder b = ServerSettings.builder();
    Optional<Path> file = SettingsLoader.locate(env, workingDir);
    if (file.isPresent()) {
      JsonNode server = yaml(file.get()).path("server");
      if (!server.isMissingNode() && !server.isNull()) {
        if (!server.isObject()) {
          throw new ValidationException("server", "expected a mapping in " + file.get());
        }
        server
            .fieldNames()
            .forEachRemaining(
                k -> {
                  if (!KEYS.contains(k)) {
                    throw new ValidationException(
                        "server." + k,
                        "unknown key in "
                            + file.get()
                            + " (known keys of server: "
                            + String.join(", ", KEYS)
                            + ")");
                  }
                });
        apply(
            b,
            k -> server.hasNonNull(k) ? Optional.of(server.get(k).asText()) : Optional.empty(),
            "server.",
            " in " + file.get());
      }
    }
    apply(
        b,
        k -> Optional.ofNullable(env.get(envName(k))).filter(v -> !v.isBlank()),
        "",
        " in the environment");
    return b;
  }

  private static String envName(String key) {
    return switch (key) {
      case "rate_limit_per_minute" -> "ENGRAM_SERVER_RATE_LIMIT";
      default -> "ENGRAM_SERVER_" + key.toUpperCase(java.util.Locale.ROOT);
    };
  }

  private interface Source {
    Optional<String> get(String key);
  }

  private static void apply(ServerSettings.Builder b, Source s, String prefix, String where) {
    s.get("host").ifPresent(b::host);
    s.get("port").ifPresent(v -> b.port(integer(prefix, "port", v, where)));
    s.get("max_body_bytes")
        .ifPresent(v -> b.maxBodyBytes(integer(prefix, "max_body_bytes", v, where)));
    s.get("rate_limit_per_minute")
        .ifPresent(v -> b.rateLimitPerMinute(integer(prefix, "rate_limit_per_minute", v, where)));
    s.get("event_workers")
        .ifPresent(v -> b.eventWorkers(integer(prefix, "event_workers", v, where)));
    s.get("shutdown_grace_seconds")
        .ifPresent(
            v ->
                b.shutdownGrace(
                    Duration.ofSeconds(integer(prefix, "shutdown_grace_seconds", v, where))));
    s.get("event_lease_seconds")
        .ifPresent(
            v ->
                b.eventLease(Duration.ofSeconds(integer(prefix, "event_lease_seconds", v, where))));
    s.get("key_cache_seconds")
        .ifPresent(
            v -> b.keyCacheTtl(Duration.ofSeconds(integer(prefix, "key_cache_seconds", v, where))));
  }

  private static int integer(String prefix, String key, String value, String where) {
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new ValidationException(
          prefix.isEmpty() ? envName(key) : prefix + key,
          "expected a whole number" + where + ", got '" + value + "'");
    }
  }

  private static JsonNode yaml(Path file) {
    try {
      return new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
    } catch (IOException e) {
      throw new ValidationException("config", "cannot read " + file + ": " + e.getMessage());
    }
  }
}
