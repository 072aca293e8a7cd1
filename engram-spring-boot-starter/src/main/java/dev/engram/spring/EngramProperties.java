package dev.engram.spring;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Engram's settings under {@code engram.*}.
 *
 * @param enabled whether the auto-configuration makes a {@code Memory} bean
 * @param mode {@code embedded} (a data directory in this process) or {@code remote} (an {@code
 *     engram serve})
 * @param dataDir the data directory of the embedded mode
 * @param remote the server of the remote mode
 * @param advisor the Spring AI advisor's settings
 */
@ConfigurationProperties("engram")
public record EngramProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("embedded") Mode mode,
    @DefaultValue("engram-data") Path dataDir,
    @DefaultValue Remote remote,
    @DefaultValue Advisor advisor) {

  /** Where the memory lives. */
  public enum Mode {
    /** SQLite + Lucene in {@code engram.data-dir}, in this process. */
    EMBEDDED,
    /** An {@code engram serve} at {@code engram.remote.base-url}. */
    REMOTE
  }

  /**
   * The server of the remote mode.
   *
   * @param baseUrl the server's address, for example {@code http://127.0.0.1:8765}
   * @param apiKey the API key (its tenant is the memory's tenant); from the environment, never
   *     committed
   * @param timeout how long one request may take
   * @param maxRetries how often a 429 or 503 reply or a refused connection is tried again
   */
  public record Remote(
      String baseUrl,
      String apiKey,
      @DefaultValue("60s") Duration timeout,
      @DefaultValue("3") int maxRetries) {}

  /**
   * The Spring AI advisor ({@code EngramMemoryAdvisor}).
   *
   * @param topK how many memories to search for
   * @param maxTokens the most tokens the memories may add to the system prompt (the memory texts,
   *     counted by the engine's {@code dev.engram.TokenCounter})
   * @param infer whether each exchange goes through Engram's extraction (else it is stored
   *     verbatim)
   */
  public record Advisor(
      @DefaultValue("5") int topK,
      @DefaultValue("400") int maxTokens,
      @DefaultValue("true") boolean infer) {}
}
