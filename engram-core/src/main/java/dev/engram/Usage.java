package dev.engram;

import java.time.Duration;
import java.util.Objects;

/**
 * What an operation spent on language models.
 *
 * @param llmCalls calls made (retries included)
 * @param inputTokens prompt tokens
 * @param outputTokens completion tokens
 * @param llmTime wall time spent waiting for models
 */
public record Usage(int llmCalls, long inputTokens, long outputTokens, Duration llmTime) {
  public static final Usage NONE = new Usage(0, 0, 0, Duration.ZERO);

  public Usage {
    Objects.requireNonNull(llmTime, "llmTime");
  }

  public Usage plus(Usage o) {
    return new Usage(
        llmCalls + o.llmCalls,
        inputTokens + o.inputTokens,
        outputTokens + o.outputTokens,
        llmTime.plus(o.llmTime));
  }
}
