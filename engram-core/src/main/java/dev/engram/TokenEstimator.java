package dev.engram;

import java.util.Objects;

/**
 * The one token estimate behind every context budget (search's {@code maxTokens}, the LangChain4j retriever, the
 * Spring AI advisor): one token per four characters, rounded up, at least one for non-empty text. It needs no
 * tokenizer and does not depend on the model. Measured against OpenAI's cl100k_base tokenizer (jtokkit) on the LoCoMo
 * sample's memories (docs/BENCHMARKS.md, "Token estimate"), it is within a few percent on a whole context and
 * overestimates more often than not, so a budget is rarely exceeded by much.
 */
public final class TokenEstimator {
  /** Characters per estimated token. */
  public static final int CHARS_PER_TOKEN = 4;

  private TokenEstimator() {}

  /** The estimated token count of {@code text}: {@code ceil(length / 4)}. */
  public static int estimate(String text) {
    Objects.requireNonNull(text, "text");
    return (text.length() + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
  }
}
