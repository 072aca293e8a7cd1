package dev.engram;

/**
 * Counts the tokens of a text for a context budget ({@link SearchRequest.Builder#maxTokens}, the
 * LangChain4j retriever, the Spring AI advisor): the engine's one way of sizing what a search hands
 * a model ({@link Engram.Builder#tokenCounter}). Implementations are thread-safe and never return a
 * negative count.
 */
@FunctionalInterface
public interface TokenCounter {
  /**
   * The tokens of {@code text}.
   *
   * @throws NullPointerException if {@code text} is null
   */
  int count(String text);

  /**
   * OpenAI's cl100k_base tokenizer (GPT-4, GPT-3.5; jtokkit, in process, no network), exact: a
   * budget of N holds memories of at most N cl100k tokens together. The default. Counts of texts up
   * to {@value Cl100kTokenCounter#CACHED_LENGTH} characters are remembered (up to {@value
   * Cl100kTokenCounter#CACHED_TEXTS} of them and {@value Cl100kTokenCounter#CACHED_CHARACTERS}
   * characters), so a memory found again, a long message's passage included, is not tokenised
   * again; the encoding loads on first use (about a quarter of a second).
   */
  static TokenCounter cl100k() {
    return Cl100kTokenCounter.INSTANCE;
  }

  /**
   * {@link TokenEstimator}: characters per token by script, no tokenizer. On English it counts
   * about a tenth more than cl100k (docs/benchmarks/log.md, "Token estimate"), so a budget then
   * holds fewer memories than it could.
   */
  static TokenCounter estimate() {
    return TokenEstimator::estimate;
  }
}
