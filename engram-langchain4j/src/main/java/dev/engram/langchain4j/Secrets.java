package dev.engram.langchain4j;

import dev.engram.ValidationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Reads API keys and the Neo4j password from the environment or a secrets file, never from a
 * configuration file. Error messages name the variable or the file, never the value.
 */
final class Secrets {
  private Secrets() {}

  /**
   * The key for one model.
   *
   * @param section {@code llm} or {@code embedder}, for messages
   * @param provider the provider's configuration name, for messages
   * @param envName the variable holding the key
   * @param file a secrets file read instead of the variable when present (its whole text, trimmed)
   * @param env the environment
   * @param required whether the provider cannot work without a key
   * @throws ValidationException if a required key is missing, or the file cannot be read or is
   *     empty
   */
  static Optional<String> apiKey(
      String section,
      String provider,
      String envName,
      Optional<Path> file,
      Map<String, String> env,
      boolean required) {
    return secret(
        section + ".api_key_env",
        section + ".api_key_file",
        envName,
        file,
        env,
        required
            ? "provider "
                + provider
                + " needs an API key: set "
                + envName
                + ", name another variable with "
                + section
                + ".api_key_env, or give "
                + section
                + ".api_key_file"
            : null);
  }

  /**
   * The Neo4j password of the {@code graph_store} section.
   *
   * @param envName the variable holding the password
   * @param file a secrets file read instead of the variable when present
   * @param env the environment
   * @param required whether a user is named, so that the server will ask for a password
   * @throws ValidationException if a required password is missing, or the file cannot be read or is
   *     empty
   */
  static Optional<String> password(
      String envName, Optional<Path> file, Map<String, String> env, boolean required) {
    return secret(
        "graph_store.password_env",
        "graph_store.password_file",
        envName,
        file,
        env,
        required
            ? "graph_store.user is set, so Neo4j needs a password: set "
                + envName
                + ", name another variable with"
                + " graph_store.password_env, or give graph_store.password_file"
            : null);
  }

  /**
   * The PostgreSQL password of the {@code store} section: from {@code file} if given, else from
   * {@code envName}; empty if neither is set (a server that trusts the connection).
   *
   * @throws ValidationException if the file cannot be read or is empty
   */
  static Optional<String> storePassword(
      String envName, Optional<Path> file, Map<String, String> env) {
    return secret("store.password_env", "store.password_file", envName, file, env, null);
  }

  /**
   * The secret from {@code file} if present, else from {@code envName}; {@code missing} non-null if
   * required.
   */
  private static Optional<String> secret(
      String envField,
      String fileField,
      String envName,
      Optional<Path> file,
      Map<String, String> env,
      String missing) {
    if (file.isPresent()) {
      Path path = file.get();
      String text;
      try {
        text = Files.readString(path, StandardCharsets.UTF_8).trim();
      } catch (IOException e) {
        throw new ValidationException(
            fileField,
            "cannot read the secrets file " + path + " (" + e.getClass().getSimpleName() + ")");
      }
      if (text.isEmpty()) {
        throw new ValidationException(fileField, "the secrets file " + path + " is empty");
      }
      return Optional.of(text);
    }
    String value = env.get(envName);
    if (value == null || value.isBlank()) {
      if (missing != null) {
        throw new ValidationException(
            envField, "environment variable " + envName + " is not set; " + missing);
      }
      return Optional.empty();
    }
    return Optional.of(value.trim());
  }
}
