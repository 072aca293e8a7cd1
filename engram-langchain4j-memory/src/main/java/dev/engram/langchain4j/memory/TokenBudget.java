package dev.engram.langchain4j.memory;

/**
 * A token count estimate for budgets: one token per four characters, rounded up, which overestimates for English
 * text with common tokenizers, so a budget is not exceeded. One implementation, used by every integration.
 */
final class TokenBudget {
  private TokenBudget() {}

  static int estimate(String text) {
    return (text.length() + 3) / 4;
  }
}
